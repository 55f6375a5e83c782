// Package reduce implements delta debugging: it shrinks a failure-inducing
// input to a 1-minimal one, grows a passing input to a 1-maximal one, or
// does both at once to isolate a minimal failure-inducing difference.
//
// The algorithms are generic over the element type: an input is a []E (the
// bytes of a file, its lines, the runes of a string, the elements of a Go
// slice) and a [Test] tells whether a candidate subsequence passes, fails
// the same way as the original, or is unresolved (fails differently, does
// not build, times out).
//
//   - [DDMin] is the classic ddmin of Zeller and Hildebrandt (2002): it
//     removes complements of ever smaller chunks until every single element
//     is needed.
//   - [DD] is general delta debugging. With [Min] it minimizes the failing
//     input, with [Max] it maximizes a passing input (ddmax), and with
//     [Diff] it does both, narrowing the difference between a passing and a
//     failing input until it is 1-minimal.
//
// Both memoize outcomes (a cache keyed by the candidate), count tests and
// cache hits, report each test and each improvement through hooks, stop on
// context cancellation with the best result found so far, and can test the
// candidates of a round concurrently: with several workers they run the
// round's candidates speculatively but accept the first one in the
// sequential order, so the result (and, with one worker, the exact sequence
// of tests) is the same as the sequential algorithm's.
//
// [Call] applies delta debugging to a failing Go function call: it captures
// the failure (a panic or a returned non-nil error), checks that it
// reproduces, and reduces the string, slice and array arguments in turns.
package reduce
