//go:build !nothere

package hazards

// Tagged is compiled: its build constraint holds.
func Tagged() bool { return true }
