// Package dep is a dependency the vendored fixture has only in its
// vendor directory: no module cache or proxy holds it.
package dep

// Add returns a + b.
func Add(a, b int) int { return a + b }
