//go:build !culprit_never
// +build !culprit_never

package oldgo

// Twice is in a file with both kinds of build constraint lines.
func Twice(x int) int { return x + x }
