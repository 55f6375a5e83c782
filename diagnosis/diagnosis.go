// Package diagnosis fuses what culprit records about failing tests into
// one answer to "where is the bug?": a ranking of source lines, and of
// the functions that hold them, each with the evidence that put it there.
//
// The evidence, per line of code the tests executed:
//   - spectra: the best suspiciousness (Ochiai) among the line's events,
//     statements, branch outcomes and predicates, so that a line whose
//     condition went one way only in failing runs stands out from the
//     other lines of its block;
//   - slices: whether the line is in a failing test's dynamic backward
//     slice from its failure point (its failing check, or its panic), and
//     how many of the sliced tests have it;
//   - stacks: whether the line is on a failing test's panic stack, or
//     raised a runtime panic the code recovered;
//   - cases: a failing test's cases that passed (Input.Cases) count as
//     passing runs in the line's spectrum;
//   - mutants: how mutating the line changed the tests' outcomes
//     (Metallaxis: a mutant that changes the failing tests' outcome or
//     message and breaks no passing test points at its line); a
//     package-level declaration, which no mutant changes, has its
//     spectrum stand for its mutants; and at the function level, the
//     mean of the scores of every mutant of the function's lines (as
//     MUSE averages a statement's), which tells the function the failure
//     runs through from one whose single line happened to score high;
//   - fixes: the share of failing tests a mutant of the line made pass
//     breaking no passing test, and the share of the failing tests'
//     failure reports a mutant removed (a partial fix: some cases of a
//     table made to pass) less the passing tests it broke.
//
// Each source adds to a line's score with a weight (Weights); a function
// scores as its best line. Nothing here runs anything: the analyses'
// results come in as data (Input), so a diagnosis can be made from a
// trace recorded yesterday and mutants run elsewhere.
package diagnosis

import (
	"math"
	"path/filepath"
	"sort"
	"strings"

	"github.com/culprit-go/culprit/spectrum"
)

// Input is what the diagnosis fuses.
type Input struct {
	// Spectra of the tests: failing runs are the group being diagnosed,
	// passing runs every test that passed. Statements at least; branch
	// outcomes and predicates sharpen the lines.
	Spectra *spectrum.Spectra
	// Slices are the lines of failing tests' backward slices, one set
	// per sliced test (paths as in Spectra: relative to its Root).
	Slices []map[Location]bool
	// Cases are what each passing case of a failing test ran: a failing
	// test cut at its checks (the cases of a table-driven test without
	// subtests, which the failing case's checks closed too), whose cases
	// that passed count as passing runs of their own (test case
	// purification), so that the lines only they ran stand apart from
	// the failing case's.
	Cases []Case
	// Stacks are failing tests' panic stacks, innermost frame first.
	Stacks [][]Location
	// Mutants are the outcomes of mutants of executed lines.
	Mutants []Mutant
	// Decls are package-level variables and constants with the lines
	// that read them (PackageDecls): a declaration a failing run's line
	// read is ranked with that line's spectrum, as if executed there.
	Decls []Decl
	// Home are the import paths of the failing tests' packages: Go tests
	// sit beside the code they test, so a line there is the first
	// suspect (Weights.Home).
	Home map[string]bool
	// Weights of the evidence; the zero value is DefaultWeights.
	Weights *Weights
}

// Case is what one passing case of a failing test ran: its lines, and
// the outcomes of their decisions ("if true", "case 2").
type Case struct {
	Lines    map[Location]bool
	Branches map[Location][]string
}

// ran reports whether the case ran event e: a branch outcome when it
// names the line's outcomes, else the line.
func (c Case) ran(e spectrum.Event, loc Location) bool {
	if e.Kind == spectrum.Branch && c.Branches != nil {
		for _, o := range c.Branches[loc] {
			if o == e.Text {
				return true
			}
		}
		return false
	}
	return c.Lines[loc]
}

