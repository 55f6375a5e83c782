package diagnosis

import (
	"math"
	"reflect"
	"testing"

	"github.com/culprit-go/culprit/spectrum"
)

// middle's spectra: lines 3 (both branches' condition) and 4, 5 (one
// block each) in f, line 9 in g; the fault is line 5, tied on spectra
// with line 4's block mate... each case adds one kind of evidence.
func spectraOf(t *testing.T) *spectrum.Spectra {
	t.Helper()
	ev := func(line int, fn string, k spectrum.Kind, text string) spectrum.Event {
		return spectrum.Event{Kind: k, File: "m.go", Line: line, Col: 2, Func: fn, Text: text}
	}
	var b spectrum.Builder
	// Lines 4 and 5 are one block: every run has both or neither.
	b.Add(spectrum.Run{Name: "TestFail", Outcome: spectrum.Fail},
		ev(3, "p.f", spectrum.Stmt, ""), ev(3, "p.f", spectrum.Branch, "if true"), ev(4, "p.f", spectrum.Stmt, ""), ev(5, "p.f", spectrum.Stmt, ""),
		ev(9, "p.g", spectrum.Stmt, ""))
	b.Add(spectrum.Run{Name: "TestPass1", Outcome: spectrum.Pass},
		ev(3, "p.f", spectrum.Stmt, ""), ev(3, "p.f", spectrum.Branch, "if true"), ev(4, "p.f", spectrum.Stmt, ""), ev(5, "p.f", spectrum.Stmt, ""),
		ev(9, "p.g", spectrum.Stmt, ""))
	b.Add(spectrum.Run{Name: "TestPass2", Outcome: spectrum.Pass},
		ev(3, "p.f", spectrum.Stmt, ""), ev(3, "p.f", spectrum.Branch, "if false"), ev(9, "p.g", spectrum.Stmt, ""))
	b.Add(spectrum.Run{Name: "TestPass3", Outcome: spectrum.Pass}, ev(12, "p.h", spectrum.Stmt, ""))
	return b.Spectra()
}

