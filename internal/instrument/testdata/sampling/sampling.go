// Package sampling is a fixture of culprit's sampling: two tests calling
// one function six times each.
package sampling

// Twice doubles x.
func Twice(x int) int { return 2 * x }
