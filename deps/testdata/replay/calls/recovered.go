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

// parse panics with a value of its own on an empty string.
func parse(s string) int {
	if s == "" {
		panic("empty")
	}
	return len(s)
}

// GuardedParse recovers parse's panic in a function it deferred, which
// sets its named error result.
func GuardedParse(s string) (n int, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("parse: %v", r)
		}
	}()
	n = parse(s)
	return n, nil
}

// RecoveredParse's result depends on GuardedParse's error, and so on
// the panic in parse.
func RecoveredParse() int {
	_, err := GuardedParse("")
	if err != nil {
		return len(err.Error())
	}
	return 0
}

// at returns xs[i]: with i out of range, a runtime panic raised here.
func at(xs []int, i int) int {
	return xs[i]
}

// GuardedAt recovers the runtime panic of at, a function it called.
func GuardedAt(xs []int, i int) (v int, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("guarded: %v", r)
		}
	}()
	v = at(xs, i)
	return v, nil
}
