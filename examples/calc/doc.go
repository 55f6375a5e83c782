// Package calc evaluates integer arithmetic: the Go stand-in for the seed's
// myeval, which hands its input to Python's eval and dies on a division by
// zero.
//
// Eval parses + - * / with the usual precedence, unary minus and
// parentheses, and returns an error for malformed input. Its defect: it
// divides without checking the divisor, so "1 + 2 * 3 / 0" panics with Go's
// runtime error "integer divide by zero" instead of returning an error.
// Because malformed candidates return an error rather than panic, a reducer
// that insists on the same failure shrinks that input to a three-character
// division such as "3/0", as in the seed.
//
// In TestEval the division_by_zero subtest fails; the others pass.
package calc
