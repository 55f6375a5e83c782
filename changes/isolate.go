package changes

import (
	"context"
	"slices"

	"github.com/culprit-go/culprit/reduce"
)

// isolate narrows the change, level by level, to a minimal failure-
// inducing part. At each level general delta debugging in its minimal
// difference mode narrows the gap between a passing and a failing set
// of units. The result is the failing set's difference from the passing
// one, when that fails on its own on the good side; otherwise that
// difference with the smallest part of the rest it needs (delta
// debugging in its minimizing mode, the difference always kept). It
// returns the result and the isolated difference, as atoms.
func (r *runner) isolate(ctx context.Context, ch *Change, levels []Level) (result, isolated []int, err error) {
	pass, fail := []int(nil), ch.All()
	for _, level := range levels {
		units := ch.Units(level, fail)
		if len(units) <= 1 {
			continue
		}
		var passIdx []int
		for i, u := range units {
			if subset(u, pass) {
				passIdx = append(passIdx, i)
			}
		}
		phase := string(level)
		atoms := func(idx []int) []int {
			var out []int
			for _, i := range idx {
				out = append(out, units[i]...)
			}
			slices.Sort(out)
			return out
		}
		test := func(ctx context.Context, idx []int) reduce.Outcome {
			return r.outcome(ctx, phase, ch, atoms(idx))
		}
		all := make([]int, len(units))
		for i := range all {
			all[i] = i
		}
		p, f, err := dd(ctx, len(units), passIdx, all, r.s.jobs, test)
		pass, fail = atoms(p), atoms(f)
		if err != nil {
			return fail, difference(fail, pass), err
		}
	}
	isolated = difference(fail, pass)
	if r.outcome(ctx, "context", ch, isolated) == reduce.Fail {
		return isolated, isolated, ctx.Err()
	}
	// The difference needs context: the smallest part of the passing
	// side that makes it fail on the good side.
	units := ch.Units(Lines, fail)
	var keep []int
	for i, u := range units {
		if subset(u, isolated) {
			keep = append(keep, i)
		}
	}
	test := func(ctx context.Context, cand [][]int) reduce.Outcome {
		return r.outcome(ctx, "context", ch, flatten(cand))
	}
	res, err := reduce.DD(ctx, units, test, reduce.Min, reduce.Config{Workers: r.s.jobs, NoCache: true, Pass: keep})
	return flatten(res.Fail), isolated, err
}

func flatten(units [][]int) []int {
	var out []int
	for _, u := range units {
		out = append(out, u...)
	}
	slices.Sort(out)
	return out
}

// subset reports whether every element of a is in the sorted set b.
func subset(a, b []int) bool {
	for _, x := range a {
		if _, ok := slices.BinarySearch(b, x); !ok {
			return false
		}
	}
	return true
}

// difference returns the elements of the sorted set a not in b.
func difference(a, b []int) []int {
	var out []int
	for _, x := range a {
		if _, ok := slices.BinarySearch(b, x); !ok {
			out = append(out, x)
		}
	}
	return out
}
