package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/culprit-go/culprit/diagnosis"
	"github.com/culprit-go/culprit/internal/instrument"
	sfl "github.com/culprit-go/culprit/report"
	"github.com/culprit-go/culprit/spectrum"
	"golang.org/x/tools/go/packages"
)

// diagFlags are rank's flags the fused diagnosis uses.
type diagFlags struct {
	format    string
	out       string
	top       int
	test      string // diagnose the group of failing tests holding this one
	testOut   bool
	testFiles bool
	slices    int  // failing tests of the group to slice (0: none)
	cases     bool // purify the sliced tests: their passing cases count as passing runs
	mutation  mutationFlags
	timeout   time.Duration // the whole command's limit (0: autoLimit after the test run; negative: none)
}

// maxSliced is how many failing tests of a group are sliced by default.
const maxSliced = 3

// runDiagnosis is culprit rank's default: it runs the tests once with
// statement and branch spectra, groups the failing tests by how they
// fail (every group diagnosed together, or the one -test names), runs
// some of the failing tests again recording every event to slice them
// from their failure points, mutates the most suspicious functions'
// lines, and fuses it all (package diagnosis).
func runDiagnosis(e *env, f diagFlags, pkgs, goFlags []string) int {
	kinds := spectrum.KindsOf(spectrum.Stmt, spectrum.Branch)
	var goOut bytes.Buffer
	var w io.Writer = &goOut
	if f.testOut {
		w = io.MultiWriter(&goOut, &jsonText{w: e.stderr})
	}
	// Without vet (unless the user's flags set it): it checks the
	// instrumented source, not the user's, for nothing the diagnosis
	// uses, beside the compile.
	flags := buildFlags(append([]string(nil), goFlags...))
	if !hasGoFlag(flags, "json") {
		flags = append(flags, "-json")
	}
	if !hasGoFlag(flags, "ldflags") {
		// No debugger reads the instrumented test binary: linked
		// without DWARF, its link takes some 40% less time.
		flags = withGoFlag(flags, "-ldflags=-w")
	}
	if !hasGoFlag(flags, "parallel") {
		// One test at a time (unless the user's flags say otherwise):
		// the counters are the process's, so a test running beside
		// another would hold what the other executed meanwhile, and
		// which lines it got would depend on the scheduling, run by run.
		flags = withGoFlag(flags, "-parallel=1")
	}
	progress := newStages(e, "rank")
	progress.say("running the tests instrumented")
	t0 := time.Now()
	// -timeout bounds the whole command; without it the evidence after
	// the test run gets autoLimit of the run.
	ctx, cancel := f.limit(e)
	defer cancel()
	// The module's packages the tests import are recorded too: the
	// fault need not be in the tested package.
	var res *instrument.Result
	more, err := instrument.ModuleImports(ctx, instrument.Config{Packages: pkgs, GoFlags: goFlags})
	if err == nil {
		res, err = instrument.Run(ctx, instrument.Config{Packages: pkgs, Instrument: more, Events: spectrum.Needs(kinds), GoFlags: flags, Stdout: w, Stderr: w, Resume: true})
	}
	if err != nil && ctx.Err() != nil {
		progress.done()
		why := "an interrupt"
		if e.ctx.Err() == nil {
			why = fmt.Sprintf("the time limit (-timeout %s)", roundTime(f.timeout))
		}
		errorf(e, "rank: stopped by %s while running the tests: nothing to rank", why)
		return exitFail
	}
	if err != nil {
		return instrumentFailed(e, "rank", err)
	}
	ran := time.Since(t0)
	if runTrouble(e, "rank", res) {
		return exitFail
	}
	s, err := spectrum.Load(res.TraceDir, spectrum.Options{Kinds: kinds, TestFiles: f.testFiles})
	if err != nil {
		errorf(e, "rank: %v", err)
		return exitFail
	}
	switch {
	case len(s.Runs) == 0:
		errorf(e, "rank: no test ran: nothing to rank")
		if !f.testOut {
			(&jsonText{w: e.stderr}).Write(goOut.Bytes())
		}
		return exitFail
	case s.Failed() == 0:
		errorf(e, "rank: no failing test: nothing to rank (%d tests passed)", s.Passed())
		return exitUsage
	case len(s.Events) == 0 && len(res.Unrecorded) > 0:
		errorf(e, "rank: nothing to rank: the tests ran no code culprit records (the notes above say which files it cannot instrument)")
		return exitFail
	}
	ev := evidence{s: s, outputs: diagnosis.TestOutputs(goOut.Bytes()), times: diagnosis.TestTimes(goOut.Bytes()), more: more, goFlags: goFlags, ran: ran,
		traceDir: res.TraceDir, start: t0, qualify: len(pkgs) > 1, loaded: res.Loaded}
	return diagnose(e, f, ctx, ev, progress)
}

