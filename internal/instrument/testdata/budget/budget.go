// Package budget is a fixture of the trace's event budget: one test
// calling a function 300 times.
package budget

// Inc adds one to x.
func Inc(x int) int { return x + 1 }

// Steps counts, with a labelled loop, the steps from n down to a
// multiple of 64; its calls past the first hundred are mostly not
// sampled (muted), and only they take the branches n >= 280 takes.
func Steps(n int) (steps int) {
	if n >= 280 {
		steps = 1000
	}
outer:
	for {
		switch {
		case n%64 == 0:
			break outer
		case n > 260 && n%2 == 1:
			steps += 2
			n--
			continue outer
		}
		steps++
		n--
	}
	return steps + sign(n)
}

// sign is -1, 0 or 1 as n is negative, zero or positive: Steps calls it
// once per call, so that compiled without inlining Steps's muted
// activations call its plain function.
func sign(n int) int {
	switch {
	case n < 0:
		return -1
	case n > 0:
		return 1
	}
	return 0
}