// Location is a line of a file (relative to the spectra's root).
type Location struct {
	File string
	Line int
}

// Mutant is what one mutant of a line did to the tests that were run
// against it.
type Mutant struct {
	At       Location
	Operator string // what was changed: "negate", "delete", "+1"...
	// Failing and Passing are how many of the diagnosed failing tests and
	// of the passing tests were run against the mutant; Changed is how
	// many failing tests passed or failed differently (another message,
	// another place), Broke how many passing tests failed.
	Failing, Passing int
	Changed, Broke   int
	Fixed            int // failing tests that passed (of Changed)
	// Reports, Lost, Added and Crashed count the failing tests' failure
	// reports ("file.go:N: message", a panic), so that the cases of a
	// table-driven test count apart: how many the original printed,
	// how many of those the mutant no longer printed, how many more it
	// printed than it lost; Crashed counts failing tests the mutant
	// made panic or hang instead. Reports is 0 where they were not
	// counted.
	Reports, Lost, Added, Crashed int
}

// Weights say how much each kind of evidence adds to a line's score.
type Weights struct {
	Spectrum float64 `json:"spectrum"` // times the best Ochiai score of the line's events
	Slice    float64 `json:"slice"`    // times the share of sliced tests whose slice has the line
	Stack    float64 `json:"stack"`    // when the line is the innermost ranked frame of a failing test's panic stack (half for an outer frame)
	Mutation float64 `json:"mutation"` // times the line's best mutant score
	Func     float64 `json:"func"`     // times the best spectrum score in the line's function
	// FuncMutation is times the mean mutant score of the line's
	// function: how much of what was mutated in it changed the failure,
	// the function's own evidence beside its best line's.
	FuncMutation float64 `json:"func_mutation"`
	Fix          float64 `json:"fix"` // times the share of failing tests a mutant of the line made pass, breaking no passing test
	// Partial is times the line's partial fix (Evidence.Partial): the
	// share of the failure a mutant removed.
	Partial float64 `json:"partial"`
	Home    float64 `json:"home"` // when the line is in a failing test's own package
}

// DefaultWeights are the weights used when Input.Weights is nil.
var DefaultWeights = Weights{Spectrum: 1, Slice: 0.1, Stack: 0.5, Mutation: 0.5, Func: 0.3, FuncMutation: 0.25, Fix: 0.5, Partial: 0.1, Home: 0.5}

// Evidence is why a line ranks where it does.
type Evidence struct {
	Spectrum float64 // best Ochiai score among the line's events
	Event    string  // that event: "stmt", "branch if true", "pred x < y"
	EF, EP   int     // failing and passing runs that had that event
	Sliced   int     // sliced failing tests whose slice has the line
	Slices   int     // sliced failing tests
	Stack    bool    // on a failing test's panic stack
	StackTop bool    // the innermost frame of a panic stack that is a ranked line: where it panicked
	Home     bool    // in a failing test's own package
	Mutants  int     // mutants of the line that were run
	Changed  int     // of those, mutants that changed a failing test's outcome or message
	Broke    int     // of those, mutants that made a passing test fail
	Mutation float64 // best mutant score (Ochiai over changed failing and broken passing tests)
	Fix      float64 // best share of failing tests a mutant made pass while breaking no passing test
	// Partial is the best share of the failing tests' failure reports a
	// mutant removed, printing no new one and crashing none, times the
	// share of the passing tests run against it that it left passing: a
	// mutant that fixes some cases of a table-driven test.
	Partial float64
	// MutantRuns are the line's mutants, when they were kept: Rank
	// scores Mutation from them.
	MutantRuns []Mutant
}

// declarationEvent begins the Event of a package-level declaration's
// line, ranked with the spectrum of a line that read it.
const declarationEvent = "declaration read at "

// Declaration reports whether the evidence is a package-level
// declaration's, ranked with the spectrum of a line that read it.
func (e Evidence) Declaration() bool { return strings.HasPrefix(e.Event, declarationEvent) }

