package reduce

import (
	"context"
	"errors"
	"fmt"
)

// Outcome is the verdict of a test on a candidate input.
type Outcome int

// The three outcomes of a test. The zero Outcome is invalid.
const (
	// Pass means the candidate does not fail.
	Pass Outcome = iota + 1
	// Fail means the candidate fails the same way as the original input.
	Fail
	// Unresolved means the test could not tell: the candidate failed in
	// another way, did not build, or timed out. It counts as "not failing"
	// when minimizing and as "not passing" when maximizing.
	Unresolved
)

// String returns "PASS", "FAIL" or "UNRESOLVED".
func (o Outcome) String() string {
	switch o {
	case Pass:
		return "PASS"
	case Fail:
		return "FAIL"
	case Unresolved:
		return "UNRESOLVED"
	}
	return fmt.Sprintf("Outcome(%d)", int(o))
}

// Test runs the program under test on a candidate and reports the outcome.
// When Config.Workers > 1 it is called concurrently. A test whose context
// is cancelled may return any outcome: it is discarded.
type Test[E any] func(ctx context.Context, candidate []E) Outcome

// Mode selects what general delta debugging does.
type Mode int

const (
	// Min minimizes the failing input (ddmin).
	Min Mode = 1 << iota
	// Max maximizes the passing input (ddmax).
	Max
	// Diff minimizes the failing and maximizes the passing input at once,
	// isolating a 1-minimal failure-inducing difference.
	Diff = Min | Max
)

// String returns "min", "max" or "diff".
func (m Mode) String() string {
	switch m {
	case Min:
		return "min"
	case Max:
		return "max"
	case Diff:
		return "diff"
	}
	return fmt.Sprintf("Mode(%d)", int(m))
}

// Config tunes a delta debugging run. The zero Config tests one candidate
// at a time, with memoization, and reports nothing.
type Config struct {
	// Workers is the number of candidates of one round tested
	// concurrently. Values <= 1 test sequentially. The result does not
	// depend on Workers; only the number of tests run (speculative tests
	// whose outcome was not needed) and the time taken do.
	Workers int

	// NoCache turns off memoization across rounds. Use it for a test whose
	// outcome for the same candidate may legitimately change.
	NoCache bool

	// Pass is the initial passing candidate of DD, as sorted indices into
	// the input; nil means the empty input. It lets a caller continue
	// maximizing at a finer granularity.
	Pass []int

	// OnTest, if set, is called after each test and each cache hit.
	// Calls are serialized.
	OnTest func(TestEvent)

	// OnProgress, if set, is called whenever the passing or the failing
	// candidate changes, and once at the start.
	OnProgress func(Progress)
}

// TestEvent describes one test, or one cache hit, during a run.
type TestEvent struct {
	// Number is the 1-based number of the test among the tests run so
	// far; it is 0 for a cache hit.
	Number int
	// Size is the candidate's length.
	Size int
	// Outcome is the test's verdict.
	Outcome Outcome
	// Cached reports that the outcome came from the cache.
	Cached bool
}

// Progress is the state of a run after an improvement: the current passing
// and failing candidates as sorted indices into the input.
type Progress struct {
	Pass, Fail []int
}

// Stats counts the work of a run.
type Stats struct {
	// Tests is the number of tests run (not counting cache hits).
	Tests int
	// CacheHits is the number of outcomes taken from the cache.
	CacheHits int
}

// Result is the outcome of a delta debugging run.
type Result[E any] struct {
	// Pass is the maximized passing input (empty when only minimizing).
	Pass []E
	// Fail is the minimized failing input (the whole input when only
	// maximizing).
	Fail []E
	// Diff holds the elements of Fail that are not in Pass.
	Diff []E
	// PassIdx and FailIdx are Pass and Fail as sorted indices into the
	// input.
	PassIdx, FailIdx []int
	Stats
}

// Errors reported when an input does not behave as the mode requires.
var (
	// ErrNotFailing: the input to minimize does not fail.
	ErrNotFailing = errors.New("input does not fail")
	// ErrNotPassing: the initial passing input does not pass.
	ErrNotPassing = errors.New("input does not pass")
)