// limit is the context the whole command runs in: -timeout's, or the
// command's own without it (the evidence after the test run then gets
// its own limit, autoLimit of the run).
func (f diagFlags) limit(e *env) (context.Context, context.CancelFunc) {
	if f.timeout > 0 {
		return context.WithTimeout(e.ctx, f.timeout)
	}
	return e.ctx, func() {}
}

// mergedRun is how long a sharded suite's run is taken to have been
// when its shards' spectra are diagnosed (the files do not say): the
// time limits of the slices and mutants are multiples of it.
const mergedRun = 30 * time.Second

// runMergedDiagnosis diagnoses the spectra files of a suite's shards
// (rank -shard, run on other machines), merged: the expensive run of
// every test is the shards'; the slices and mutants run here, on the
// failing tests and a sample of the passing ones.
func runMergedDiagnosis(e *env, f diagFlags, files []string) int {
	s, err := mergeFiles(files, 0, false)
	if err != nil {
		errorf(e, "rank: -merge: %v", err)
		return exitUsage
	}
	switch {
	case !s.Kinds.Has(spectrum.Stmt):
		errorf(e, "rank: -merge: the files hold %s events: the diagnosis needs statements (rank -shard i/n -events stmt,branch)", s.Kinds)
		return exitUsage
	case len(s.Runs) == 0:
		errorf(e, "rank: -merge: no test ran in the shards: nothing to rank")
		return exitFail
	case s.Failed() == 0:
		errorf(e, "rank: no failing test: nothing to rank (%d tests passed)", s.Passed())
		return exitUsage
	}
	ctx, cancel := f.limit(e)
	defer cancel()
	seen := map[string]bool{}
	var pkgs []string
	for _, r := range s.Runs {
		if r.Outcome == spectrum.Fail && !seen[r.Package] {
			seen[r.Package] = true
			pkgs = append(pkgs, r.Package)
		}
	}
	sort.Strings(pkgs)
	more, err := instrument.ModuleImports(ctx, instrument.Config{Dir: s.Root, Packages: pkgs})
	if err != nil {
		return instrumentFailed(e, "rank", err)
	}
	s.Notes = append(s.Notes, fmt.Sprintf("diagnosed from %s merged: they keep no test output, so the failing tests are diagnosed as one group and without panic stacks; slices and mutants ran here",
		plural(len(files), "spectra file")))
	ev := evidence{s: s, more: more, ran: mergedRun, traceDir: filepath.Join(s.Root, ".culprit"), start: time.Now(), qualify: true}
	return diagnose(e, f, ctx, ev, newStages(e, "rank"))
}

// evidence is what the diagnosis starts from: the spectra of a run of
// the tests (or of its shards, merged) and what is known of the run.
type evidence struct {
	s        *spectrum.Spectra
	outputs  map[string]string  // go test's output of each test ("pkg\x00Test"); nil when unknown
	times    map[string]float64 // each test's time in the run, seconds ("pkg\x00Test"); nil when unknown
	more     []string           // the module's other packages the tests import
	goFlags  []string
	ran      time.Duration // how long the run took (the time limits are multiples of it)
	traceDir string        // where the slices' traces go
	start    time.Time
	qualify  bool // several packages: tests are named with their package
	// loaded are the packages the spectra's run loaded (nil for merged
	// shards): the slices' run instruments them again, and the
	// declarations and mutants read them, without another load.
	loaded *instrument.Loaded
}

