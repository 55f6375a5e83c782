// Package listlength holds the seeds' recursive example for mining
// specifications: ListLength counts the elements of a slice by recursing on
// the slice without its first element.
//
// It has no defect. Mined from a single call on [1, 2, 3], the
// specification already says what matters: the result is never negative
// and equals len(elems). Because the function calls itself, each test
// produces a chain of calls on ever shorter slices, which is what culprit
// mine, slice and flow have to follow across frames. All tests pass.
package listlength
