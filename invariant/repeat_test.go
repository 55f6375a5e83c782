package invariant

import (
	"math"
	"math/rand"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/culprit-go/culprit/trace"
)

// repeatCalls are calls whose rows repeat: small domains, so that ranges
// see their bounds many times, one-of facts stay within three values,
// slices repeat whole (sorted, all, sum), and +0 and -0 both occur.
func repeatCalls() *Calls {
	r := rand.New(rand.NewSource(3))
	clamp := &Function{Name: "m.clamp", Params: []string{"x", "lo", "hi"}, Results: []string{"result"}}
	sum := &Function{Name: "m.total", Params: []string{"xs", "scale"}, Results: []string{"result"}}
	name := &Function{Name: "m.name", Params: []string{"p", "prefix"}, Results: []string{"result", "err"}}
	call := func(f *Function, args, results []trace.Value) {
		f.Calls = append(f.Calls, Call{Args: args, Results: results, Returned: true, Outcome: trace.OutcomePass, Test: "TestRepeat"})
	}
	slices := [][]int64{{1, 2, 3}, {2, 2}, {1, 5, 9, 12}, {4}}
	for i := 0; i < 3000; i++ {
		x, lo, hi := int64(r.Intn(8)), int64(r.Intn(2)), int64(4+r.Intn(2))
		call(clamp, []trace.Value{iv(x), iv(lo), iv(hi)}, []trace.Value{iv(min(max(x, lo), hi))})
		xs := slices[r.Intn(len(slices))]
		scale := 1.0
		if r.Intn(3) == 0 {
			scale = math.Copysign(0, -1)
		} else if r.Intn(2) == 0 {
			scale = 0
		}
		var s int64
		for _, x := range xs {
			s += x
		}
		call(sum, []trace.Value{ints(xs), fv(scale)}, []trace.Value{iv(s)})
		k := "k" + string(rune('a'+r.Intn(3)))
		p := ptr("*m.P", strct("m.P", trace.Field{Name: "name", Value: sv(k + "x")}, trace.Field{Name: "n", Value: iv(int64(r.Intn(3)))}))
		call(name, []trace.Value{p, sv(k)}, []trace.Value{sv(k + "x"), nilv})
	}
	// A range whose bounds come in runs, seven times each (the fewest
	// that justify x >= 0 && x <= 9 at the default confidence): counted
	// once per run, or one time too few, it would not be justified.
	level := &Function{Name: "m.level", Params: []string{"x"}, Results: []string{"result"}}
	for _, run := range [][2]int64{{0, 6}, {9, 6}, {4, 1}, {0, 1}, {9, 1}} {
		for i := int64(0); i < run[1]; i++ {
			call(level, []trace.Value{iv(run[0])}, []trace.Value{iv(2 * run[0])})
		}
	}
	for i := 0; i < 30; i++ {
		x := int64(1 + r.Intn(8))
		call(level, []trace.Value{iv(x)}, []trace.Value{iv(2 * x)})
	}
	return &Calls{Functions: []*Function{clamp, level, name, sum}}
}

// TestRepeats mines with runs of equal rows fed once and counted again
// (repeat.go) and with every row fed: the contracts are the same, with
// all calls buffered and with most checked one at a time.
func TestRepeats(t *testing.T) {
	fixtures := map[string]*Calls{"repeat": repeatCalls(), "deep": deepCalls(), "aggregate": aggregateCalls(), "middle": middleCalls(), "real": someRealCalls(4, 3000)}
	sameWithout(t, &noRepeats, "every row fed", fixtures, []float64{0, 0.5, 1})
}

// someRealCalls is the first funcs functions of realCalls, at most n
// calls each.
func someRealCalls(funcs, n int) *Calls {
	real := realCalls()
	real.Functions = real.Functions[:funcs]
	for _, f := range real.Functions {
		f.Calls = f.Calls[:min(len(f.Calls), n)]
	}
	return real
}

// sameWithout mines each fixture with *off true and false (a saving
// turned off, and on: the contracts must not depend on it), with 50
// calls buffered and with all, at each confidence limit, and reports
// where the contracts differ.
func sameWithout(t *testing.T, off *bool, what string, fixtures map[string]*Calls, confs []float64) {
	t.Helper()
	for name, cs := range fixtures {
		for _, k := range []int{50, 1 << 30} {
			for _, conf := range confs {
				opt := Options{Confidence: conf}
				*off = true
				want := mineBuffered(cs, opt, k)
				*off = false
				if got := mineBuffered(cs, opt, k); got != want {
					t.Errorf("%s, %d calls buffered, conf %g:\n%s\nwant (%s)\n%s", name, k, conf, got, what, want)
				}
			}
		}
	}
}

// TestSavingsTrace mines the trace directory named by
// CULPRIT_MINE_TRACE (skipped when unset), a real trace, with every
// saving off (repeats, adopted facts, plans, equal variables and
// constants) and with all on: the contracts are the same.
func TestSavingsTrace(t *testing.T) {
	cs := envTrace(t)
	flags := []*bool{&noRepeats, &noAdopt, &noPlans, &noSavings}
	for _, f := range flags {
		*f = true
	}
	want := mineBuffered(cs, Options{}, maxBuffered)
	for _, f := range flags {
		*f = false
	}
	if got := mineBuffered(cs, Options{}, maxBuffered); got != want {
		g, w := os.TempDir()+"/culprit-savings-got.json", os.TempDir()+"/culprit-savings-want.json"
		os.WriteFile(g, []byte(got), 0o644)
		os.WriteFile(w, []byte(want), 0o644)
		t.Errorf("contracts differ with the savings on: diff %s %s", w, g)
	}
}