// diagnose groups the failing runs of ev's spectra, slices and mutates
// within ctx and the time limit, and writes the diagnosis.
func diagnose(e *env, f diagFlags, ctx context.Context, ev evidence, progress *stages) int {
	s, more, goFlags, ran, t0 := ev.s, ev.more, ev.goFlags, ev.ran, ev.start
	if s.Passed() == 0 {
		fmt.Fprintf(e.stderr, "culprit: rank: warning: all %d tests failed: the ranking cannot tell their events apart\n", s.Failed())
	}

	// Group the failing runs by how they failed.
	outputs := ev.outputs
	var failures []diagnosis.Failure
	for _, r := range s.Runs {
		if r.Outcome == spectrum.Fail {
			failures = append(failures, diagnosis.ParseFailure(r.Package, r.Name, outputs[r.Package+"\x00"+r.Name]))
		}
	}
	groups := diagnosis.GroupFailures(failures)
	pick := 0
	if f.test != "" {
		pick = -1
		for i, g := range groups {
			for _, fl := range g.Failures {
				if fl.Test == f.test || strings.HasPrefix(fl.Test, f.test+"/") {
					pick = i
				}
			}
		}
		if pick < 0 {
			errorf(e, "rank: -test %s: no such failing test", f.test)
			return exitUsage
		}
	}
	// Without -test every failing test is diagnosed, the groups named
	// (on the real-fault corpus, diagnosing the largest group alone lost
	// the fault whenever a bug's failures fell into several groups: the
	// same fault failing two ways, or a latent failure as large as the
	// bug's); -test diagnoses one group alone.
	together := f.test == "" && len(groups) > 1
	group := groups[pick]
	if together {
		group = interleave(groups)
	}
	inGroup := map[string]bool{}
	for _, fl := range group.Failures {
		inGroup[fl.Package+"\x00"+fl.Test] = true
	}
	s = s.FilterRuns(func(r spectrum.Run) bool {
		return r.Outcome == spectrum.Pass || inGroup[r.Package+"\x00"+r.Name]
	})
	info := sfl.DiagnosisInfo{Root: s.Root, Group: reportGroup(groups[pick], ev.qualify), Sources: []string{"spectra (" + kindsText(s.Kinds) + ")"},
		Notes: append([]string(nil), s.Notes...), Together: together}
	for i, g := range groups {
		if i != pick {
			info.Others = append(info.Others, reportGroup(g, ev.qualify))
		}
	}
	in := diagnosis.Input{Spectra: s, Home: map[string]bool{}}
	for _, fl := range group.Failures {
		in.Home[fl.Package] = true
	}

	// Stacks of the group's panics.
	for _, fl := range group.Failures {
		if len(fl.Stack) == 0 {
			continue
		}
		var st []diagnosis.Location
		for _, fr := range fl.Stack {
			st = append(st, diagnosis.Location{File: diagnosis.Relative(s.Root, fr.File), Line: fr.Line})
		}
		in.Stacks = append(in.Stacks, st)
	}
	if len(in.Stacks) > 0 {
		info.Sources = append(info.Sources, fmt.Sprintf("panic stacks (%d)", len(in.Stacks)))
	}

	// Slices of some of the group's failing tests and mutants of the
	// most suspicious functions' lines, gathered at once within the
	// time limit. The mutated functions are chosen by the evidence so
	// far (slices weigh little: they do not wait for them).
	ctx, cancel := ctx, func() {}
	if f.timeout == 0 {
		ctx, cancel = context.WithTimeout(e.ctx, autoLimit(ran))
	}
	defer cancel()
	var slNotes, mutNotes, declNotes []string
	var sl sliced
	var wg sync.WaitGroup
	var plan *mutantPlan
	var first *diagnosis.Diagnosis
	if f.mutation.on {
		first = diagnosis.Diagnose(in)
		if f.mutation.budget == 0 {
			f.mutation.budget = mutationBudget(ran)
		}
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) < f.mutation.budget {
			// The command's time limit, less a tenth for the ranking
			// after the step.
			f.mutation.budget = time.Until(dl) * 9 / 10
		}
		plan = planMutants(f.mutation, first, group, s, ev.times)
	}
	// The package-level declarations of the failing tests' packages,
	// with the lines that read them, and then the mutants: one typed
	// load serves both (each go list of a package and its dependencies
	// costs a second or more).
	var typed []*packages.Package
	wg.Add(1)
	go func() {
		defer wg.Done()
		typed = ev.loaded.Packages()
		var err error
		if !holds(typed, in.Home) {
			typed, err = instrument.LoadTyped(ctx, s.Root, append(sortedKeys(in.Home), plan.dirs()...), goFlags)
		}
		in.Decls, declNotes = homeDecls(typed, err, in.Home, s.Root)
		if plan != nil {
			in.Mutants, mutNotes = runMutants(ctx, f.mutation, goFlags, plan, typed)
		}
	}()
	if f.slices > 0 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sl = groupSlices(ctx, group, f.slices, f.cases, s.Root, filepath.Join(ev.traceDir, "slices"), ranIn(s, more), failingFuncs(s), goFlags, ev.loaded)
		}()
	}
	if f.slices > 0 || f.mutation.on {
		progress.say("slicing the failing tests and mutating the most suspicious functions")
	}
	wg.Wait()
	if plan != nil && len(sl.raised) > 0 && ctx.Err() == nil {
		if p := planRaised(f.mutation, first, group, s, ev.times, sl.raised, plan.funcs); p != nil {
			progress.say("mutating the functions where a recovered panic was raised")
			more, notes := runMutants(ctx, f.mutation, goFlags, p, typed)
			in.Mutants, mutNotes = append(in.Mutants, more...), append(mutNotes, notes...)
		}
	}
	progress.done()
	in.Slices, in.Cases, slNotes = sl.slices, sl.cases, sl.notes
	info.Files = sl.files
	if len(sl.raised) > 0 {
		// A runtime panic a deferred function recovered is a panic the
		// failing test's output does not show: its statement ranks as
		// the top of a panic stack.
		for _, loc := range sl.raised {
			in.Stacks = append(in.Stacks, []diagnosis.Location{loc})
		}
		info.Sources = append(info.Sources, "recovered panics ("+plural(len(sl.raised), "statement")+")")
	}
	info.Notes = append(append(append(info.Notes, slNotes...), mutNotes...), declNotes...)
	if len(in.Slices) > 0 {
		info.Sources = append(info.Sources, "slices ("+plural(len(in.Slices), "test")+")")
	}
	if len(in.Cases) > 0 {
		info.Sources = append(info.Sources, "passing cases of failing tests ("+plural(len(in.Cases), "case")+")")
	}
	if len(in.Mutants) > 0 {
		info.Sources = append(info.Sources, fmt.Sprintf("mutants (%d)", len(in.Mutants)))
	}
	if len(in.Decls) > 0 {
		info.Sources = append(info.Sources, fmt.Sprintf("package-level declarations read (%d)", len(in.Decls)))
	}
	stopped := ""
	switch {
	case e.ctx.Err() != nil:
		stopped = "an interrupt"
	case ctx.Err() != nil && f.timeout > 0:
		stopped = fmt.Sprintf("the time limit (-timeout %s)", roundTime(f.timeout))
	case ctx.Err() != nil:
		stopped = fmt.Sprintf("the default time limit, %s (ten times the test run plus a minute; -timeout D sets another)", roundTime(autoLimit(ran)))
	}
	if stopped != "" {
		info.Notes = append(info.Notes, fmt.Sprintf("stopped by %s after %s: the ranking uses the evidence gathered by then (%s); what was left out is noted above",
			stopped, roundTime(time.Since(t0)), strings.Join(info.Sources, ", ")))
	}

	d := diagnosis.Diagnose(in)
	if len(d.Lines) == 0 {
		errorf(e, "rank: nothing to rank: the failing tests ran no code culprit records outside test files (-testfiles ranks test files too)")
		return exitFail
	}
	code := writeDiagnosis(e, d, info, f)
	if code == exitOK && e.ctx.Err() != nil {
		errorf(e, "rank: interrupted; the ranking was written with the evidence gathered by then")
		return exitFail
	}
	return code
}

