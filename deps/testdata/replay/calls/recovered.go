package calls

import "fmt"

// Guarded returns xs[i], or -1 and an error when i is out of range: the
// runtime panic of the index is recovered by the deferred function,
// which sets the named results; the function returns normally.
func Guarded(xs []int, i int) (v int, err error) {
	defer func() {
		if r := recover(); r != nil {
			v = -1
			err = fmt.Errorf("guarded: %v", r)
		}
	}()
	v = xs[i]
	return v, nil
}

// Recovered calls Guarded with an index out of range: its result is
// Guarded's, so it depends on the index that panicked.
func Recovered(n int) int {
	_, err := Guarded([]int{1, 2}, n)
	if err != nil {
		return len(err.Error())
	}
	return 0
}
