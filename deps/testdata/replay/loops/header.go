package loops

// Header: len, cap and a range's index read the slice's length, not
// the elements written (xs[0] = a); the range's value reads them.
func Header(a, b int) int {
	xs := make([]int, 2)
	xs[0] = a
	xs[1] = b
	n := len(xs) + cap(xs)
	for i := range xs {
		n += i
	}
	for _, x := range xs {
		n += x
	}
	return n
}
