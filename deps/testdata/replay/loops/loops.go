// Package loops holds every kind of loop and jump, each in a function
// whose result the tests slice: no statement may be placed twice, no
// control dependence lost.
package loops

import (
	"iter"
	"strconv"
)

// Forever is "for {" left by a break: the first statement of the body
// runs once per iteration, and what the break guards depends on its
// condition.
func Forever(s string) (r int) {
	for {
		v, err := strconv.Atoi(s)
		if err != nil || v > 2 {
			r = v
			break
		}
		s += "9"
	}
	return r
}

// Classic is a three-clause for with a continue.
func Classic(n int) int {
	s := 0
	for i := 0; i < n; i++ {
		if i%2 == 0 {
			continue
		}
		s += i
	}
	return s
}

// PostOnly is "for ; ; i++" left by a break.
func PostOnly(n int) int {
	s, i := 0, 0
	for ; ; i++ {
		if i >= n {
			break
		}
		s += i
	}
	return s
}

// RangeInt ranges over an integer.
func RangeInt(n int) int {
	s := 0
	for i := range n {
		s += i
	}
	return s
}

// RangeSlice ranges over a slice and breaks.
func RangeSlice(xs []int) int {
	s := 0
	for _, x := range xs {
		if x < 0 {
			break
		}
		s += x
	}
	return s
}

// RangeMap ranges over a map.
func RangeMap(m map[string]int) int {
	s := 0
	for k, v := range m {
		if k != "" {
			s += v
		}
	}
	return s
}

// RangeChan ranges over a channel.
func RangeChan(a, b int) int {
	ch := make(chan int, 2)
	ch <- a
	ch <- b
	close(ch)
	s := 0
	for v := range ch {
		s += v
	}
	return s
}

// count yields 0 to n-1.
func count(n int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := 0; i < n; i++ {
			if !yield(i) {
				return
			}
		}
	}
}

// RangeFunc ranges over a function.
func RangeFunc(n int) int {
	s := 0
	for v := range count(n) {
		if v > 5 {
			break
		}
		s += v
	}
	return s
}

// Labeled continues and breaks an outer loop from an inner one.
func Labeled(n int) int {
	s := 0
outer:
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if j > i {
				continue outer
			}
			if i+j > 3 {
				break outer
			}
			s += j
		}
	}
	return s
}

// Goto loops with goto.
func Goto(n int) int {
	s, i := 0, 0
loop:
	if i < n {
		s += i
		i++
		goto loop
	}
	return s
}

// Select receives in a loop, or takes the default.
func Select(a int) int {
	ch := make(chan int, 1)
	ch <- a
	s := 0
	for i := 0; i < 2; i++ {
		select {
		case v := <-ch:
			s += v
		default:
			s--
		}
	}
	return s
}

// Fallthrough falls from one case into the next.
func Fallthrough(n int) int {
	s := 0
	switch {
	case n > 1:
		s = 1
		fallthrough
	case n > 0:
		s += 2
	default:
		s = 3
	}
	return s
}

// Block holds a bare block in a loop.
func Block(n int) int {
	s := 0
	for i := 0; i < n; i++ {
		{
			x := i * 2
			s += x
		}
	}
	return s
}

// doubled yields each element of xs times two.
func doubled(xs []int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := 0; i < len(xs); i++ {
			if !yield(xs[i] * 2) {
				return
			}
		}
	}
}

// RangeYield sums what an iterator yields: the loop variable is the
// value passed to yield.
func RangeYield(xs []int) int {
	s := 0
	for v := range doubled(xs) {
		s += v
	}
	return s
}

// indexed yields each index of xs with its element plus k.
func indexed(xs []int, k int) iter.Seq2[int, int] {
	return func(yield func(int, int) bool) {
		for i, x := range xs {
			if !yield(i, plus(x, k)) {
				return
			}
		}
	}
}

// RangeYield2 sums the values an iterator yields with their keys: the
// value is yield's second argument, the key its first.
func RangeYield2(xs []int, k int) int {
	s := 0
	for _, v := range indexed(xs, k) {
		s += v
	}
	return s
}

func plus(a, b int) int { return a + b }

// next yields each value of seq plus one: an adapter, whose yield is
// called from the body of its own range over seq.
func next(seq iter.Seq[int]) iter.Seq[int] {
	return func(yield func(int) bool) {
		for v := range seq {
			if !yield(v + 1) {
				return
			}
		}
	}
}

// RangeAdapter ranges over an adapter of an iterator.
func RangeAdapter(xs []int) int {
	s := 0
	for v := range next(doubled(xs)) {
		s += v
	}
	return s
}