// step names one way dd can move forward from a round's candidate.
type step int

const (
	reduceToSubset       step = iota // c_fail := c_pass ∪ Δi
	increaseToSubset                 // c_pass := c_fail − Δi
	reduceToComplement               // c_fail := c_fail − Δi
	increaseToComplement             // c_pass := c_pass ∪ Δi
)

// DD is general delta debugging (Zeller and Hildebrandt 2002) in the given
// mode. It starts from the passing candidate cfg.Pass (default: empty) and
// the failing candidate input and narrows their difference: with Min it
// only shrinks the failing side, with Max it only grows the passing side,
// with Diff it does both. Two refinements over the paper: "reduce/increase
// to subset" are tried only at granularity 2, and after a successful step
// the next round starts at the subset that succeeded rather than at the
// first, which spreads reductions over the input.
//
// The failing candidate of the result is 1-minimal (Min, Diff): removing
// any single element of Fail that is not in Pass makes it not fail. The
// passing candidate is 1-maximal (Max, Diff) in the same sense.
//
// On context cancellation DD returns the best result so far together with
// an error wrapping ctx.Err().
func DD[E any](ctx context.Context, input []E, test Test[E], mode Mode, cfg Config) (Result[E], error) {
	if mode&Diff == 0 {
		return Result[E]{}, fmt.Errorf("dd: invalid mode %v", mode)
	}
	e := newEngine(input, test, cfg)
	minimize, maximize := mode&Min != 0, mode&Max != 0

	cPass := append([]int(nil), cfg.Pass...)
	if !isSortedSet(cPass, len(input)) {
		return Result[E]{}, fmt.Errorf("dd: initial passing set is not a sorted set of indices below %d", len(input))
	}
	cFail := allIndices(len(input))
	result := func(err error) (Result[E], error) {
		return makeResult(input, cPass, cFail, e.stats), err
	}

	// Validate the two ends.
	out, err := e.outcome(ctx, cPass)
	if err != nil {
		return result(err)
	}
	if out == Fail {
		if maximize {
			return result(fmt.Errorf("dd: passing input of length %d fails: %w", len(cPass), ErrNotPassing))
		}
		cFail = cPass
		return result(nil)
	}
	if out == Unresolved && maximize {
		return result(fmt.Errorf("dd: passing input of length %d is unresolved: %w", len(cPass), ErrNotPassing))
	}
	out, err = e.outcome(ctx, cFail)
	if err != nil {
		return result(err)
	}
	if out != Fail {
		if out == Pass && !minimize {
			cPass = cFail
			return result(nil)
		}
		return result(fmt.Errorf("dd: input of length %d: %v: %w", len(cFail), out, ErrNotFailing))
	}
	e.progress(cPass, cFail)

	n, offset := 2, 0
	for {
		delta := difference(cFail, cPass)
		if len(delta) < n {
			return result(nil)
		}
		deltas := split(delta, n)

		// The round's candidates in the order the sequential algorithm
		// tests them; the first whose outcome is the wanted one wins.
		// They are built on demand: a round at granularity n has 2n of
		// them, each as large as the input, and usually few are needed.
		var steps []step
		if minimize && n == 2 {
			steps = append(steps, reduceToSubset)
		}
		if maximize && n == 2 {
			steps = append(steps, increaseToSubset)
		}
		if minimize {
			steps = append(steps, reduceToComplement)
		}
		if maximize {
			steps = append(steps, increaseToComplement)
		}
		at := func(k int) probe {
			st, i := steps[k%len(steps)], (k/len(steps)+offset)%n
			switch st {
			case reduceToSubset:
				return probe{set: union(cPass, deltas[i]), want: Fail, step: st, i: i}
			case increaseToSubset:
				return probe{set: difference(cFail, deltas[i]), want: Pass, step: st, i: i}
			case reduceToComplement:
				return probe{set: difference(cFail, deltas[i]), want: Fail, step: st, i: i}
			}
			return probe{set: union(cPass, deltas[i]), want: Pass, step: st, i: i}
		}
		k, p, err := e.first(ctx, n*len(steps), at)
		if err != nil {
			return result(err)
		}
		if k < 0 {
			if n >= len(delta) {
				return result(nil)
			}
			n = min(2*n, len(delta))
			continue
		}
		switch p.step {
		case reduceToSubset, reduceToComplement:
			cFail = p.set
		case increaseToSubset, increaseToComplement:
			cPass = p.set
		}
		if p.step == reduceToComplement || p.step == increaseToComplement {
			n = max(n-1, 2)
		}
		offset = p.i
		e.progress(cPass, cFail)
	}
}

