// Package cases is a fixture of test case purification: a table-driven
// test without subtests whose fourth case fails.
package cases

// Sign returns 1, 0 or -1 by the sign of x.
func Sign(x int) int {
	if x > 0 {
		return 1
	}
	if x < -9 {
		return 0 // the fault: -1
	}
	if x < 0 {
		return -1
	}
	return 0
}
