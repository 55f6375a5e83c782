package listlength

// ListLength returns the number of elements in elems, counting them one
// recursive call at a time.
func ListLength[E any](elems []E) int {
	var length int
	if len(elems) == 0 {
		length = 0
	} else {
		length = 1 + ListLength(elems[1:])
	}
	return length
}
