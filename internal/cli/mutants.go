package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/culprit-go/culprit/diagnosis"
	"github.com/culprit-go/culprit/internal/instrument"
	"github.com/culprit-go/culprit/spectrum"
	"golang.org/x/tools/go/packages"
)

// mutationFlags say whether and how the diagnosis mutates.
type mutationFlags struct {
	on      bool
	budget  time.Duration // 0: mutationBudget of the instrumented run
	max     int           // mutants made and run at most, the most suspicious lines' (0: no cap)
	funcs   int           // the most suspicious functions whose lines are mutated
	passing int           // passing tests run against each mutant, per package
}

// mutationBudget is the mutation step's default time limit, building
// included, for an instrumented run of the tests (loading, building and
// running them) that took ran: twice the run, and at least 30 s. It is a
// safety net for suites whose tests are slow: the count (-mutation-max)
// decides what runs wherever the tests are quick, so that the ranking
// does not depend on the machine's load (the 30 s are several times the
// whole diagnosis of the real-fault corpus's bugs, whose runs take a
// second or two; with three times the run plus 10 s, fastjson-v1.5.1's
// 232 quick mutants were cut at load 14). Without it, 300 mutants of
// robfig/cron's failing test (which waits on timers) ran the diagnosis
// past ten times its 39 s plain run; with five times the run plus 30 s,
// brotli's diagnosis of a fault that fails its TestIssue22 (a 5 s test
// of a 7.6 s suite) took 143 s, 19x, the mutation step some 120 s of it,
// where the rest takes 23 s; with twice the run (30 s) it takes 44 s,
// none of its mutants run (three times, 40 s, ran none either: a mutant
// of TestIssue22 is a build and an 8 s run beside the slicing run).
func mutationBudget(ran time.Duration) time.Duration {
	return max(2*ran, 30*time.Second)
}

// defaultMutationMax is how many mutants the diagnosis makes and runs at
// most by default: every mutant of the five most suspicious functions
// on all but the largest of the real-fault corpus's bugs. The count, not
// a time budget, decides what runs, so that two diagnoses of the same
// code on a busy and an idle machine mutate the same lines and rank
// alike: with a budget of three times the instrumented run plus 10 s,
// fastjson-v1.5.1's diagnosis at load 14 ran 223 and then 225 of its 232
// mutants, and ranked its lines differently each time. A time limit
// (mutationBudget, -timeout) still bounds the step; a step it cuts says
// so.
const defaultMutationMax = 300

// mutantPlan is what the mutation step mutates and runs: the executed
// lines of the first diagnosis's most suspicious functions, and the
// group's failing tests with a sample of the passing tests that ran
// those lines.
type mutantPlan struct {
	root    string
	lines   map[string][]int      // absolute file -> lines
	order   []string              // the files, most suspicious first
	ranked  []instrument.FileLine // the lines, most suspicious first
	failing map[string][]string
	passing map[string][]string
	alone   map[string]bool                         // packages whose failing subtests run without their siblings
	funcs   map[string]bool                         // the functions mutated
	ran     map[string]map[instrument.FileLine]bool // per failing test ("pkg\x00TestX"), the lines it ran
}

