package cli

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/culprit-go/culprit/diagnosis"
	"github.com/culprit-go/culprit/internal/instrument"
	"github.com/culprit-go/culprit/spectrum"
)

// TestPlanMutants checks what the mutation step mutates: the lines of
// the most suspicious functions in their order, and the function where
// a failing test panicked however low it ranks, its panicking line
// first.
func TestPlanMutants(t *testing.T) {
	line := func(file string, n int, fn string, top bool) diagnosis.Line {
		return diagnosis.Line{Location: diagnosis.Location{File: file, Line: n}, Func: fn, Evidence: diagnosis.Evidence{StackTop: top, Stack: top}}
	}
	tests := []struct {
		name   string
		funcs  []string
		lines  []diagnosis.Line
		ranked []instrument.FileLine
	}{
		{
			name:   "the top functions",
			funcs:  []string{"p.A", "p.B", "p.C"},
			lines:  []diagnosis.Line{line("a.go", 3, "p.A", false), line("b.go", 7, "p.B", false), line("c.go", 9, "p.C", false)},
			ranked: []instrument.FileLine{{File: "/r/a.go", Line: 3}, {File: "/r/b.go", Line: 7}},
		},
		{
			name:   "and where it panicked",
			funcs:  []string{"p.A", "p.B", "p.C"},
			lines:  []diagnosis.Line{line("a.go", 3, "p.A", false), line("b.go", 7, "p.B", false), line("c.go", 9, "p.C", true), line("c.go", 10, "p.C", false)},
			ranked: []instrument.FileLine{{File: "/r/c.go", Line: 9}, {File: "/r/a.go", Line: 3}, {File: "/r/b.go", Line: 7}, {File: "/r/c.go", Line: 10}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			first := &diagnosis.Diagnosis{Lines: tt.lines}
			for _, f := range tt.funcs {
				first.Funcs = append(first.Funcs, diagnosis.Func{Name: f})
			}
			p := planMutants(mutationFlags{funcs: 2, passing: 3}, first, diagnosis.Group{}, &spectrum.Spectra{Root: "/r"}, nil)
			if !reflect.DeepEqual(p.ranked, tt.ranked) {
				t.Errorf("ranked %v, want %v", p.ranked, tt.ranked)
			}
		})
	}
}

// TestPlanRaised checks the mutants chosen once the slices found a
// recovered runtime panic: the function that raised it, its raising
// line first, unless it was mutated already.
func TestPlanRaised(t *testing.T) {
	line := func(file string, n int, fn string) diagnosis.Line {
		return diagnosis.Line{Location: diagnosis.Location{File: file, Line: n}, Func: fn}
	}
	first := &diagnosis.Diagnosis{Lines: []diagnosis.Line{line("a.go", 3, "p.A"), line("c.go", 8, "p.C"), line("c.go", 9, "p.C"), line("b.go", 7, "p.B")}}
	raised := []diagnosis.Location{{File: "c.go", Line: 9}}
	p := planRaised(mutationFlags{funcs: 1, passing: 3}, first, diagnosis.Group{}, &spectrum.Spectra{Root: "/r"}, nil, raised, map[string]bool{"p.A": true})
	want := []instrument.FileLine{{File: "/r/c.go", Line: 9}, {File: "/r/c.go", Line: 8}}
	if p == nil || !reflect.DeepEqual(p.ranked, want) || !reflect.DeepEqual(p.funcs, map[string]bool{"p.C": true}) {
		t.Fatalf("plan %+v, want the lines %v of p.C", p, want)
	}
	if p := planRaised(mutationFlags{funcs: 1, passing: 3}, first, diagnosis.Group{}, &spectrum.Spectra{Root: "/r"}, nil, raised, map[string]bool{"p.C": true}); p != nil {
		t.Errorf("plan %+v for a function mutated already, want none", p)
	}
}

// TestPlanPassing checks the passing tests run against the mutants: the
// ones that ran the most mutated lines first, the quickest among equals,
// within passingBudget of the failing tests' time (where none fits, the
// one that ran the most), a subtest costing its top-level test's time
// once.
func TestPlanPassing(t *testing.T) {
	ev := func(line int) spectrum.Event {
		return spectrum.Event{Kind: spectrum.Stmt, File: "a.go", Line: line, Func: "p.A"}
	}
	var b spectrum.Builder
	b.Root = "/r"
	b.Add(spectrum.Run{Package: "p", Name: "TestFail", Outcome: spectrum.Fail}, ev(3), ev(4))
	b.Add(spectrum.Run{Package: "p", Name: "TestSlowBoth", Outcome: spectrum.Pass}, ev(3), ev(4))
	b.Add(spectrum.Run{Package: "p", Name: "TestQuick", Outcome: spectrum.Pass}, ev(3))
	b.Add(spectrum.Run{Package: "p", Name: "TestSlow", Outcome: spectrum.Pass}, ev(3))
	b.Add(spectrum.Run{Package: "p", Name: "TestTable/a", Outcome: spectrum.Pass}, ev(4))
	b.Add(spectrum.Run{Package: "p", Name: "TestTable/b", Outcome: spectrum.Pass}, ev(4))
	b.Add(spectrum.Run{Package: "p", Name: "TestElse", Outcome: spectrum.Pass}, ev(9))
	s := b.Spectra()
	first := &diagnosis.Diagnosis{Funcs: []diagnosis.Func{{Name: "p.A"}},
		Lines: []diagnosis.Line{{Location: diagnosis.Location{File: "a.go", Line: 3}, Func: "p.A"}, {Location: diagnosis.Location{File: "a.go", Line: 4}, Func: "p.A"}}}
	g := diagnosis.Group{Failures: []diagnosis.Failure{{Package: "p", Test: "TestFail"}}}
	times := map[string]float64{"p\x00TestFail": 0.1, "p\x00TestSlowBoth": 2, "p\x00TestQuick": 0.1, "p\x00TestSlow": 1,
		"p\x00TestTable": 0.2, "p\x00TestTable/a": 0.1, "p\x00TestTable/b": 0.1, "p\x00TestElse": 0.01}
	for _, tt := range []struct {
		name  string
		times map[string]float64
		want  []string
	}{
		{"times not known: by lines run", nil, []string{"TestSlowBoth", "TestQuick", "TestSlow", "TestTable/a", "TestTable/b"}},
		{"within the budget", times, []string{"TestQuick"}},
		{"none fits", map[string]float64{"p\x00TestFail": 0.01, "p\x00TestSlowBoth": 2, "p\x00TestQuick": 1, "p\x00TestSlow": 1,
			"p\x00TestTable": 1}, []string{"TestSlowBoth"}},
		{"the quickest first", map[string]float64{"p\x00TestFail": 1, "p\x00TestSlowBoth": 0.1, "p\x00TestQuick": 0.1, "p\x00TestSlow": 1,
			"p\x00TestTable": 0.2}, []string{"TestSlowBoth", "TestQuick", "TestTable/a", "TestTable/b", "TestSlow"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := planMutants(mutationFlags{funcs: 1, passing: 20}, first, g, s, tt.times)
			if got := p.passing["p"]; !reflect.DeepEqual(got, tt.want) {
				t.Errorf("passing %q, want %q", got, tt.want)
			}
		})
	}
}

