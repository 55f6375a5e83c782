// Package sqrt computes square roots with Newton's method: the seeds'
// example for assertions, slices and mined specifications.
//
// SquareRoot is the version from the seeds' chapter on assertions, which
// the chapter on dependencies slices: a precondition (x >= 0), the
// Newton-Raphson loop, which stops when two successive approximations are
// equal, and a postcondition (the result squared is close to x). Both
// conditions panic when they do not hold.
//
// The seeds' chapter on mining specifications starts from the same loop
// without the checks and shows what goes wrong: square_root(-1.0) never
// returns. Here the precondition turns that hang into a panic, so the
// failing test TestSquareRoot/minus_one, which expects NaN for a negative
// input as math.Sqrt returns, fails quickly; the other subtests pass. Their
// inputs are the ones the seeds mine invariants from (x > 0 and a positive
// result among them), which is what culprit mine and culprit check work
// with.
//
// One more flaw is kept from the seed and not tested: for x == 0 the seed's
// Python version divides by zero, while in Go 0/0 is NaN, NaN never equals
// itself, and the loop does not end (likewise for +Inf). Do not call
// SquareRoot(0).
package sqrt
