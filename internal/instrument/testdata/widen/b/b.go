package b

// Double doubles.
func Double(x int) int {
	y := x * 2
	return y
}
