package mem

// Div divides: b = 0 panics at run time, with no panic call.
func Div(a, b int) (int, error) {
	q := a / b
	return q, nil
}

// Either returns whether a or b is positive; b is not read when a is.
func Either(a, b int) bool {
	ok := a > 0 || b > 0
	return ok
}

// Shift writes the element after i.
func Shift(a int) int {
	xs := make([]int, 4)
	i := 2
	j := i + 1
	xs[j] = a
	v := xs[3]
	return v
}
