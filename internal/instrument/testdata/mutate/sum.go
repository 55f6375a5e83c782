package mutate

// Sum adds the first n elements.
func Sum(xs []int, n int) int {
	s, m := 0, len(xs)
	for i := 0; i < n && i < m; i++ {
		s = s + xs[i]*1
	}
	return s
}
