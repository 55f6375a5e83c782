// Package budget is a fixture of the trace's event budget: one test
// calling a function 300 times.
package budget

// Inc adds one to x.
func Inc(x int) int { return x + 1 }
