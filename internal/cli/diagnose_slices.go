package cli

// This file holds the diagnosis's slicing run: the failing tests' runs
// instrumented with every event, their dependence graphs and slices.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/culprit-go/culprit/deps"
	"github.com/culprit-go/culprit/diagnosis"
	"github.com/culprit-go/culprit/internal/instrument"
	"github.com/culprit-go/culprit/source"
	"github.com/culprit-go/culprit/spectrum"
	"github.com/culprit-go/culprit/trace"
)

// sliced is what the slicing runs of failing tests give the diagnosis.
type sliced struct {
	slices []map[diagnosis.Location]bool // each test's backward slice from its failure point
	// raised are the statements where a runtime panic was raised and
	// then recovered in their runs (deps.Graph.Raised), once each.
	raised []diagnosis.Location
	// cases are what the tests' cases that passed ran, each test cut at
	// its checks (deps.Graph.Segments): test case purification.
	cases []diagnosis.Case
	notes []string
	// files are the source files the first graph's replay read, for the
	// report to read no file again.
	files *source.Set
}

// sliceTraceMax is the most trace, in bytes, whose dependence graph the
// diagnosis builds for its slices. The graph takes about a second for
// each 8 MB of trace, and slices are one signal among many (the
// standalone culprit slice builds any graph): toml's failing leaves
// replay the whole toml-test suite their runner decoded first, 140 MB
// whose graph took 10 of the diagnosis's 15 s, where the real-fault
// corpus's largest, hcl-v2.18.1's, is 28 MB. The bound is on the trace's size,
// not on time, so that the same code gets the same diagnosis however
// loaded the machine.
const sliceTraceMax = 32 << 20 // 33.6 MB

// watchTrace returns a context derived from ctx that is cancelled once
// the trace directory dir (empty when the run starts) holds more than
// max bytes, and a function
// that, called after the run, stops the watch and returns the size that
// cancelled it (0: it did not). A trace only grows, so a run stopped
// there would have ended over max too: the diagnosis, which leaves such
// a trace unsliced, decides the same, without waiting for the rest of
// an instrumented run (andybalholm/brotli's TestIssue22: some 190 s,
// where the trace passes 32 MiB within seconds).
func watchTrace(ctx context.Context, dir string, max int64) (context.Context, func() int64) {
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	var size atomic.Int64
	go func() {
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-runCtx.Done():
				return
			case <-tick.C:
				if n := dirSize(dir); n > max {
					size.Store(n)
					cancel()
					return
				}
			}
		}
	}()
	return runCtx, func() int64 {
		close(done)
		cancel()
		return size.Load()
	}
}

