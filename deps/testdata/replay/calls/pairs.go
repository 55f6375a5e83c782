package calls

// Pair returns split's two results as they are: return f(), f of
// several results.
func Pair(x int) (int, error) {
	return split(x)
}

func split(x int) (int, error) {
	y := x * 2
	return y, nil
}