// TestPlanAlone checks when the failing subtests run against the mutants
// without their siblings: their top-level test is over aloneOver and
// four times as long as they are.
func TestPlanAlone(t *testing.T) {
	var b spectrum.Builder
	ev := spectrum.Event{Kind: spectrum.Stmt, File: "a.go", Line: 3, Func: "p.A"}
	b.Add(spectrum.Run{Package: "p", Name: "TestTable/bad", Outcome: spectrum.Fail}, ev)
	b.Add(spectrum.Run{Package: "p", Name: "TestTable/good", Outcome: spectrum.Pass}, ev)
	s := b.Spectra()
	first := &diagnosis.Diagnosis{Funcs: []diagnosis.Func{{Name: "p.A"}},
		Lines: []diagnosis.Line{{Location: diagnosis.Location{File: "a.go", Line: 3}, Func: "p.A"}}}
	g := diagnosis.Group{Failures: []diagnosis.Failure{{Package: "p", Test: "TestTable/bad"}}}
	for _, tt := range []struct {
		top, bad float64
		alone    bool
	}{
		{2, 0.01, true},
		{0.2, 0.01, false}, // quick enough whole
		{2, 1, false},      // most of it is the failing case
	} {
		times := map[string]float64{"p\x00TestTable": tt.top, "p\x00TestTable/bad": tt.bad}
		p := planMutants(mutationFlags{funcs: 1, passing: 20}, first, g, s, times)
		if p.alone["p"] != tt.alone {
			t.Errorf("top %gs, failing subtest %gs: alone %v, want %v", tt.top, tt.bad, p.alone["p"], tt.alone)
		}
	}
	// Whatever the times say (a table of parallel subtests reports
	// its top-level test as taking nothing), a failing case among
	// aloneCount subtests or more, a quarter of them or fewer, runs
	// alone.
	for _, tt := range []struct {
		cases, failing int
		alone          bool
	}{
		{aloneCount, 1, true},
		{aloneCount - 2, 1, false},  // a small table runs whole
		{aloneCount + 8, 12, false}, // over a quarter of it fails
		{aloneCount / 2, 1, false},  // cases of two levels count once
	} {
		var b spectrum.Builder
		var g diagnosis.Group
		for i := range tt.cases {
			name := fmt.Sprintf("TestTable/c%d", i)
			out := spectrum.Pass
			if i < tt.failing {
				out = spectrum.Fail
			}
			if tt.cases < aloneCount {
				b.Add(spectrum.Run{Package: "p", Name: name, Outcome: out}, ev)
				name += "/value"
			}
			if out == spectrum.Fail {
				g.Failures = append(g.Failures, diagnosis.Failure{Package: "p", Test: name})
			}
			b.Add(spectrum.Run{Package: "p", Name: name, Outcome: out}, ev)
		}
		times := map[string]float64{"p\x00TestTable": 0}
		p := planMutants(mutationFlags{funcs: 1, passing: 20}, first, g, b.Spectra(), times)
		if p.alone["p"] != tt.alone {
			t.Errorf("%d cases, %d failing, no time: alone %v, want %v", tt.cases, tt.failing, p.alone["p"], tt.alone)
		}
	}
}

// TestMutationBudget checks the mutation step's default limit: at least
// 30 s for the quick suites the count bounds, twice the instrumented run
// for slow ones, so that the diagnosis of a suite whose run takes
// minutes stays within some ten times it.
func TestMutationBudget(t *testing.T) {
	for _, c := range []struct{ ran, want time.Duration }{
		{time.Second, 30 * time.Second},
		{15 * time.Second, 30 * time.Second},
		{17 * time.Second, 34 * time.Second},
		{2 * time.Minute, 4 * time.Minute},
	} {
		if got := mutationBudget(c.ran); got != c.want {
			t.Errorf("mutationBudget(%s) = %s, want %s", c.ran, got, c.want)
		}
	}
}