// groupSlices runs up to n of the group's failing tests again, recording
// every event (each test's sampling restarted, as culprit slice does),
// and returns what their runs show; with cases, their passing cases too.
//
// Only the functions the failing tests ran in the spectra's run (funcs)
// are instrumented, and of the test functions only theirs: a test runs
// no other code, so the slice is the same, and the instrumented build,
// most of this step's time, compiles far less.
func groupSlices(ctx context.Context, g diagnosis.Group, n int, cases bool, root, traceDir string, more []string, funcs map[string]bool, goFlags []string, loaded *instrument.Loaded) sliced {
	var chosen []diagnosis.Failure
	byPkg := map[string][]string{}
	tests := map[string]bool{}
	for _, f := range g.Failures {
		if len(chosen) == n {
			break
		}
		chosen = append(chosen, f)
		top, _, _ := strings.Cut(f.Test, "/")
		byPkg[f.Package] = append(byPkg[f.Package], regexp.QuoteMeta(top))
		tests[top] = true
	}
	var out sliced
	seen := map[diagnosis.Location]bool{}
	pkgs := make([]string, 0, len(byPkg))
	for p := range byPkg {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	for i, pkg := range pkgs {
		// A trace directory of its own, at a stable place (the go
		// command's build cache serves a second diagnosis of the same
		// code).
		dir := filepath.Join(traceDir, fmt.Sprint(i))
		flags := append([]string{"-run", "^(" + strings.Join(dedupe(byPkg[pkg]), "|") + ")$"}, withoutRun(buildFlags(goFlags))...)
		if !hasGoFlag(flags, "json") {
			// Each test's own output: the failure locations it printed
			// are the criterion when an assertion library failed it.
			flags = withGoFlag(flags, "-json")
		}
		// The package's failing tests, sliced from one replay of its
		// trace.
		var these []diagnosis.Failure
		var names []string
		for _, f := range chosen {
			if f.Package == pkg {
				these = append(these, f)
				names = append(names, f.Test)
			}
		}
		var output bytes.Buffer
		// An earlier diagnosis's trace there would count in the watch
		// until the run removes it.
		if err := os.RemoveAll(dir); err != nil {
			out.notes = append(out.notes, fmt.Sprintf("%s: slices left out: %v", pkg, err))
			continue
		}
		runCtx, over := watchTrace(ctx, dir, sliceTraceMax)
		res, err := instrument.Run(runCtx, instrument.Config{Packages: []string{pkg}, Instrument: more, Events: trace.AllEvents, GoFlags: flags,
			Stdout: &output, Stderr: io.Discard, TraceDir: dir, SamplePerTest: true, Inlinable: true, NoInline: true, Funcs: funcs, Tests: tests, Loaded: loaded})
		if size := over(); size > 0 && ctx.Err() == nil {
			out.notes = append(out.notes, fmt.Sprintf("%s: not sliced: the trace of %s passed %s while it ran, over the %s whose graph the diagnosis builds, and the run was stopped (culprit slice -test NAME slices any of them)",
				pkg, strings.Join(names, ", "), byteSize(size), byteSize(sliceTraceMax)))
			continue
		}
		if err != nil && ctx.Err() != nil {
			out.notes = append(out.notes, fmt.Sprintf("%s: slices left out: stopped while running the tests", pkg))
			continue
		}
		if err != nil {
			out.notes = append(out.notes, fmt.Sprintf("%s: slices left out: %v", pkg, err))
			continue
		}
		if len(res.Broken) > 0 {
			// Say why, rather than "no test in the trace" for each test.
			why := "its instrumented tests did not build"
			if len(res.BuildErrors) > 0 {
				why += ": " + res.BuildErrors[0]
			}
			out.notes = append(out.notes, fmt.Sprintf("%s: slices left out: %s", pkg, why))
			continue
		}
		if size := dirSize(dir); size > sliceTraceMax {
			out.notes = append(out.notes, fmt.Sprintf("%s: not sliced: the trace of %s is %s, over the %s whose graph the diagnosis builds (culprit slice -test NAME slices any of them)",
				pkg, strings.Join(names, ", "), byteSize(size), byteSize(sliceTraceMax)))
			continue
		}
		graphs, errs := buildGraphs(ctx, dir, names, cases)
		for i, f := range these {
			r, err := graphs[i], errs[i]
			if top, _, sub := strings.Cut(f.Test, "/"); sub && errors.Is(err, deps.ErrNoTest) {
				// The run again failed in another subtest (a table in a
				// map, parallel subtests): slice its test's failing leaf.
				r, err = buildGraph(ctx, dir, top, cases)
			}
			if err != nil && ctx.Err() != nil {
				out.notes = append(out.notes, fmt.Sprintf("%s: not sliced: stopped while building its dependence graph", f.Test))
				continue
			}
			if err != nil {
				if !errors.Is(err, deps.ErrNoFailure) {
					out.notes = append(out.notes, fmt.Sprintf("%s: not sliced: %v", f.Test, err))
				}
				continue
			}
			crit, _ := failurePoint(r, output.Bytes())
			if len(crit) == 0 {
				out.notes = append(out.notes, fmt.Sprintf("%s: not sliced: no failure point was recorded", f.Test))
				continue
			}
			lines := map[diagnosis.Location]bool{}
			for id := range r.Backward(crit...).Nodes {
				nd := r.Nodes[id]
				lines[diagnosis.Location{File: diagnosis.Relative(root, nd.File), Line: nd.Line}] = true
			}
			out.slices = append(out.slices, lines)
			if out.files == nil {
				out.files = r.Files()
			}
			for _, id := range r.Raised {
				nd := r.Nodes[id]
				loc := diagnosis.Location{File: diagnosis.Relative(root, nd.File), Line: nd.Line}
				if !seen[loc] {
					seen[loc] = true
					out.raised = append(out.raised, loc)
				}
			}
			out.cases = append(out.cases, passingCases(r.Segments, root)...)
		}
	}
	return out
}

// passingCases returns what the passing segments of a failing test's run
// ran, as the diagnosis's cases.
func passingCases(segs []deps.Segment, root string) []diagnosis.Case {
	var out []diagnosis.Case
	for _, sg := range segs {
		if sg.Failed {
			continue
		}
		c := diagnosis.Case{Lines: map[diagnosis.Location]bool{}, Branches: map[diagnosis.Location][]string{}}
		for _, l := range sg.Lines {
			c.Lines[diagnosis.Location{File: diagnosis.Relative(root, l.File), Line: l.Line}] = true
		}
		for _, b := range sg.Branches {
			loc := diagnosis.Location{File: diagnosis.Relative(root, b.File), Line: b.Line.Line}
			c.Branches[loc] = append(c.Branches[loc], b.Outcome)
		}
		out = append(out, c)
	}
	return out
}

// failurePoint returns the criterion of a failing test's slice: its
// failure point, or, when the trace shows no t.Error/t.Fatal call or
// panic of it (an assertion library failed it from its own,
// uninstrumented code), the statements at the failure locations the test
// printed (out is go test -json's output), as culprit slice takes them.
// The locations used are returned when they were.
func failurePoint(r *deps.Run, out []byte) ([]int, []deps.Printed) {
	if r.FailureKind != deps.FailureCheck && r.FailureKind != deps.FailurePanic && out != nil {
		if ids, used := r.FindPrinted(deps.PrintedFailures(testOutput(out, r.Package, r.Test))); len(ids) > 0 {
			return ids, used
		}
	}
	return r.Failure, nil
}

// failingFuncs returns the functions a failing run of s executed, as
// their sites name them.
func failingFuncs(s *spectrum.Spectra) map[string]bool {
	funcs := map[string]bool{}
	for i, ev := range s.Events {
		if !funcs[ev.Func] && s.Counts(i).EF > 0 {
			funcs[ev.Func] = true
		}
	}
	return funcs
}

// ranIn returns the packages of pkgs whose code a failing run of s
// executed: the only ones whose records a failing test's slice can
// hold, so the only ones its run records every event of (the others
// would only lengthen the build, the run and the trace).
func ranIn(s *spectrum.Spectra, pkgs []string) []string {
	funcs := failingFuncs(s)
	var out []string
	for _, p := range pkgs {
		for fn := range funcs {
			if diagnosis.InPackage(fn, p) {
				out = append(out, p)
				break
			}
		}
	}
	return out
}

// buildGraph builds a test's dependence graph from the trace in dir, or
// gives up when ctx is done (the builder, which takes no context, is
// left to finish on its own).
func buildGraph(ctx context.Context, dir, test string, segments bool) (*deps.Run, error) {
	runs, errs := buildGraphs(ctx, dir, []string{test}, segments)
	return runs[0], errs[0]
}

// buildGraphs builds the dependence graphs of tests from the trace in
// dir with one replay of each process's events (deps.BuildAllStream),
// or gives up when ctx is done, each graph's error then ctx's.
func buildGraphs(ctx context.Context, dir string, tests []string, segments bool) ([]*deps.Run, []error) {
	type built struct {
		runs []*deps.Run
		errs []error
	}
	opts := make([]deps.Options, len(tests))
	for i, t := range tests {
		opts[i] = deps.Options{Test: t, Segments: segments}
	}
	done := make(chan built, 1)
	go func() {
		runs, errs := deps.BuildAllStream(dir, opts...)
		done <- built{runs, errs}
	}()
	select {
	case b := <-done:
		return b.runs, b.errs
	case <-ctx.Done():
		errs := make([]error, len(tests))
		for i := range errs {
			errs[i] = ctx.Err()
		}
		return make([]*deps.Run, len(tests)), errs
	}
}