// Line is a ranked line.
type Line struct {
	Location
	Func     string // the enclosing function (pkgpath.Name)
	Score    float64
	Evidence Evidence
	// Best and Worst are the first and last positions of the line's tie
	// group, from 1; Rank is their mean, the expected position.
	Best, Worst int
	Rank        float64
	// FuncBest and FuncWorst are the function's positions among the
	// functions; FuncRank their mean.
	FuncBest, FuncWorst int
	FuncRank            float64
}

// Func is a ranked function: it scores as its best line.
type Func struct {
	Name        string
	File        string
	Line        int // its best line
	Score       float64
	Best, Worst int
	Rank        float64
	// Mutants are how many mutants of its lines were run, Mutation the
	// mean of their scores (Weights.FuncMutation).
	Mutants  int
	Mutation float64
}

// Diagnosis is the fused ranking.
type Diagnosis struct {
	Lines []Line // most suspicious first
	Funcs []Func // most suspicious first
	// Failing and Passing count the runs of the spectra.
	Failing, Passing int
	Weights          Weights
}

// Diagnose ranks the lines the failing tests executed.
func Diagnose(in Input) *Diagnosis {
	w := DefaultWeights
	if in.Weights != nil {
		w = *in.Weights
	}
	s := in.Spectra
	ochiai, _ := spectrum.MetricByName("ochiai", 2)

	type acc struct {
		Line
		executed bool // a failing run executed it
	}
	lines := map[Location]*acc{}
	var order []Location
	for i, e := range s.Events {
		if e.Line == 0 {
			continue
		}
		loc := Location{e.File, e.Line}
		a := lines[loc]
		if a == nil {
			a = &acc{Line: Line{Location: loc, Func: e.Func}}
			lines[loc] = a
			order = append(order, loc)
		}
		c := s.Counts(i)
		if c.EF > 0 {
			a.executed = true
		}
		// A predicate's or a value's: whether it held in a case is not
		// known, so the cases leave it alone.
		for _, cs := range in.Cases {
			if e.Kind == spectrum.Predicate || e.Kind == spectrum.Value {
				break
			}
			if c.EF > 0 && cs.ran(e, loc) {
				c.EP++
			} else {
				c.NP++
			}
		}
		sc := ochiai.Score(c)
		if math.IsNaN(sc) {
			sc = 0
		}
		ev := &a.Evidence
		if sc > ev.Spectrum || ev.Event == "" && sc == ev.Spectrum {
			ev.Spectrum, ev.EF, ev.EP = sc, c.EF, c.EP
			ev.Event = e.Kind.String()
			if e.Text != "" {
				ev.Event += " " + e.Text
			}
		}
	}
	// Package-level declarations the failing runs' lines read.
	if len(in.Decls) > 0 {
		ev := declEvidence(in.Decls, func(l Location) (Evidence, bool) {
			a := lines[l]
			if a == nil || !a.executed {
				return Evidence{}, false
			}
			return a.Evidence, true
		})
		for _, d := range in.Decls {
			e, ok := ev[d.Name]
			if !ok {
				continue
			}
			for _, loc := range d.Lines {
				if lines[loc] != nil {
					continue
				}
				lines[loc] = &acc{Line: Line{Location: loc, Func: d.Name, Evidence: Evidence{Spectrum: e.Spectrum, Event: e.Event, EF: e.EF, EP: e.EP}}, executed: true}
				order = append(order, loc)
			}
		}
	}
	for _, sl := range in.Slices {
		for loc := range sl {
			if a := lines[loc]; a != nil {
				a.Evidence.Sliced++
			}
		}
	}
	for _, st := range in.Stacks {
		top := true
		for _, loc := range st {
			if a := lines[loc]; a != nil {
				a.Evidence.Stack = true
				if top {
					a.Evidence.StackTop = true
				}
				top = false
			}
		}
	}
	for _, m := range in.Mutants {
		a := lines[m.At]
		if a == nil {
			continue
		}
		ev := &a.Evidence
		ev.Mutants++
		if m.Changed > 0 {
			ev.Changed++
		}
		if m.Broke > 0 {
			ev.Broke++
		}
		ev.MutantRuns = append(ev.MutantRuns, m)
		if m.Broke == 0 && m.Failing > 0 {
			if fix := float64(m.Fixed) / float64(m.Failing); fix > ev.Fix {
				ev.Fix = fix
			}
		}
	}
	var executed []Line
	for _, loc := range order {
		a := lines[loc]
		if !a.executed {
			continue // no failing test ran it: it cannot have failed them
		}
		ev := &a.Evidence
		ev.Slices = len(in.Slices)
		for pkg := range in.Home {
			ev.Home = ev.Home || InPackage(a.Func, pkg)
		}
		executed = append(executed, a.Line)
	}
	r := Rank(executed, w)
	r.Failing, r.Passing = s.Failed(), s.Passed()
	return r
}

