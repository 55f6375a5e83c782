//go:build nothere

package hazards

// Tagged is not compiled: this would not compile at all.
func Tagged() bool { return "not" }