// DDMin is the classic ddmin algorithm as published by Zeller and
// Hildebrandt (2002): it tries to remove chunks of length len/n, doubling
// n when no removal still fails, until it has tried to remove every single
// element. The result fails and is 1-minimal. DD with Min tests the
// chunks themselves as well as their complements, which pays off when a
// small part of a large input fails on its own.
//
// On context cancellation DDMin returns the smallest failing input found
// so far together with an error wrapping ctx.Err().
func DDMin[E any](ctx context.Context, input []E, test Test[E], cfg Config) (Result[E], error) {
	e := newEngine(input, test, cfg)
	cur := allIndices(len(input))
	result := func(err error) (Result[E], error) {
		return makeResult(input, nil, cur, e.stats), err
	}
	out, err := e.outcome(ctx, cur)
	if err != nil {
		return result(err)
	}
	if out != Fail {
		return result(fmt.Errorf("ddmin: input of length %d: %v: %w", len(cur), out, ErrNotFailing))
	}
	e.progress(nil, cur)
	n := 2
	for len(cur) >= 2 {
		chunk := len(cur) / n
		at := func(k int) probe {
			start := k * chunk
			complement := append(append([]int(nil), cur[:start]...), cur[min(start+chunk, len(cur)):]...)
			return probe{set: complement, want: Fail}
		}
		k, p, err := e.first(ctx, (len(cur)+chunk-1)/chunk, at)
		if err != nil {
			return result(err)
		}
		if k >= 0 {
			cur = p.set
			n = max(n-1, 2)
			e.progress(nil, cur)
			continue
		}
		if n == len(cur) {
			break
		}
		n = min(2*n, len(cur))
	}
	return result(nil)
}

func makeResult[E any](input []E, pass, fail []int, stats Stats) Result[E] {
	return Result[E]{
		Pass:    pick(input, pass),
		Fail:    pick(input, fail),
		Diff:    pick(input, difference(fail, pass)),
		PassIdx: append([]int{}, pass...),
		FailIdx: append([]int{}, fail...),
		Stats:   stats,
	}
}

// split divides a set into n nonempty consecutive parts whose lengths
// differ by at most one, the longer ones first.
func split(set []int, n int) [][]int {
	k, m := len(set)/n, len(set)%n
	parts := make([][]int, n)
	for i := range parts {
		parts[i] = set[i*k+min(i, m) : (i+1)*k+min(i+1, m)]
	}
	return parts
}

// pick returns the elements of input at the sorted indices.
func pick[E any](input []E, set []int) []E {
	out := make([]E, len(set))
	for i, j := range set {
		out[i] = input[j]
	}
	return out
}

func allIndices(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

func isSortedSet(s []int, n int) bool {
	for i, x := range s {
		if x < 0 || x >= n || (i > 0 && s[i-1] >= x) {
			return false
		}
	}
	return true
}

// union merges two sorted sets.
func union(a, b []int) []int {
	out := make([]int, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] < b[j]:
			out = append(out, a[i])
			i++
		case a[i] > b[j]:
			out = append(out, b[j])
			j++
		default:
			out = append(out, a[i])
			i++
			j++
		}
	}
	out = append(out, a[i:]...)
	return append(out, b[j:]...)
}

// difference returns the elements of sorted set a that are not in b.
func difference(a, b []int) []int {
	out := make([]int, 0, len(a))
	j := 0
	for _, x := range a {
		for j < len(b) && b[j] < x {
			j++
		}
		if j < len(b) && b[j] == x {
			continue
		}
		out = append(out, x)
	}
	return out
}