// Rank scores lines by their evidence with weights w and ranks them and
// their functions: the diagnosis's last step, which a line's evidence
// alone decides (so a diagnosis read back from its JSON can be ranked
// again with other weights). A line's score is the weighted sum of its
// evidence, its function's best spectrum and mean mutant score
// included; a function scores as its best line.
func Rank(lines []Line, w Weights) *Diagnosis {
	d := &Diagnosis{Weights: w}
	funcSpec := map[string]float64{}
	type mean struct {
		sum float64
		n   int
	}
	funcMut := map[string]mean{}
	mutated := false // the mutation step ran
	for _, l := range lines {
		funcSpec[l.Func] = max(funcSpec[l.Func], l.Evidence.Spectrum)
		mutated = mutated || len(l.Evidence.MutantRuns) > 0
		fm := funcMut[l.Func]
		for _, m := range l.Evidence.MutantRuns {
			fm.sum += mutantScore(m)
			fm.n++
		}
		funcMut[l.Func] = fm
	}
	funcMutation := func(fn string) float64 {
		if fm := funcMut[fn]; fm.n > 0 {
			return fm.sum / float64(fm.n)
		}
		return 0
	}
	for _, l := range lines {
		if len(l.Evidence.MutantRuns) > 0 {
			l.Evidence.Mutation, l.Evidence.Partial = 0, 0
			for _, m := range l.Evidence.MutantRuns {
				l.Evidence.Mutation = max(l.Evidence.Mutation, mutantScore(m))
				l.Evidence.Partial = max(l.Evidence.Partial, partialFix(m))
			}
		}
		if mutated && len(l.Evidence.MutantRuns) == 0 && l.Evidence.Declaration() {
			// No mutant changes a package-level declaration: its lack
			// of mutants says nothing against it, where a statement's
			// does (its mutants ran and left the failure alone, or it
			// was not among the lines worth mutating). Its spectrum
			// stands for its mutants.
			l.Evidence.Mutation = l.Evidence.Spectrum
		}
		ev := l.Evidence
		score := w.Spectrum*ev.Spectrum + w.Func*funcSpec[l.Func] + w.FuncMutation*funcMutation(l.Func) + w.Mutation*ev.Mutation + w.Fix*ev.Fix + w.Partial*ev.Partial
		if ev.Slices > 0 {
			score += w.Slice * float64(ev.Sliced) / float64(ev.Slices)
		}
		if ev.Home {
			score += w.Home
		}
		switch {
		case ev.StackTop:
			score += w.Stack
		case ev.Stack:
			score += w.Stack / 2
		}
		l.Score = score
		d.Lines = append(d.Lines, l)
	}
	sort.SliceStable(d.Lines, func(i, j int) bool {
		a, b := d.Lines[i], d.Lines[j]
		if !spectrum.Tied(a.Score, b.Score) {
			return a.Score > b.Score
		}
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Line < b.Line
	})
	ties(len(d.Lines), func(i, j int) bool { return spectrum.Tied(d.Lines[i].Score, d.Lines[j].Score) },
		func(i, best, worst int) {
			d.Lines[i].Best, d.Lines[i].Worst, d.Lines[i].Rank = best, worst, float64(best+worst)/2
		})

	// Functions score as their best line.
	byName := map[string]int{}
	for _, l := range d.Lines {
		if _, ok := byName[l.Func]; ok {
			continue
		}
		byName[l.Func] = len(d.Funcs)
		d.Funcs = append(d.Funcs, Func{Name: l.Func, File: l.File, Line: l.Line, Score: l.Score, Mutants: funcMut[l.Func].n, Mutation: funcMutation(l.Func)})
	}
	ties(len(d.Funcs), func(i, j int) bool { return spectrum.Tied(d.Funcs[i].Score, d.Funcs[j].Score) },
		func(i, best, worst int) {
			d.Funcs[i].Best, d.Funcs[i].Worst, d.Funcs[i].Rank = best, worst, float64(best+worst)/2
		})
	for i := range d.Lines {
		f := d.Funcs[byName[d.Lines[i].Func]]
		d.Lines[i].FuncBest, d.Lines[i].FuncWorst, d.Lines[i].FuncRank = f.Best, f.Worst, f.Rank
	}
	return d
}

