package constructs

import "os"

type MyBool bool

// Middle returns the middle of three.
func Middle(x, y, z int) int {
	if y < z {
		if x < y {
			return y
		} else if x < z {
			return y // bug
		}
	} else {
		if x > y {
			return y
		} else if x > z {
			return x
		}
	}
	return z
}

func Named(a int) (r int, err error) {
	var m MyBool = a > 1 && a < 10
	if m {
		r = 1
	}
L:
	for i := 0; i < 3; i++ {
		switch {
		case i == 1:
			continue L
		case i == 2:
			fallthrough
		default:
			r++
		}
	}
	return
}

func Quit() { os.Exit(3) }

func Gen[T ~int](xs []T) (s T) {
	for _, x := range xs {
		s += x
	}
	return
}

// Sign's cases are tried in order: when one runs, those above it were
// false (and every case, when the default runs).
func Sign(x int) string {
	switch {
	case x < 0:
		return "negative"
	default:
		return "other"
	case x == 0:
		return "zero"
	}
}

// Stack is a stack of ints.
type Stack struct{ xs []int }

// Push pushes x.
func (s *Stack) Push(x int) { s.xs = append(s.xs, x) }

// PushAll pushes the middle of each three, then the sum of the first.
// Compiled without inlining, its plain copy calls Middle's and Push's
// plain functions; Gen records counters only and has none.
func PushAll(s *Stack, xs [][3]int) {
	for _, x := range xs {
		s.Push(Middle(x[0], x[1], x[2]))
	}
	s.Push(Gen(xs[0][:]))
}