func TestDiagnose(t *testing.T) {
	loc := func(l int) Location { return Location{"m.go", l} }
	spec := func(w Weights) *Weights { return &w }
	tests := []struct {
		name  string
		in    Input
		lines []int    // the ranked lines, most suspicious first
		ranks []string // each one's tie range
		funcs []string
	}{
		{name: "spectra alone: the block ties; the branch lifts line 3",
			in:    Input{Weights: spec(Weights{Spectrum: 1})},
			lines: []int{3, 4, 5, 9}, ranks: []string{"1-3", "1-3", "1-3", "4"}, funcs: []string{"p.f", "p.g"}},
		{name: "the slice breaks the block's tie",
			in:    Input{Slices: []map[Location]bool{{loc(5): true, loc(3): true}}, Weights: spec(Weights{Spectrum: 1, Slice: 0.5})},
			lines: []int{3, 5, 4, 9}, ranks: []string{"1-2", "1-2", "3", "4"}, funcs: []string{"p.f", "p.g"}},
		{name: "a passing case of the failing test that ran line 4 breaks the block's tie; line 3's branch outcome, not the case's, keeps its score",
			in: Input{Cases: []Case{{Lines: map[Location]bool{loc(3): true, loc(4): true, loc(9): true}, Branches: map[Location][]string{loc(3): {"if false"}}}},
				Weights: spec(Weights{Spectrum: 1})},
			lines: []int{3, 5, 4, 9}, ranks: []string{"1-2", "1-2", "3", "4"}, funcs: []string{"p.f", "p.g"}},
		{name: "a mutant that changes the failure and breaks nothing",
			in: Input{Mutants: []Mutant{
				{At: loc(5), Failing: 1, Passing: 2, Changed: 1},
				{At: loc(4), Failing: 1, Passing: 2, Changed: 1, Broke: 2},
				{At: loc(3), Failing: 1, Passing: 2, Broke: 1},
			}, Weights: spec(Weights{Spectrum: 1, Mutation: 1})},
			lines: []int{5, 4, 3, 9}, ranks: []string{"1", "2", "3", "4"}, funcs: []string{"p.f", "p.g"}},
		{name: "the function whose mutants changed the failure lifts its lines, however its best line scores",
			in: Input{Mutants: []Mutant{
				{At: loc(9), Failing: 1, Passing: 2, Changed: 1},
				{At: loc(3), Failing: 1, Passing: 2, Broke: 1},
				{At: loc(4), Failing: 1, Passing: 2},
			}, Weights: spec(Weights{Spectrum: 1, FuncMutation: 1})},
			lines: []int{9, 3, 4, 5}, ranks: []string{"1", "2-4", "2-4", "2-4"}, funcs: []string{"p.g", "p.f"}},
		{name: "a declaration read at line 9 ranks with it, and one its initializer reads too; one line 12 (passing runs only) reads is not ranked",
			in: Input{Decls: []Decl{
				{Name: "p.re", Lines: []Location{{"d.go", 2}}, Readers: []Location{loc(9)}, Reads: []string{"p.pattern"}},
				{Name: "p.pattern", Lines: []Location{{"d.go", 1}}},
				{Name: "p.other", Lines: []Location{{"d.go", 3}}, Readers: []Location{loc(12)}},
			}, Weights: spec(Weights{Spectrum: 1})},
			lines: []int{3, 4, 5, 1, 2, 9}, ranks: []string{"1-3", "1-3", "1-3", "4-6", "4-6", "4-6"}, funcs: []string{"p.f", "p.pattern", "p.re", "p.g"}},
		{name: "a declaration no mutant can change ranks with its reader, mutants and all",
			in: Input{Decls: []Decl{{Name: "p.re", Lines: []Location{{"d.go", 2}}, Readers: []Location{loc(9)}}},
				Mutants: []Mutant{{At: loc(9), Failing: 1, Passing: 2, Changed: 1, Broke: 2}},
				Weights: spec(Weights{Spectrum: 1, Mutation: 1})},
			lines: []int{2, 9, 3, 4, 5}, ranks: []string{"1-2", "1-2", "3-5", "3-5", "3-5"}, funcs: []string{"p.re", "p.g", "p.f"}},
		{name: "a mutant that removes half the failure's reports lifts line 5 over line 4, whose mutant adds a report and line 3, whose mutant crashes",
			in: Input{Mutants: []Mutant{
				{At: loc(5), Failing: 1, Passing: 2, Changed: 1, Broke: 1, Reports: 4, Lost: 2},
				{At: loc(4), Failing: 1, Passing: 2, Changed: 1, Reports: 4, Lost: 2, Added: 1},
				{At: loc(3), Failing: 1, Passing: 2, Changed: 1, Reports: 4, Lost: 4, Crashed: 1},
			}, Weights: spec(Weights{Spectrum: 1, Partial: 1})},
			lines: []int{5, 3, 4, 9}, ranks: []string{"1", "2-3", "2-3", "4"}, funcs: []string{"p.f", "p.g"}},
		{name: "the panic stack lifts its lines; the function's spectrum lifts its lines over g",
			in:    Input{Stacks: [][]Location{{{"runtime/panic.go", 1}, loc(9), loc(3)}}, Weights: spec(Weights{Spectrum: 1, Stack: 1, Func: 0.5})},
			lines: []int{9, 3, 4, 5}, ranks: []string{"1", "2", "3-4", "3-4"}, funcs: []string{"p.g", "p.f"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := tt.in
			in.Spectra = spectraOf(t)
			d := Diagnose(in)
			var lines []int
			var ranks, funcs []string
			for _, l := range d.Lines {
				lines = append(lines, l.Line)
				ranks = append(ranks, rangeOf(l.Best, l.Worst))
				if l.Rank != float64(l.Best+l.Worst)/2 {
					t.Errorf("line %d: rank %v, want the mean of %d and %d", l.Line, l.Rank, l.Best, l.Worst)
				}
			}
			for _, f := range d.Funcs {
				funcs = append(funcs, f.Name)
			}
			if !reflect.DeepEqual(lines, tt.lines) || !reflect.DeepEqual(ranks, tt.ranks) || !reflect.DeepEqual(funcs, tt.funcs) {
				t.Errorf("lines %v ranks %v funcs %v\nwant %v %v %v", lines, ranks, funcs, tt.lines, tt.ranks, tt.funcs)
			}
			// Line 12 ran in a passing run only: never ranked.
			for _, l := range d.Lines {
				if l.Line == 12 {
					t.Error("a line no failing run executed is ranked")
				}
				if l.FuncBest == 0 {
					t.Errorf("line %d has no function rank", l.Line)
				}
			}
		})
	}
}

func rangeOf(best, worst int) string {
	if best == worst {
		return itoa(best)
	}
	return itoa(best) + "-" + itoa(worst)
}

func itoa(n int) string { return string(rune('0' + n)) }

