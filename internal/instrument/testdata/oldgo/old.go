// +build !culprit_never

// Package oldgo is written for Go 1.12: its go.mod declares it, and its
// files use only what Go 1.12 has. Instrumented, it must record what a
// module of a current Go version records.
package oldgo

import "errors"

// Scale multiplies each element, through a call whose result is used.
func Scale(xs []int, k int) []int {
	out := make([]int, 0, len(xs))
	for _, x := range xs {
		out = append(out, mul(x, k))
	}
	return out
}

func mul(a, b int) int { return a * b }

// Check panics on a negative value and recovers, returning an error.
func Check(x int) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = errors.New(r.(string))
		}
	}()
	if x < 0 {
		panic("negative")
	}
	return nil
}

// Pipe sends values over a channel and sums what it receives.
func Pipe(n int) int {
	ch := make(chan int, n)
	for i := 0; i < n; i++ {
		ch <- i * 2
	}
	close(ch)
	sum := 0
	for v := range ch {
		sum += v
	}
	return sum
}

// Closures keeps Go 1.21's loop semantics: every closure sees the last i.
func Closures() int {
	var fs []func() int
	for i := 0; i < 3; i++ {
		fs = append(fs, func() int { return i })
	}
	return fs[0]() + fs[1]()
}