// sortedKeys returns m's keys in order.
func sortedKeys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// holds reports whether pkgs hold every package of home, loaded without
// its tests (the spectra's run loads each tested package's variants).
func holds(pkgs []*packages.Package, home map[string]bool) bool {
	found := map[string]bool{}
	for _, p := range pkgs {
		if home[p.PkgPath] && p.ID == p.PkgPath {
			found[p.PkgPath] = true
		}
	}
	return len(found) == len(home)
}

// homeDecls returns the package-level declarations of the loaded home
// packages with the lines that read them.
func homeDecls(typed []*packages.Package, err error, home map[string]bool, root string) ([]diagnosis.Decl, []string) {
	if err != nil {
		return nil, []string{fmt.Sprintf("package-level declarations left out: %v", err)}
	}
	var out []diagnosis.Decl
	done := map[string]bool{}
	for _, p := range typed {
		if home[p.PkgPath] && p.ID == p.PkgPath && !done[p.PkgPath] && p.Types != nil && p.TypesInfo != nil && len(p.Errors) == 0 {
			done[p.PkgPath] = true
			out = append(out, diagnosis.PackageDecls(p.Fset, p.Syntax, p.TypesInfo, p.Types, root)...)
		}
	}
	return out, nil
}

// kindsText names event kinds as the diagnosis's sources do:
// "statements, branches".
func kindsText(k spectrum.Kinds) string {
	var out []string
	for _, n := range []struct {
		kind spectrum.Kind
		name string
	}{{spectrum.Stmt, "statements"}, {spectrum.Branch, "branches"}, {spectrum.Func, "functions"}, {spectrum.Value, "values"}, {spectrum.Predicate, "predicates"}} {
		if k.Has(n.kind) {
			out = append(out, n.name)
		}
	}
	return strings.Join(out, ", ")
}