func TestParseFailure(t *testing.T) {
	tests := []struct {
		out       string
		signature string
		message   string
		stack     int
	}{
		{"=== RUN   TestMiddle/2_1_3\n    mid_test.go:14: Middle(2, 1, 3) = 1, want 2\n--- FAIL: TestMiddle/2_1_3 (0.00s)\n",
			"check mid_test.go: Middle(N, N, N) = N, want N", "mid_test.go:14: Middle(2, 1, 3) = 1, want 2", 0},
		{"--- FAIL: TestX (0.00s)\npanic: runtime error: index out of range [5] with length 3 [recovered]\n\tpanic: runtime error\n\ngoroutine 7 [running]:\nexample.com/p.f(...)\n\t/m/p.go:12 +0x1d\nexample.com/p.TestX(0xc000)\n\t/m/p_test.go:8 +0x25\n",
			"panic: runtime error: index out of range [N] with length N", "panic: runtime error: index out of range [5] with length 3", 2},
		{"    x_test.go:3: got \"abc\", want \"abd\"\n", "check x_test.go: got Q, want Q", "x_test.go:3: got \"abc\", want \"abd\"", 0},
		{"nothing useful\n", "failed", "", 0},
		// go-cmp's report, with the no-break spaces it puts in at random
		// in some runs: the same signature as with spaces.
		{"    x_test.go:9: mismatch:\u00a0\u00a0hcl.Range{\n", "check x_test.go: mismatch: hcl.Range{", "x_test.go:9: mismatch:\u00a0\u00a0hcl.Range{", 0},
		{"    x_test.go:9: mismatch:  hcl.Range{\n", "check x_test.go: mismatch: hcl.Range{", "x_test.go:9: mismatch:  hcl.Range{", 0},
	}
	for _, tt := range tests {
		f := ParseFailure("p", "TestX", tt.out)
		if f.Signature != tt.signature || f.Message != tt.message || len(f.Stack) != tt.stack {
			t.Errorf("ParseFailure(%q) = %q, %q, %d frames; want %q, %q, %d", tt.out, f.Signature, f.Message, len(f.Stack), tt.signature, tt.message, tt.stack)
		}
	}
}

func TestGroupFailures(t *testing.T) {
	fs := []Failure{
		{Package: "p", Test: "TestA/1", Signature: "check a_test.go: got N"},
		{Package: "p", Test: "TestA/2", Signature: "check a_test.go: other words"},
		{Package: "p", Test: "TestB", Signature: "panic: boom"},
		{Package: "p", Test: "TestC", Signature: "check a_test.go: got N"},
		{Package: "p", Test: "TestD", Signature: "panic: other"},
	}
	gs := GroupFailures(fs)
	var got [][]string
	var sigs []string
	for _, g := range gs {
		var names []string
		for _, f := range g.Failures {
			names = append(names, f.Test)
		}
		got = append(got, names)
		sigs = append(sigs, g.Signature)
	}
	// TestA's subtests are one group whatever their messages, and TestC
	// fails as TestA/1 does.
	want := [][]string{{"TestA/1", "TestA/2", "TestC"}, {"TestB"}, {"TestD"}}
	if !reflect.DeepEqual(got, want) || sigs[0] != "check a_test.go: got N" {
		t.Errorf("groups %v (%q), want %v", got, sigs, want)
	}
}

func TestTestOutputs(t *testing.T) {
	out := []byte(`{"Action":"run","Package":"p","Test":"TestA"}
{"Action":"output","Package":"p","Test":"TestA","Output":"--- FAIL: TestA (0.00s)\n"}
{"Action":"output","Package":"p","Test":"TestA","Output":"panic: boom [recovered]\n"}
{"Action":"output","Package":"p","Output":"goroutine 7 [running]:\n"}
{"Action":"output","Package":"p","Output":"\t/m/p.go:12 +0x1c\n"}
{"Action":"output","Package":"q","Output":"ok  \tq\t0.01s\n"}
`)
	got := TestOutputs(out)
	want := "--- FAIL: TestA (0.00s)\npanic: boom [recovered]\ngoroutine 7 [running]:\n\t/m/p.go:12 +0x1c\n"
	if got["p\x00TestA"] != want || len(got) != 1 {
		t.Errorf("TestOutputs = %q, want TestA's output with the stack", got)
	}
	f := ParseFailure("p", "TestA", got["p\x00TestA"])
	if len(f.Stack) != 1 || f.Stack[0] != (Location{"/m/p.go", 12}) {
		t.Errorf("stack %v", f.Stack)
	}
}

