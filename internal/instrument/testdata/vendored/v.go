// Package vendored is a module built in vendor mode (go 1.15, a vendor
// directory): its dependency comes from vendor/, and go.mod's
// requirements must match vendor/modules.txt.
package vendored

import "example.com/dep"

// Twice returns n + n, computed by the vendored dependency.
func Twice(n int) int {
	sum := dep.Add(n, n)
	return sum
}