// TestAdopt mines with the postconditions' miner adopting the
// preconditions' facts over the parameters alone and with it checking
// them itself: the contracts are the same.
func TestAdopt(t *testing.T) {
	fixtures := map[string]*Calls{"repeat": repeatCalls(), "deep": deepCalls(), "aggregate": aggregateCalls(), "middle": middleCalls(), "real": someRealCalls(4, 3000), "changed": changedCalls(), "wide": wideCalls()}
	sameWithout(t, &noAdopt, "postconditions' miner checking every candidate", fixtures, []float64{0, 0.5, 1})
	// The postconditions' facts before reduce, which hides most of those
	// over the parameters alone.
	for name, cs := range fixtures {
		for _, f := range cs.Functions {
			noAdopt = true
			want := postSurvivors(f)
			noAdopt = false
			if got := postSurvivors(f); got != want {
				t.Errorf("%s, %s: postconditions' survivors\n%s\nwant\n%s", name, f.Name, got, want)
			}
		}
	}
}

// postSurvivors returns the justified facts of f's postconditions'
// miner, mined with the preconditions' (survivorsShared), before
// reduce; "" when the two are not mined together.
func postSurvivors(f *Function) string {
	var calls []*Call
	for i := range f.Calls {
		if f.Calls[i].Passing() {
			calls = append(calls, &f.Calls[i])
		}
	}
	defer func(old int) { maxBuffered = old }(maxBuffered)
	maxBuffered = 50
	post := newMiner(f, calls, true, Options{}, &arena{})
	pre, view := post.prefix(calls)
	if !view || len(post.rest) == 0 {
		return ""
	}
	post.lazy, pre.lazy = true, true
	facts, _ := survivorsShared(post, pre)
	var out []string
	for _, x := range post.justified(facts) {
		out = append(out, renderFact(post.vars, x))
	}
	sort.Strings(out)
	return strings.Join(out, "\n")
}

// changedCalls are calls of a function that overwrites an element of a
// sorted slice it is given a pointer to, keeping it sorted (btree's
// items.insertAt): the elements are parts that change, named old(*s[0])
// at entry in postconditions, which are no elements of *s by name (the
// preconditions' *s[0] are), so the two miners' candidates over the
// parameters differ.
func changedCalls() *Calls {
	r := rand.New(rand.NewSource(5))
	f := &Function{Name: "m.items.set", Params: []string{"s", "i", "x"}}
	for n := 0; n < 300; n++ {
		xs := make([]int64, 4+r.Intn(3))
		for j := range xs {
			xs[j] = int64(r.Intn(50))
		}
		slices.Sort(xs)
		i := r.Intn(len(xs))
		x := xs[i] + int64(r.Intn(3))
		if i+1 < len(xs) {
			x = min(x, xs[i+1])
		}
		ys := slices.Clone(xs)
		ys[i] = x
		in, out := ptr("*[]int", ints(xs)), ptr("*[]int", ints(ys))
		f.Calls = append(f.Calls, Call{Args: []trace.Value{in, iv(int64(i)), iv(x)}, Final: []trace.Value{out, iv(int64(i)), iv(x)}, Returned: true, Outcome: trace.OutcomePass, Test: "TestSet"})
	}
	return &Calls{Functions: []*Function{f}}
}

// wideCalls are calls of a method whose receiver has more parts than
// maxVars admits and changes in the call (an element is appended to a
// slice field): the postconditions' miner, whose results take slots,
// leaves out elements the preconditions' miner has, so the two are not
// one view and their candidates are matched by name (yaml.v3's parser).
func wideCalls() *Calls {
	r := rand.New(rand.NewSource(9))
	f := &Function{Name: "m.parser.push", Params: []string{"p", "x"}, Results: []string{"result"}}
	for n := 0; n < 400; n++ {
		var fs []trace.Field
		for j := 0; j < 40; j++ {
			fs = append(fs, trace.Field{Name: "f" + strconv.Itoa(j), Value: iv(int64(j + r.Intn(3)))})
		}
		items := make([]int64, 1+r.Intn(5))
		for j := range items {
			items[j] = int64(r.Intn(20))
		}
		x := int64(r.Intn(20))
		in := ptr("*m.parser", strct("m.parser", append(slices.Clone(fs), trace.Field{Name: "items", Value: ints(items)})...))
		out := ptr("*m.parser", strct("m.parser", append(slices.Clone(fs), trace.Field{Name: "items", Value: ints(append(slices.Clone(items), x))})...))
		f.Calls = append(f.Calls, Call{Args: []trace.Value{in, iv(x)}, Results: []trace.Value{iv(int64(len(items) + 1))}, Final: []trace.Value{out, iv(x)}, Returned: true, Outcome: trace.OutcomePass, Test: "TestPush"})
	}
	return &Calls{Functions: []*Function{f}}
}

// TestPlans mines with the parts of values put where the plan of the
// value before says (plan.go) and with every value derived by name: the
// contracts are the same.
func TestPlans(t *testing.T) {
	fixtures := map[string]*Calls{"repeat": repeatCalls(), "deep": deepCalls(), "aggregate": aggregateCalls(), "real": someRealCalls(4, 1500), "changed": changedCalls(), "wide": wideCalls()}
	sameWithout(t, &noPlans, "every value derived by name", fixtures, []float64{0})
}