// TestTestTimes reads each test's time from go test -json output: its
// pass or fail event's, not the package's, build output skipped.
func TestTestTimes(t *testing.T) {
	out := []byte(`# p
build output
{"Action":"run","Package":"p","Test":"TestA"}
{"Action":"pass","Package":"p","Test":"TestA/x","Elapsed":0.25}
{"Action":"fail","Package":"p","Test":"TestA","Elapsed":1.5}
{"Action":"skip","Package":"p","Test":"TestB","Elapsed":0}
{"Action":"fail","Package":"p","Elapsed":2}
`)
	got := TestTimes(out)
	want := map[string]float64{"p\x00TestA/x": 0.25, "p\x00TestA": 1.5}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("TestTimes = %v, want %v", got, want)
	}
}

// TestHome checks that a line in a failing test's own package gains
// Weights.Home and says so, and a line elsewhere does not.
func TestHome(t *testing.T) {
	for _, tt := range []struct {
		home string
		want bool
	}{{"p", true}, {"q", false}} {
		in := Input{Spectra: spectraOf(t), Home: map[string]bool{tt.home: true}, Weights: &Weights{Spectrum: 1, Home: 0.5}}
		for _, l := range Diagnose(in).Lines {
			want := l.Evidence.Spectrum
			if tt.want {
				want += 0.5
			}
			if l.Evidence.Home != tt.want || l.Score != want {
				t.Errorf("home %s: line %d: home %v, score %v; want %v, %v", tt.home, l.Line, l.Evidence.Home, l.Score, tt.want, want)
			}
		}
	}
}

func TestInPackage(t *testing.T) {
	tests := []struct {
		fn, pkg string
		want    bool
	}{
		{"example.com/m/pkg.F", "example.com/m/pkg", true},
		{"example.com/m/pkg.(*T).M", "example.com/m/pkg", true},
		{"example.com/m/pkg.F.func1", "example.com/m/pkg", true},
		{"gopkg.in/yaml.v3.(*parser).parse", "gopkg.in/yaml.v3", true},
		{"example.com/m/pkg/sub.F", "example.com/m/pkg", false},
		{"example.com/m.v2/pkg.F", "example.com/m", false},
		{"example.com/m/pkgx.F", "example.com/m/pkg", false},
	}
	for _, tt := range tests {
		if got := InPackage(tt.fn, tt.pkg); got != tt.want {
			t.Errorf("InPackage(%q, %q) = %v, want %v", tt.fn, tt.pkg, got, tt.want)
		}
	}
}

// TestPartialFix is the share of the failure's reports a mutant
// removed, times the share of passing tests it left passing.
func TestPartialFix(t *testing.T) {
	for _, c := range []struct {
		m    Mutant
		want float64
	}{
		{Mutant{Failing: 1, Changed: 1, Reports: 4, Lost: 1}, 0.25},
		{Mutant{Failing: 1, Changed: 1, Passing: 4, Broke: 1, Reports: 2, Lost: 2}, 0.75},
		{Mutant{Failing: 1, Changed: 1, Reports: 4, Lost: 1, Added: 1}, 0},
		{Mutant{Failing: 1, Changed: 1, Reports: 4, Lost: 4, Crashed: 1}, 0},
		{Mutant{Failing: 1, Changed: 1}, 0}, // reports not counted
	} {
		if s := partialFix(c.m); math.Abs(s-c.want) > 1e-9 {
			t.Errorf("%+v: %.3f, want %.3f", c.m, s, c.want)
		}
	}
}

// TestMutantScore is Metallaxis's test-level Ochiai: the report counts
// do not change it.
func TestMutantScore(t *testing.T) {
	for _, c := range []struct {
		m    Mutant
		want float64
	}{
		{Mutant{Failing: 2, Changed: 1, Passing: 3, Broke: 1}, 1 / math.Sqrt(4)},
		{Mutant{Failing: 2, Changed: 1, Passing: 3, Broke: 1, Reports: 3, Lost: 1, Added: 2}, 1 / math.Sqrt(4)},
		{Mutant{Failing: 1, Changed: 1, Reports: 1, Lost: 1}, 1},
		{Mutant{Failing: 1, Passing: 5, Broke: 5}, 0},
	} {
		if s := mutantScore(c.m); math.Abs(s-c.want) > 1e-9 {
			t.Errorf("%+v scores %.3f, want %.3f", c.m, s, c.want)
		}
	}
}