// interleave is the groups' failing tests as one group, taking one test
// of each group in turn (largest group first), so that the first few,
// which are sliced, come from every group.
func interleave(groups []diagnosis.Group) diagnosis.Group {
	var out diagnosis.Group
	for i := 0; ; i++ {
		more := false
		for _, g := range groups {
			if i < len(g.Failures) {
				out.Failures = append(out.Failures, g.Failures[i])
				more = true
			}
		}
		if !more {
			break
		}
	}
	out.Signature = groups[0].Signature
	return out
}

// reportGroup is a group as the report shows it.
func reportGroup(g diagnosis.Group, qualify bool) sfl.Group {
	out := sfl.Group{Signature: g.Signature}
	for _, f := range g.Failures {
		name := f.Test
		if qualify {
			name = f.Package + "." + name
		}
		out.Tests = append(out.Tests, name)
	}
	return out
}

func dedupe(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// withoutRun drops -run from go test flags (the diagnosis names the
// tests to run again itself).
func withoutRun(flags []string) []string {
	var out []string
	for i := 0; i < len(flags); i++ {
		f := flags[i]
		name := strings.TrimLeft(f, "-")
		switch {
		case name == "run" || name == "test.run":
			i++ // its value
		case strings.HasPrefix(name, "run=") || strings.HasPrefix(name, "test.run="):
		default:
			out = append(out, f)
		}
	}
	return out
}

// writeDiagnosis renders the diagnosis to -o or standard output.
func writeDiagnosis(e *env, d *diagnosis.Diagnosis, info sfl.DiagnosisInfo, f diagFlags) int {
	var buf bytes.Buffer
	var err error
	if f.format == "json" {
		err = sfl.DiagnosisJSON(&buf, d, info, f.top)
	} else {
		err = sfl.DiagnosisText(&buf, d, info, f.top)
	}
	if err != nil {
		errorf(e, "rank: %v", err)
		return exitFail
	}
	// Notes go to standard error, the ranking to standard output (the
	// JSON keeps them too).
	for _, n := range info.Notes {
		fmt.Fprintf(e.stderr, "culprit: rank: note: %s\n", n)
	}
	if f.out == "" {
		e.stdout.Write(buf.Bytes())
		return exitOK
	}
	if err := writeAtomic(f.out, buf.Bytes()); err != nil {
		errorf(e, "rank: %v", err)
		return exitFail
	}
	abs, _ := filepath.Abs(f.out)
	fmt.Fprintf(e.stderr, "culprit: rank: %s written\n", abs)
	return exitOK
}

// writeAtomic writes data to path through a temporary file renamed over
// it.
func writeAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// stages shows on a terminal which stage a long command is in, on one
// line it rewrites; piped, it says nothing.
type stages struct {
	w   io.Writer
	on  bool
	cmd string
}

func newStages(e *env, cmd string) *stages {
	return &stages{w: e.stderr, on: isTerminal(e.stderr), cmd: cmd}
}

func (s *stages) say(msg string) {
	if s.on {
		fmt.Fprintf(s.w, "\r\033[Kculprit: %s: %s...", s.cmd, msg)
	}
}

func (s *stages) done() {
	if s.on {
		fmt.Fprint(s.w, "\r\033[K")
	}
}
