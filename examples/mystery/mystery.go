package mystery

import "strings"

// Mystery accepts or rejects inp. It panics with the string "Invalid input"
// when it rejects inp, and returns normally otherwise.
func Mystery(inp string) {
	x := strings.IndexRune(inp, 0o17+0o31)
	y := strings.IndexRune(inp, 0o27+0o22)
	if x >= 0 && y >= 0 && x < y {
		panic("Invalid input")
	}
}