// dirs are the directories of the plan's files (none for a nil plan).
func (p *mutantPlan) dirs() []string {
	if p == nil {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for _, f := range p.order {
		if d := filepath.Dir(f); !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	return out
}

// aloneOver is the time (seconds, in the instrumented run) over which
// a failing subtest's top-level test, if also four times as long as
// the failing subtests, is not run whole against each mutant: the
// failing subtests run alone.
const aloneOver = 0.25

// aloneCount is how many subtests the failing subtests' top-level tests
// have at least for the failing subtests, if also a quarter of them or
// fewer, to run alone against each mutant, whatever the times say: a
// table of parallel subtests reports its top-level test's time as
// nothing (spf13/cast's 8,000 cases, 300 failing: each mutant ran
// them all, 0.4 s and 1.4 MB of output, where the failing ones alone
// take 30 ms).
const aloneCount = 32

// passingBudget is how long, in seconds of the instrumented run, the
// passing tests run against each mutant that changed the failure take
// at most, for failing tests that took failing: the failing tests run
// against every mutant, the passing ones against most of those that
// matter, so they may take twice as long, or a tenth of a second
// (runewidth's diagnosis: 33 s with half a second, 7 s with a tenth,
// the same ranking). The tests that ran the most mutated lines come
// first; where none fits, the one that ran the most.
func passingBudget(failing float64) float64 { return max(2*failing, 0.1) }

// planMutants chooses what the mutation step mutates and runs; times
// are the tests' times in the run ("pkg\x00TestX", nil when not known).
func planMutants(f mutationFlags, first *diagnosis.Diagnosis, g diagnosis.Group, s *spectrum.Spectra, times map[string]float64) *mutantPlan {
	top := map[string]bool{}
	for _, fn := range first.Funcs {
		if len(top) == f.funcs {
			break
		}
		top[fn.Name] = true
	}
	// And where a failing test panicked, however its function ranks:
	// the line a runtime error stopped at is the first place to look,
	// and only its mutants can say whether it is the fault or the
	// messenger (a recovered panic turned into the error a check saw
	// has no other evidence of its own).
	for _, l := range first.Lines {
		if l.Evidence.StackTop {
			top[l.Func] = true
		}
	}
	return planFuncs(f, first, g, s, times, top, nil)
}

// planRaised chooses the mutants of the functions where a failing
// test's runtime panic was raised and then recovered (by the code under
// test, turning it into an error, or by the test), those not in done:
// only the failing tests' slices find such a panic, and they end after
// the first mutants were chosen, so its function may not be among them
// (expr-v1.12.2's unchecked type assertion in runtime.Fetch). The
// raising line's mutants come first. Nil when there is nothing more to
// mutate.
func planRaised(f mutationFlags, first *diagnosis.Diagnosis, g diagnosis.Group, s *spectrum.Spectra, times map[string]float64, raised []diagnosis.Location, done map[string]bool) *mutantPlan {
	at := map[diagnosis.Location]bool{}
	for _, loc := range raised {
		at[loc] = true
	}
	top := map[string]bool{}
	for _, l := range first.Lines {
		if at[l.Location] && !done[l.Func] {
			top[l.Func] = true
		}
	}
	if len(top) == 0 {
		return nil
	}
	return planFuncs(f, first, g, s, times, top, at)
}

// planFuncs plans the mutants of the executed lines of the functions
// in top, most suspicious first but the lines where a failing test
// panicked (StackTop, or in raised) before every other.
func planFuncs(f mutationFlags, first *diagnosis.Diagnosis, g diagnosis.Group, s *spectrum.Spectra, times map[string]float64, top map[string]bool, raised map[diagnosis.Location]bool) *mutantPlan {
	lines := map[string][]int{}
	var order []string
	var ranked []instrument.FileLine
	chosen := map[diagnosis.Location]bool{}
	for _, l := range first.Lines {
		if !top[l.Func] {
			continue
		}
		abs := filepath.Join(s.Root, filepath.FromSlash(l.File))
		if _, ok := lines[abs]; !ok {
			order = append(order, abs)
		}
		lines[abs] = append(lines[abs], l.Line)
		if l.Evidence.StackTop || raised[l.Location] {
			// Its mutants first, whatever the cap leaves out.
			ranked = append([]instrument.FileLine{{File: abs, Line: l.Line}}, ranked...)
		} else {
			ranked = append(ranked, instrument.FileLine{File: abs, Line: l.Line})
		}
		chosen[l.Location] = true
	}
	failing := map[string][]string{}
	isFailing := map[string]bool{}
	for _, fl := range g.Failures {
		failing[fl.Package] = append(failing[fl.Package], fl.Test)
		isFailing[fl.Package+"\x00"+fl.Test] = true
	}
	// The chosen lines each failing test ran: a mutant runs only those
	// that ran its line.
	ran := map[string]map[instrument.FileLine]bool{}
	for i, r := range s.Runs {
		key := r.Package + "\x00" + r.Name
		if !isFailing[key] {
			continue
		}
		lines := ran[key]
		if lines == nil {
			lines = map[instrument.FileLine]bool{}
			ran[key] = lines
		}
		for _, ev := range s.RunEvents(i) {
			x := s.Events[ev]
			if loc := (diagnosis.Location{File: x.File, Line: x.Line}); chosen[loc] {
				lines[instrument.FileLine{File: filepath.Join(s.Root, filepath.FromSlash(x.File)), Line: x.Line}] = true
			}
		}
	}
	// Passing tests of the same packages that ran the chosen lines, those
	// that ran most of them first.
	type cand struct {
		run  spectrum.Run
		hits int
	}
	var cands []cand
	for i, r := range s.Runs {
		if r.Outcome != spectrum.Pass || failing[r.Package] == nil {
			continue
		}
		hit := map[diagnosis.Location]bool{}
		for _, ev := range s.RunEvents(i) {
			x := s.Events[ev]
			if loc := (diagnosis.Location{File: x.File, Line: x.Line}); chosen[loc] {
				hit[loc] = true
			}
		}
		if len(hit) > 0 {
			cands = append(cands, cand{r, len(hit)})
		}
	}
	// A mutant's tests run by top-level test: a subtest costs its
	// top-level test's time, once.
	cost := func(pkg, name string) float64 {
		top, _, _ := strings.Cut(name, "/")
		return times[pkg+"\x00"+top]
	}
	sort.SliceStable(cands, func(i, j int) bool {
		if cands[i].hits != cands[j].hits {
			return cands[i].hits > cands[j].hits
		}
		return cost(cands[i].run.Package, cands[i].run.Name) < cost(cands[j].run.Package, cands[j].run.Name)
	})
	budget := map[string]float64{}
	tops := map[string]bool{} // "pkg\x00TestX" counted
	alone := map[string]bool{}
	for pkg, tests := range failing {
		var topTime, leafTime float64
		subtests := true
		for _, t := range tests {
			top, _, sub := strings.Cut(t, "/")
			subtests = subtests && sub
			leafTime += times[pkg+"\x00"+t]
			if !tops[pkg+"\x00"+top] {
				tops[pkg+"\x00"+top] = true
				topTime += cost(pkg, top)
			}
		}
		// A top-level test far longer than its failing cases (a table
		// of thousands) would run whole against every mutant.
		alone[pkg] = subtests && (topTime > aloneOver && topTime > 4*leafTime || manySubtests(s, pkg, tests))
		budget[pkg] = passingBudget(topTime)
		if alone[pkg] {
			budget[pkg] = passingBudget(leafTime)
		}
	}
	spent := map[string]float64{}
	passing := map[string][]string{}
	for _, c := range cands {
		pkg := c.run.Package
		if len(passing[pkg]) >= f.passing {
			continue
		}
		top, _, _ := strings.Cut(c.run.Name, "/")
		x := 0.0
		if !tops[pkg+"\x00"+top] {
			x = cost(pkg, top)
		}
		if times != nil && spent[pkg]+x > budget[pkg] {
			continue // too slow to run against every mutant that matters
		}
		tops[pkg+"\x00"+top] = true
		spent[pkg] += x
		passing[pkg] = append(passing[pkg], c.run.Name)
	}
	// Where none fits, the one that ran the most lines, the quickest
	// of those.
	for _, c := range cands {
		if pkg := c.run.Package; len(passing[pkg]) == 0 {
			passing[pkg] = []string{c.run.Name}
		}
	}
	return &mutantPlan{root: s.Root, lines: lines, order: order, ranked: ranked, failing: failing, passing: passing, alone: alone, funcs: top, ran: ran}
}

// manySubtests reports whether the top-level tests of the failing
// tests of package pkg ran aloneCount subtests or more in s, and four
// times as many as failing: subtests that have none of their own, so
// that a case's levels ("TestX/case/sub") count once.
func manySubtests(s *spectrum.Spectra, pkg string, failing []string) bool {
	tops := map[string]bool{}
	for _, t := range failing {
		top, _, _ := strings.Cut(t, "/")
		tops[top] = true
	}
	leaves := map[string]bool{}
	for _, r := range s.Runs {
		if top, _, sub := strings.Cut(r.Name, "/"); sub && r.Package == pkg && tops[top] {
			if _, ok := leaves[r.Name]; !ok {
				leaves[r.Name] = true
			}
			for p := r.Name; strings.Contains(p, "/"); {
				p = p[:strings.LastIndexByte(p, '/')]
				leaves[p] = false // a parent
			}
		}
	}
	n := 0
	for _, leaf := range leaves {
		if leaf {
			n++
		}
	}
	return n >= aloneCount && n >= 4*len(failing)
}

// runMutants builds the plan's mutants and runs the tests against each;
// loaded are packages already loaded with their types (nil: Mutate
// loads the files' packages itself).
func runMutants(ctx context.Context, f mutationFlags, goFlags []string, p *mutantPlan, loaded []*packages.Package) ([]diagnosis.Mutant, []string) {
	res, err := instrument.Mutate(ctx, instrument.Mutation{Lines: p.lines, Order: p.order, Ranked: p.ranked, Failing: p.failing, Passing: p.passing, Alone: p.alone, Ran: p.ran,
		GoFlags: goFlags, Budget: f.budget, Max: f.max, Jobs: 2, Loaded: loaded})
	if err != nil && ctx.Err() != nil {
		return nil, []string{"mutants left out: stopped while building them"}
	}
	if err != nil {
		return nil, []string{fmt.Sprintf("mutants left out: %v", err)}
	}
	var out []diagnosis.Mutant
	for _, m := range res.Mutants {
		out = append(out, diagnosis.Mutant{At: diagnosis.Location{File: diagnosis.Relative(p.root, m.File), Line: m.Line},
			Operator: m.Operator, Failing: m.Failing, Passing: m.Passing, Changed: m.Changed, Fixed: m.Fixed, Broke: m.Broke,
			Reports: m.Reports, Lost: m.Lost, Added: m.Added, Crashed: m.Crashed})
	}
	return out, res.Notes
}