// ties walks a sorted list of n items and sets each one's tie group.
func ties(n int, tied func(i, j int) bool, set func(i, best, worst int)) {
	for i := 0; i < n; {
		j := i + 1
		for j < n && tied(i, j) {
			j++
		}
		for k := i; k < j; k++ {
			set(k, i+1, j)
		}
		i = j
	}
}

// mutantScore is Metallaxis's Ochiai over a mutant's kills: the failing
// tests it changed against the passing tests it broke. The failing
// tests' reports (Reports, Lost, Added) are kept to explain a line, not
// scored: counting a table-driven test's cases apart ranked the
// real-fault corpus's training bugs worse (line top-1 19% against 23%,
// top-5 46% against 54%; docs/benchmarks.md, 2026-11-26 evening).
func mutantScore(m Mutant) float64 {
	if m.Changed == 0 || m.Failing == 0 {
		return 0
	}
	return float64(m.Changed) / math.Sqrt(float64(m.Failing)*float64(m.Changed+m.Broke))
}

// partialFix is the share of the failing tests' failure reports a
// mutant removed, printing no new one and crashing none, times the
// share of the passing tests run against it that still passed: a
// mutant that makes some of a table's failing cases pass, where Fix
// counts only the tests that pass whole. Zero where the reports were not
// counted (a failing test whose reports differ run to run).
func partialFix(m Mutant) float64 {
	if m.Reports == 0 || m.Lost == 0 || m.Added > 0 || m.Crashed > 0 {
		return 0
	}
	kept := 1.0
	if m.Passing > 0 {
		kept -= float64(m.Broke) / float64(m.Passing)
	}
	return float64(m.Lost) / float64(m.Reports) * kept
}

// InPackage reports whether fn, a function named as spectra name them
// ("example.com/m/pkg.(*T).M", "gopkg.in/yaml.v3.F.func1"), belongs to
// the package with import path pkg.
func InPackage(fn, pkg string) bool {
	rest, ok := strings.CutPrefix(fn, pkg+".")
	return ok && !strings.Contains(rest, "/")
}

// Relative returns path relative to root, slash-separated, when it is
// under root: the form spectra name files in.
func Relative(root, path string) string {
	if root == "" {
		return filepath.ToSlash(path)
	}
	r, err := filepath.Rel(root, path)
	if err != nil || strings.HasPrefix(r, "..") {
		return filepath.ToSlash(path)
	}
	return filepath.ToSlash(r)
}
