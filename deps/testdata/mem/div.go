package mem

// Div divides: b = 0 panics at run time, with no panic call.
func Div(a, b int) (int, error) {
	q := a / b
	return q, nil
}
