// Package par gives each test its own statements, so that attribution
// can be checked: A, B and C run only in the tests named after them.
package par

// pick returns n. Its else-if makes the file use the runtime package
// under -events stmt (a file whose statements are all plain is left out
// of the overlay by the instrumenter at 5a73fa0; see the rank report).
func pick(n int) int {
	if n < 0 {
		return 0
	} else if n > 100 {
		return 100
	}
	return n
}

// A is run by TestPar/a only.
func A() int {
	return pick(1)
}

// B is run by TestPar/b only, in a goroutine the test starts.
func B() int {
	return pick(2)
}

// C is run by TestPar/c only.
func C() int {
	return pick(3)
}

// Setup is run by TestPar itself, outside its subtests.
func Setup() int {
	return pick(0)
}

// Skipped is run only by a skipped test.
func Skipped() int {
	return pick(4)
}
