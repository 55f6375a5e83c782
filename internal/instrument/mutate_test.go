package instrument

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestMutate builds the mutants of the mutate fixture and runs its tests
// against them: the mutant reading x for the faulty "return y" changes
// the failing test's outcome and breaks no passing test, every operator
// is tried, and every mutant compiles.
func TestMutate(t *testing.T) {
	dir, _ := filepath.Abs("testdata/mutate")
	file, sum, keep := filepath.Join(dir, "mid.go"), filepath.Join(dir, "sum.go"), filepath.Join(dir, "keep.go")
	var all []int
	for l := 1; l <= 104; l++ {
		all = append(all, l)
	}
	res, err := Mutate(context.Background(), Mutation{Dir: dir, Lines: map[string][]int{file: all, sum: all, keep: all}, Order: []string{file, sum, keep},
		Failing: map[string][]string{"example.com/mutate": {"TestMiddleFails"}},
		Passing: map[string][]string{"example.com/mutate": {"TestMiddle", "TestSum"}}, Budget: 5 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if res.Unbuilt != 0 || res.Skipped != 0 {
		t.Errorf("unbuilt %d, skipped %d: %v", res.Unbuilt, res.Skipped, res.Notes)
	}
	ops := map[string]bool{}
	fixed := false
	at := map[string]bool{} // "file:line op"
	for _, m := range res.Mutants {
		at[fmt.Sprintf("%s:%d %s", filepath.Base(m.File), m.Line, m.Operator)] = true
		op, _, _ := strings.Cut(m.Operator, " ")
		ops[op] = true
		// The passing tests run against a mutant that changed the
		// failure only: one that did not scores nothing anyway.
		if want := map[bool]int{true: 2, false: 0}[m.Changed > 0]; m.Failing != 1 || m.Passing != want {
			t.Errorf("mutant %d (%s at %d, %d changed): %d failing and %d passing tests run, want 1 and %d", m.ID, m.Operator, m.Line, m.Changed, m.Failing, m.Passing, want)
		}
		if m.Line == 10 && m.Operator == "var x" {
			fixed = m.Changed == 1 && m.Broke == 0 && m.Fixed == 1
		}
		if m.Line == 9 && m.Operator == "negate" && (m.Changed == 0 || m.Broke == 0) {
			t.Errorf("negating x < z left the failure alone or broke no passing test: %+v", m)
		}
	}
	if !fixed {
		t.Errorf("no mutant 'var x' at line 10 that changes the failure and breaks nothing: %+v", res.Mutants)
	}
	for _, op := range []string{"negate", "boundary", "and-or", "arith", "+1", "-1", "delete", "var", "zero"} {
		if !ops[op] {
			t.Errorf("no %q mutant", op)
		}
	}
	// Loops' continue and break are deleted; a call of two results of
	// another package's types yields their zero values.
	// A range loop is skipped, a field read zeroed, a boolean result
	// negated.
	// An assignment of a number with another operator; an index one
	// off; a range loop's index given the element's value; a negative
	// literal one more and one less.
	for _, want := range []string{"sum.go:28 delete", "sum.go:31 delete", "sum.go:33 zero", "sum.go:37 var total",
		"sum.go:46 skip", "sum.go:48 zero", "sum.go:49 negate", "sum.go:52 negate",
		"sum.go:60 =", "sum.go:60 -=", "sum.go:68 value", "sum.go:69 +=", "sum.go:69 -=", "sum.go:77 index+1", "sum.go:77 index-1",
		"sum.go:83 +1", "sum.go:83 -1",
		// A switch's conditions negated and mutated inside; another's
		// case values one more and one less.
		"sum.go:92 negate", "sum.go:92 boundary", "sum.go:94 negate", "sum.go:98 +1", "sum.go:98 -1", "sum.go:100 +1",
		// A result discarded kept in a variable of its type: a call's
		// operand first, a blank of := and of =.
		"keep.go:17 keep s", "keep.go:18 keep p", "keep.go:20 keep p", "keep.go:20 keep q", "keep.go:22 keep q"} {
		if !at[want] {
			t.Errorf("no mutant %s", want)
		}
	}
}

// TestMutateHazards makes every mutant of the hazards fixture's code,
// its tricky constructs included: all of them compile.
func TestMutateHazards(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the hazards fixture's mutants")
	}
	dir, _ := filepath.Abs("testdata/hazards")
	var order []string
	lines := map[string][]int{}
	for _, name := range []string{"hazards.go", "shared.go", "lined.go"} {
		file := filepath.Join(dir, name)
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		order = append(order, file)
		for l := 1; l <= strings.Count(string(data), "\n")+1; l++ {
			lines[file] = append(lines[file], l)
		}
	}
	res, err := Mutate(context.Background(), Mutation{Dir: dir, Lines: lines, Order: order,
		Failing: map[string][]string{"example.com/hazards": {"TestNothingMatches"}}, Budget: 5 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if res.Unbuilt != 0 {
		t.Errorf("%d lines' mutants did not compile: %v", res.Unbuilt, res.Notes)
	}
	if len(res.Mutants) < 100 {
		t.Errorf("%d mutants, want more than 100", len(res.Mutants))
	}
}

// TestMutateOldGo makes mutants in a module declaring go 1.14 whose
// types print as "any": they compile (the mutated file is raised to
// go1.21, as instrumented files are), with nothing left unbuilt.
func TestMutateOldGo(t *testing.T) {
	if goMinor(runtimeGoVersion(t)) < raiseMin {
		t.Skip("the go command is older than go1.21: files are not raised")
	}
	dir, _ := filepath.Abs("testdata/mutateold")
	file := filepath.Join(dir, "old.go")
	res, err := Mutate(context.Background(), Mutation{Dir: dir, Lines: map[string][]int{file: {9, 10, 11, 12, 13, 14, 15, 16}}, Order: []string{file},
		Failing: map[string][]string{"example.com/mutateold": {"TestFirstWrong"}}, Budget: 5 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	zero := false
	for _, m := range res.Mutants {
		zero = zero || m.Operator == "zero" && m.Line == 12
	}
	if res.Unbuilt != 0 || !zero {
		t.Errorf("unbuilt %d, a zero mutant of reflect.ValueOf(v).Interface(): %v; notes %v", res.Unbuilt, zero, res.Notes)
	}
}

// TestLoadFiles loads the packages of files to mutate: none again when
// the caller's packages hold them, their directories' packages when
// not.
func TestLoadFiles(t *testing.T) {
	dir, _ := filepath.Abs("testdata/mutate")
	files := []string{filepath.Join(dir, "mid.go"), filepath.Join(dir, "sum.go")}
	ctx := context.Background()
	fresh, err := loadFiles(ctx, dir, os.Environ(), nil, files, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if _, syn := fileOf(fresh, f); syn == nil {
			t.Errorf("%s: not loaded", f)
		}
	}
	again, err := loadFiles(ctx, dir, os.Environ(), nil, files, fresh)
	if err != nil {
		t.Fatal(err)
	}
	if len(again) != len(fresh) {
		t.Errorf("loaded %d packages more, though the given ones hold the files", len(again)-len(fresh))
	}
}

// TestRunOrder runs mutants by their line's place in the ranking, a
// line's in the order they were made, lines not ranked last; without a
// ranking, as made.
func TestRunOrder(t *testing.T) {
	sites := []MutantSite{{ID: 1, File: "/a.go", Line: 3}, {ID: 2, File: "/a.go", Line: 3}, {ID: 3, File: "/a.go", Line: 9},
		{ID: 4, File: "/b.go", Line: 1}, {ID: 5, File: "/c.go", Line: 2}}
	for _, tc := range []struct {
		name   string
		ranked []FileLine
		want   []int
	}{
		{"no ranking", nil, []int{0, 1, 2, 3, 4}},
		{"across files", []FileLine{{"/b.go", 1}, {"/a.go", 9}, {"/a.go", 3}}, []int{3, 2, 0, 1, 4}},
		{"ranked twice", []FileLine{{"/a.go", 9}, {"/c.go", 2}, {"/a.go", 9}}, []int{2, 4, 0, 1, 3}},
	} {
		if got := runOrder(sites, tc.ranked); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestCapLines keeps the most suspicious lines' mutants up to the cap, a
// line's all or none, the first line whatever its count, and leaves out
// every line after the first that does not fit.
func TestCapLines(t *testing.T) {
	sites := []MutantSite{{ID: 1, File: "/a.go", Line: 3}, {ID: 2, File: "/a.go", Line: 3}, {ID: 3, File: "/a.go", Line: 9},
		{ID: 4, File: "/b.go", Line: 1}, {ID: 5, File: "/b.go", Line: 1}, {ID: 6, File: "/b.go", Line: 1}, {ID: 7, File: "/c.go", Line: 2}}
	ranked := []FileLine{{"/b.go", 1}, {"/a.go", 9}, {"/a.go", 3}, {"/c.go", 2}}
	for _, tc := range []struct {
		name string
		max  int
		want []FileLine // capped, in no order
	}{
		{"all fit", 7, nil},
		{"whole lines", 4, []FileLine{{"/a.go", 3}, {"/c.go", 2}}},
		{"a line that does not fit ends the kept ones", 5, []FileLine{{"/a.go", 3}, {"/c.go", 2}}},
		{"the first line whatever its count", 1, []FileLine{{"/a.go", 9}, {"/a.go", 3}, {"/c.go", 2}}},
	} {
		capped := map[string]map[int]bool{}
		n := capLines(sites, ranked, tc.max, capped)
		var got []FileLine
		for _, l := range ranked {
			if capped[l.File][l.Line] {
				got = append(got, l)
			}
		}
		var want []FileLine
		for _, l := range ranked {
			if slices.Contains(tc.want, l) {
				want = append(want, l)
			}
		}
		if n != len(want) || !slices.Equal(got, want) {
			t.Errorf("%s: capped %v (%d), want %v", tc.name, got, n, want)
		}
	}
}

// TestMutateMax makes and runs no more mutants than the cap, those of the
// first lines, and says how many lines it left out.
func TestMutateMax(t *testing.T) {
	dir, _ := filepath.Abs("testdata/mutate")
	file := filepath.Join(dir, "mid.go")
	var all []int
	for l := 1; l <= 78; l++ {
		all = append(all, l)
	}
	res, err := Mutate(context.Background(), Mutation{Dir: dir, Lines: map[string][]int{file: all}, Order: []string{file}, Max: 8,
		Failing: map[string][]string{"example.com/mutate": {"TestMiddleFails"}}, Budget: 5 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Mutants) == 0 || len(res.Mutants) > 8 || res.Capped == 0 || res.Skipped != 0 {
		t.Fatalf("%d mutants run, %d lines capped, %d skipped: %v", len(res.Mutants), res.Capped, res.Skipped, res.Notes)
	}
	for i, m := range res.Mutants {
		if m.ID != i+1 {
			t.Errorf("mutant %d numbered %d: the capped build numbers from 1", i+1, m.ID)
		}
	}
	if !strings.Contains(strings.Join(res.Notes, "\n"), "at most 8 mutants") {
		t.Errorf("notes %q do not name the cap", res.Notes)
	}
}

// TestOtherTops leaves out of the passing part the tests a run of the
// failing tests' top-level tests runs already.
func TestOtherTops(t *testing.T) {
	for _, tc := range []struct {
		passing, failing, want []string
	}{
		{[]string{"TestA", "TestB/x"}, []string{"TestC"}, []string{"TestA", "TestB/x"}},
		{[]string{"TestA/ok", "TestB"}, []string{"TestA/bad"}, []string{"TestB"}},
		{[]string{"TestA"}, []string{"TestA/bad"}, nil},
		{nil, []string{"TestA"}, nil},
	} {
		if got := otherTops(tc.passing, tc.failing); !slices.Equal(got, tc.want) {
			t.Errorf("otherTops(%q, %q) = %q, want %q", tc.passing, tc.failing, got, tc.want)
		}
	}
}

// TestMutateNotFailing gives Mutate a "failing" test that passes when
// run again: no mutant is run, and a note says why.
func TestMutateNotFailing(t *testing.T) {
	dir, _ := filepath.Abs("testdata/mutate")
	file := filepath.Join(dir, "mid.go")
	res, err := Mutate(context.Background(), Mutation{Dir: dir, Lines: map[string][]int{file: {9, 10}}, Order: []string{file},
		Failing: map[string][]string{"example.com/mutate": {"TestMiddle"}}, Budget: 5 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Mutants) != 0 || res.Skipped == 0 || len(res.Notes) == 0 || !strings.Contains(res.Notes[len(res.Notes)-1], "TestMiddle passed when run again") {
		t.Errorf("%d mutants run, %d skipped, notes %q: want none run and a note", len(res.Mutants), res.Skipped, res.Notes)
	}
}

// TestMutateAlone runs a failing subtest without its siblings (Alone):
// the passing siblings among the passing tests run by name beside it, and
// count, as they would where the top-level test runs whole.
func TestMutateAlone(t *testing.T) {
	dir, _ := filepath.Abs("testdata/mutate")
	file := filepath.Join(dir, "mid.go")
	const pkg = "example.com/mutate"
	for _, alone := range []bool{false, true} {
		res, err := Mutate(context.Background(), Mutation{Dir: dir, Lines: map[string][]int{file: {9, 10}}, Order: []string{file},
			Failing: map[string][]string{pkg: {"TestTable/bad"}}, Passing: map[string][]string{pkg: {"TestTable/low", "TestTable/high", "TestMiddle"}},
			Alone: map[string]bool{pkg: alone}, Budget: 5 * time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		changed := 0
		for _, m := range res.Mutants {
			if m.Changed == 0 {
				continue
			}
			changed++
			if m.Failing != 1 || m.Passing != 3 {
				t.Errorf("alone %v: mutant %s at %d: %d failing and %d passing tests run, want 1 and 3", alone, m.Operator, m.Line, m.Failing, m.Passing)
			}
		}
		if changed == 0 {
			t.Errorf("alone %v: no mutant changed the failure: %+v", alone, res.Mutants)
		}
	}
}

// TestMutateManyCores gives Mutate a failing test that passes on one
// core: the mutants' binaries, which share the cores among the jobs,
// run as the tests did instead, and the mutants are run.
func TestMutateManyCores(t *testing.T) {
	if runtime.NumCPU() < 2 {
		t.Skip("one core: the test cannot fail here")
	}
	dir, _ := filepath.Abs("testdata/mutate")
	file := filepath.Join(dir, "mid.go")
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, "GOMAXPROCS=") })
	res, err := Mutate(context.Background(), Mutation{Dir: dir, Env: env, Lines: map[string][]int{file: {9, 10}}, Order: []string{file},
		Failing: map[string][]string{"example.com/mutate": {"TestManyCores"}}, Budget: 5 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	changed := 0
	for _, m := range res.Mutants {
		changed += m.Changed
	}
	if len(res.Mutants) == 0 || changed == 0 || slices.ContainsFunc(res.Notes, func(n string) bool { return strings.Contains(n, "passed when run again") }) {
		t.Errorf("%d mutants run, %d changed the failure, notes %q: want them run", len(res.Mutants), changed, res.Notes)
	}
}

// TestMutateRan runs against a mutant the failing tests that ran its
// line (Ran): where Ran says the failing test did not run the mutated
// lines (another failing test did), no mutant changes its failure, for
// it does not run; where it says it ran them, some do.
func TestMutateRan(t *testing.T) {
	dir, _ := filepath.Abs("testdata/mutate")
	file := filepath.Join(dir, "mid.go")
	const pkg = "example.com/mutate"
	lines := map[FileLine]bool{{file, 9}: true, {file, 10}: true}
	for _, tt := range []struct {
		ran     map[string]map[FileLine]bool
		changed bool
	}{
		{map[string]map[FileLine]bool{pkg + "\x00TestMiddleFails": {}, pkg + "\x00TestOther": lines}, false},
		{map[string]map[FileLine]bool{pkg + "\x00TestMiddleFails": lines}, true},
		{nil, true},
	} {
		res, err := Mutate(context.Background(), Mutation{Dir: dir, Lines: map[string][]int{file: {9, 10}}, Order: []string{file},
			Failing: map[string][]string{pkg: {"TestMiddleFails"}}, Ran: tt.ran, Budget: 5 * time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		changed := 0
		for _, m := range res.Mutants {
			if m.Failing != 1 {
				t.Errorf("ran %v: mutant %s at %d counts %d failing tests, want 1", tt.ran, m.Operator, m.Line, m.Failing)
			}
			changed += m.Changed
		}
		if len(res.Mutants) == 0 || (changed > 0) != tt.changed {
			t.Errorf("ran %v: %d mutants, %d changed the failure; want changes %v", tt.ran, len(res.Mutants), changed, tt.changed)
		}
	}
}

// TestReaching splits a failing part by the lines its tests ran.
func TestReaching(t *testing.T) {
	at := FileLine{"/m/a.go", 3}
	ran := map[string]map[FileLine]bool{
		"p\x00TestA": {at: true},
		"p\x00TestB": {{"/m/a.go", 4}: true},
	}
	for _, tt := range []struct {
		reached   bool
		part      []string
		run, left []string
	}{
		{true, []string{"TestA", "TestB", "TestC"}, []string{"TestA", "TestC"}, []string{"TestB"}},
		{false, []string{"TestA", "TestB"}, []string{"TestA", "TestB"}, nil},
		// TestB/sib is a passing sibling run beside the failing (Alone).
		{true, []string{"TestB", "TestB/sib"}, []string{"TestB/sib"}, []string{"TestB"}},
	} {
		run, left := reaching(ran, tt.reached, "p", tt.part, []string{"TestA", "TestB", "TestC"}, at)
		if !slices.Equal(run, tt.run) || !slices.Equal(left, tt.left) {
			t.Errorf("reaching(%v, %q) = %q, %q; want %q, %q", tt.reached, tt.part, run, left, tt.run, tt.left)
		}
	}
}
