package sqrt

import "math"

// Panic values of SquareRoot. They never mention the argument, so a panic
// reads the same for every input that violates the condition.
const (
	PreconditionViolated  = "precondition violated: x >= 0"
	PostconditionViolated = "postcondition violated: result * result is not close to x"
)

// SquareRoot returns the square root of x, computed with the Newton-Raphson
// method. It panics with PreconditionViolated if x is negative (or NaN),
// and with PostconditionViolated if the result squared is not close to x.
// It does not return for x == 0 or +Inf; see the package documentation.
func SquareRoot(x float64) float64 {
	if !(x >= 0) { // precondition
		panic(PreconditionViolated)
	}

	approx := math.NaN() // no approximation yet
	guess := x / 2
	for approx != guess {
		approx = guess
		guess = (approx + x/approx) / 2
	}

	if !isClose(approx*approx, x) { // postcondition
		panic(PostconditionViolated)
	}
	return approx
}

// isClose reports whether a and b agree to a relative tolerance of 1e-9,
// as Python's math.isclose does by default.
func isClose(a, b float64) bool {
	return math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b))
}
