package invariant

import (
	"fmt"
	"math/rand"
	"sort"
	"strings"
	"testing"

	"github.com/culprit-go/culprit/trace"
)

func floats(xs []float64) trace.Value {
	var es []trace.Value
	for i, x := range xs {
		if i < MaxElems {
			es = append(es, fv(x))
		}
	}
	return slice("[]float64", len(xs), es...)
}

// aggregateCalls are functions over slices of numbers whose random calls
// satisfy the aggregate patterns (sum, sorted, all compared with 0), and
// ones that do not.
func aggregateCalls() *Calls {
	r := rand.New(rand.NewSource(11))
	var fs []*Function
	add := func(name string, params, results []string) *Function {
		f := &Function{Name: "m." + name, Params: params, Results: results}
		fs = append(fs, f)
		return f
	}
	pass := func(f *Function, args, results []trace.Value) {
		f.Calls = append(f.Calls, Call{Args: args, Results: results, Returned: true, Outcome: trace.OutcomePass, Test: "TestM"})
	}
	randInts := func(n, lo, hi int) []int64 {
		xs := make([]int64, n)
		for i := range xs {
			xs[i] = int64(lo + r.Intn(hi-lo+1))
		}
		return xs
	}
	total := func(xs []int64) (s int64) {
		for _, x := range xs {
			s += x
		}
		return s
	}
	sum := add("Sum", []string{"xs"}, []string{"result"})
	sorted := add("Sorted", []string{"xs"}, []string{"result"})
	positive := add("Positive", []string{"xs"}, nil)
	nonNeg := add("NonNeg", []string{"xs"}, nil)
	mean := add("Mean", []string{"xs"}, []string{"result"})
	mixed := add("Mixed", []string{"xs"}, []string{"result"})
	long := add("Long", []string{"xs"}, []string{"result"})
	for i := 0; i < 60; i++ {
		// Sum: some slices longer than the trace keeps; the sum is
		// learned from the others.
		xs := randInts(r.Intn(12), -50, 50)
		pass(sum, []trace.Value{ints(xs)}, []trace.Value{iv(total(xs))})
		ys := randInts(1+r.Intn(8), -50, 50)
		zs := append([]int64{}, ys...)
		sort.Slice(zs, func(a, b int) bool { return zs[a] < zs[b] })
		pass(sorted, []trace.Value{ints(ys)}, []trace.Value{ints(zs)})
		pass(positive, []trace.Value{ints(randInts(1+r.Intn(6), 1, 100))}, nil)
		pass(nonNeg, []trace.Value{ints(randInts(1+r.Intn(6), 0, 3))}, nil)
		fl := make([]float64, 1+r.Intn(8))
		t := 0.0
		for j := range fl {
			fl[j] = -1 - 100*r.Float64()
			t += fl[j]
		}
		pass(mean, []trace.Value{floats(fl)}, []trace.Value{fv(t)})
		// Mixed: no sum, no order, elements of both signs and zero.
		ms := randInts(2+r.Intn(6), -5, 5)
		pass(mixed, []trace.Value{ints(ms)}, []trace.Value{iv(ms[0] + ms[1])})
		// Long: the sum is never computed over a truncated slice.
		ls := randInts(9+r.Intn(4), 1, 9)
		pass(long, []trace.Value{ints(ls)}, []trace.Value{iv(total(ls))})
	}
	return &Calls{Functions: fs}
}

// TestAggregates mines the patterns over a slice's elements into
// testdata/aggregate.golden: result == sum(xs), sorted(result),
// all(xs) > 0 (hiding >= 0 and != 0), all(xs) >= 0, all(xs) < 0 with a
// floating-point sum; none for Mixed, and none over slices longer than
// the trace keeps (Long), even without the confidence limit.
func TestAggregates(t *testing.T) {
	cs := aggregateCalls()
	var b strings.Builder
	for _, conf := range []float64{0, 1} {
		c := Mine(cs, Options{Confidence: conf})
		for _, s := range c.Functions {
			if conf == 1 && s.Name != "m.Long" && s.Name != "m.Mixed" {
				continue
			}
			fmt.Fprintf(&b, "== %s (%d calls, conf %g)\n", s.Name, s.Calls, c.Confidence)
			for _, p := range s.Pre {
				fmt.Fprintf(&b, "pre:  %s\n", p)
			}
			for _, p := range s.Post {
				fmt.Fprintf(&b, "post: %s\n", p)
			}
		}
		r, err := Check(c, cs)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Violations) != 0 || len(r.Errors) != 0 {
			t.Errorf("conf %g: the mined invariants fail on their own calls: %+v %q", conf, r.Violations, r.Errors)
		}
	}
	golden(t, "aggregate.golden", b.String())
	for _, s := range Mine(cs, Options{Confidence: 1}).Functions {
		if s.Name != "m.Long" {
			continue
		}
		for _, p := range append(s.Pre, s.Post...) {
			if strings.Contains(p, "sum(") || strings.Contains(p, "all(") || strings.Contains(p, "sorted(") {
				t.Errorf("Long: %s claimed over slices the trace truncated", p)
			}
		}
	}
}

// TestAggregateExpr evaluates sum, sorted and all as culprit check does.
func TestAggregateExpr(t *testing.T) {
	vals := map[string]cell{}
	derived("xs", ints([]int64{3, 1, 2}), vals)
	derived("ys", ints([]int64{-1, 0, 0, 4}), vals)
	derived("long", ints([]int64{1, 2, 3, 4, 5, 6, 7, 8, 9}), vals)
	derived("fs", floats([]float64{0.5, 0.25}), vals)
	derived("none", nilv, vals)
	vals["r"] = intCell(6)
	lookup := func(n string) (cell, bool) {
		v, ok := vals[n]
		if !ok && (strings.HasPrefix(n, "xs[") || strings.HasPrefix(n, "long[")) {
			return cell{}, true
		}
		return v, ok
	}
	evalCases(t, lookup, []exprCase{
		{"r == sum(xs)", true, false},
		{"sum(ys) == 3", true, false},
		{"approx(sum(fs), 0.75)", true, false},
		{"sum(none) == 0 && sorted(none) && all(none) > 0", true, false},
		{"sorted(ys)", true, false},
		{"!sorted(xs)", true, false},
		{"all(xs) > 0", true, false},
		{"0 < all(xs)", true, false},
		{"all(ys) >= 0", false, false},
		{"all(ys) >= -1 && all(xs) != 0 && all(xs) <= 3", true, false},
		{"all(fs) < 1", true, false},
		{"sum(long) == 45", false, true},
		{"sorted(long)", false, true},
		{"all(long) > 0", false, true},
		{"sum(r) == 0", false, true},
	})
	for _, bad := range []string{"sum(xs, ys)", "all(xs)"} {
		e, err := Parse(bad)
		if err != nil {
			continue
		}
		if _, err := e.holds(lookup); err == nil {
			t.Errorf("%s evaluated", bad)
		}
	}
}
