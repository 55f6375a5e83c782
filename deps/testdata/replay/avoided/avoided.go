// Package avoided checks for panics that did not happen: a test that
// expects a panic fails when a wrong condition skips it (issue 18).
package avoided

// Panicked reports whether check(n) panicked: it recovers, and the
// recover's nil says that no branch that panics was taken, so the
// result depends on the if in check that did not panic.
func Panicked(n int) bool {
	did := false
	func() {
		defer func() {
			if r := recover(); r != nil {
				did = true
			}
		}()
		check(n)
	}()
	return did
}

func check(n int) {
	if n > 3 {
		panic("too big")
	}
}
