package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/culprit-go/culprit/bench/internal/proof"
	"github.com/culprit-go/culprit/deps"
	"github.com/culprit-go/culprit/internal/instrument"
	"github.com/culprit-go/culprit/trace"
)

// bench runs the proof.
type bench struct {
	work    string
	culprit string // the culprit binary
	tries   int
	seed    int64
	timeout time.Duration
	pkgRuns bool // also time the failing test's whole package
	calls   int  // culprit slice -calls: events of a site recorded in full per test
	// full also slices with -calls -1 (every event) and compares the
	// lines; a full trace larger than maxTrace bytes is stopped.
	full     bool
	maxTrace int64
	log      io.Writer
}

// result is one module's row.
type result struct {
	Module, Version string
	Mutant          string // the injected fault
	Tried           int    // mutants tried before one failed a test with a check
	Test            string // the failing test sliced
	Package         string // its package, relative to the module root
	Check           string // the failing check's file:line
	Exit            int    // culprit slice's exit status
	Crashed         bool   // culprit panicked or died of a signal
	InSlice         bool   // the check's line is in the slice (or the criterion's, another check the test printed)
	FaultInSlice    string // the faulty line is in the slice: "yes", "NO", or "deleted" (a deleted statement has no line left to be in it)
	Criterion       string // what culprit slice sliced from, when not the check expected: "x_test.go:12"
	SliceLines      int
	SliceNodes      int
	SliceEdges      int
	PlainRun        float64 // seconds the test binary ran plain
	SliceRun        float64 // seconds it ran under culprit slice
	PlainWall       float64 // seconds go test took plain (build from the cache)
	PlainBuilt      float64 // the same after a change to the mutated file: the package's tests built, as after an edit
	SliceWall       float64 // seconds culprit slice took (instrumented build, run, graph, slice)
	SliceRSS        int64   // peak resident set of culprit slice or its largest child, KiB
	SliceBuild      float64 // seconds of it the go command spent compiling a package (the longest, the instrumented package under test as a rule)
	GraphNodes      int     // the summary graph of the test's run
	GraphEdges      int
	GraphBytes      uint64  // live heap the graph holds
	GraphAlloc      uint64  // bytes allocated reading the trace and building it
	GraphSecs       float64 // seconds deps.Build took (trace read included)
	TraceBytes      int64
	PkgPlain        float64 // seconds the package's test binary ran plain
	PkgTraced       float64 // and instrumented as culprit slice does
	// The same slice with every event recorded (-calls -1), when -full.
	FullLines int     // lines in the full slice
	Common    int     // lines in both slices
	FullIn    bool    // the check's line is in the full slice
	FullRun   float64 // seconds the test binary ran with every event recorded
	FullTrace int64   // bytes of the full trace
	FullErr   string  // why there is no full slice
	Err       string
	Stderr    string // culprit's standard error when it failed
}

// module runs the proof on one module: inject a fault that fails a test
// with a check, slice that test and measure.
func (b *bench) module(ctx context.Context, m proof.Module) *result {
	res := &result{Module: m.Path}
	if err := b.run(ctx, m, res); err != nil {
		res.Err = err.Error()
	}
	return res
}

func (b *bench) run(ctx context.Context, m proof.Module, res *result) error {
	dir, version, err := proof.Download(ctx, b.work, m.Path)
	if err != nil {
		return err
	}
	res.Version = version
	pkgs := m.Patterns()
	base, _, err := b.goTest(ctx, dir, pkgs, nil)
	if err != nil {
		return fmt.Errorf("unmutated: %w", err)
	}
	var skip []string
	for _, f := range base.Failed {
		skip = append(skip, regexp.QuoteMeta(topLevel(f.Test)))
	}
	var flags []string
	if len(skip) > 0 {
		flags = []string{"-skip", "^(" + strings.Join(skip, "|") + ")$"}
		fmt.Fprintf(b.log, "%s: failing before mutation, skipped: %s\n", m.Path, strings.Join(skip, " "))
	}
	cands, err := proof.Candidates(dir)
	if err != nil {
		return err
	}
	var fail failure
	var mut proof.Mutant
	found := false
	for _, c := range proof.Order(cands, b.seed) {
		if res.Tried >= b.tries {
			break
		}
		if !inPackages(c.File, m.Packages) {
			continue
		}
		res.Tried++
		f, ok, err := b.try(ctx, dir, pkgs, flags, c)
		if err != nil {
			return err
		}
		if ok {
			fail, mut, found = f, c, true
			break
		}
	}
	if !found {
		return fmt.Errorf("no mutant of %d tried fails a test with a check", res.Tried)
	}
	res.Mutant = mut.String()
	path := filepath.Join(dir, filepath.FromSlash(mut.File))
	src, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, mut.Apply(src), 0o644); err != nil {
		return err
	}
	defer os.WriteFile(path, src, 0o644)

	res.Test = fail.Test
	res.Package = "." + strings.TrimPrefix(fail.Package, m.Path)
	res.Check = pkgFile(res.Package, fail.File) + ":" + fmt.Sprint(fail.Line)
	fmt.Fprintf(b.log, "%s: %s fails %s at %s\n", m.Path, mut, fail.Test, res.Check)
	run := "^" + regexp.QuoteMeta(topLevel(fail.Test)) + "$"

	// The plain run of the same test after a change to the mutated file
	// (a comment added at its end: no line moves), building the
	// package's tests as after an edit, then from the build cache.
	touched := append(mut.Apply(src), fmt.Sprintf("\n// changed by bench/slice at %s so that its build is not cached\n", time.Now().UTC().Format(time.RFC3339Nano))...)
	if err := os.WriteFile(path, touched, 0o644); err != nil {
		return err
	}
	if _, built, err := b.goTest(ctx, dir, []string{res.Package}, []string{"-run", run}); err == nil {
		res.PlainBuilt = built.Seconds()
	}
	plain, wall, err := b.goTest(ctx, dir, []string{res.Package}, []string{"-run", run})
	if err != nil {
		return fmt.Errorf("plain run: %w", err)
	}
	res.PlainRun, res.PlainWall = plain.Elapsed, wall.Seconds()
	if err := b.slice(ctx, dir, run, fail, mut, res); err != nil {
		return err
	}
	if b.pkgRuns {
		return b.packageRuns(ctx, dir, flags, res)
	}
	return nil
}

// packageRuns measures the overhead of dependency tracking on the whole
// package of the failing test, whose run times are less noise than one
// test's: its tests plain, then instrumented as culprit slice -test does
// (sampling restarted for the failing test only).
func (b *bench) packageRuns(ctx context.Context, dir string, flags []string, res *result) error {
	plain, _, err := b.goTest(ctx, dir, []string{res.Package}, flags)
	if err != nil {
		return fmt.Errorf("package, plain: %w", err)
	}
	tctx, cancel := context.WithTimeout(ctx, 3*b.timeout)
	defer cancel()
	traceDir := filepath.Join(b.work, "trace")
	defer os.RemoveAll(traceDir)
	var out bytes.Buffer
	_, err = instrument.Run(tctx, instrument.Config{
		Dir: dir, Packages: []string{res.Package}, Events: trace.AllEvents, TraceDir: traceDir,
		GoFlags: append([]string{"-json", "-count=1", "-vet=off", "-timeout", (3 * b.timeout).String()}, flags...),
		Stdout:  &out, Stderr: &out, CallLimit: b.calls, SamplePerTest: true, SampleTest: res.Test, Inlinable: true,
	})
	if tctx.Err() != nil {
		return fmt.Errorf("package, instrumented: timed out after %s", 3*b.timeout)
	}
	if err != nil {
		return fmt.Errorf("package, instrumented: %w", err)
	}
	res.PkgPlain, res.PkgTraced = plain.Elapsed, parseTestJSON(out.Bytes()).Elapsed
	return nil
}

// try tests one mutant: the failure to slice when a test fails with a
// reported check.
func (b *bench) try(ctx context.Context, dir string, pkgs, flags []string, m proof.Mutant) (failure, bool, error) {
	path := filepath.Join(dir, filepath.FromSlash(m.File))
	src, err := os.ReadFile(path)
	if err != nil {
		return failure{}, false, err
	}
	if err := os.WriteFile(path, m.Apply(src), 0o644); err != nil {
		return failure{}, false, err
	}
	defer os.WriteFile(path, src, 0o644)
	r, _, err := b.goTest(ctx, dir, pkgs, append([]string{"-failfast"}, flags...))
	if err != nil || r.Broken {
		return failure{}, false, nil // slow or broken: the next one
	}
	f, ok := r.pick()
	if !ok {
		return failure{}, false, nil
	}
	// A test that fails by timing may pass the next run (golang-lru's
	// TestLoadingExpired did under culprit slice): the failure must come
	// again, the test run alone, at the same check.
	again, _, err := b.goTest(ctx, dir, pkgs, append([]string{"-run", "^" + regexp.QuoteMeta(topLevel(f.Test)) + "$"}, flags...))
	if err != nil || !again.failedAt(f) {
		fmt.Fprintf(b.log, "%s: %s fails %s at %s:%d, not again: skipped\n", filepath.Base(dir), m, f.Test, f.File, f.Line)
		return failure{}, false, nil
	}
	return f, true, nil
}

// slice runs culprit slice on the failing test, checks its output and
// measures the summary graph of the trace it leaves; with b.full, it
// slices again from every event and compares.
func (b *bench) slice(ctx context.Context, dir, run string, fail failure, mut proof.Mutant, res *result) error {
	out, err := b.culpritSlice(ctx, dir, run, fail, res.Package, b.calls, 0)
	res.SliceWall, res.SliceRSS, res.Exit, res.Crashed, res.SliceRun, res.SliceBuild = out.wall, out.rss, out.exit, out.crashed, out.run, out.build
	if res.Exit != 0 || res.Crashed {
		res.Stderr = out.stderr
	}
	if err != nil {
		return err
	}
	res.SliceNodes, res.SliceEdges, res.SliceLines, res.InSlice = out.nodes, out.edges, len(out.lines), out.inSlice
	res.FaultInSlice = faultIn(mut, out.lines)
	if c := out.criterion; c != "" && c != fail.File+":"+fmt.Sprint(fail.Line) {
		// The run failed at another check too (or first): the test's
		// randomness, or an assertion library that goes on after a
		// failure. A check the test also printed counts as its failure.
		res.Criterion = c
		if fail.Printed[path.Base(c)] && (out.lines[c] || out.lines[pkgFile(res.Package, c)]) {
			res.InSlice = true
		}
	}
	if err := b.graph(filepath.Join(dir, ".culprit"), fail.Test, res); err != nil {
		return err
	}
	if !b.full {
		return nil
	}
	full, err := b.culpritSlice(ctx, dir, run, fail, res.Package, -1, b.maxTrace)
	res.FullRun, res.FullTrace = full.run, full.trace
	switch {
	case err != nil:
		res.FullErr = err.Error()
	case full.exit != 0 || full.crashed:
		res.FullErr = fmt.Sprintf("exit %d: %s", full.exit, full.stderr)
	default:
		res.FullLines, res.FullIn = len(full.lines), full.inSlice
		for l := range full.lines {
			if out.lines[l] {
				res.Common++
			}
		}
	}
	return nil
}

// faultIn says whether the mutant's line is among a slice's lines
// (file:line, relative to the module root).
func faultIn(m proof.Mutant, lines map[string]bool) string {
	switch {
	case m.Op == "delete":
		return "deleted"
	case lines[fmt.Sprintf("%s:%d", m.File, m.Line)]:
		return "yes"
	}
	return "NO"
}

// criterionLine is culprit slice's note of its default criterion.
var criterionLine = regexp.MustCompile(`culprit: slice: criterion: the test's failing check at ([^\s:]+\.go:\d+)`)

// sliceRun is what one culprit slice run did.
type sliceRun struct {
	wall, run    float64 // seconds: the command, the test binary
	build        float64 // seconds: the longest package compile (go test -debug-trace)
	rss          int64   // KiB
	exit         int
	crashed      bool
	stderr       string // its last lines
	nodes, edges int
	lines        map[string]bool // file:line
	inSlice      bool            // the check's line is in the slice
	criterion    string          // the failing check culprit sliced from, "x_test.go:12", if it said
	trace        int64           // bytes of the trace it left
}

// culpritSlice runs culprit slice -calls calls on the failing test and
// reads its JSON output. A trace growing past maxTrace bytes (0: no
// limit) stops the run.
func (b *bench) culpritSlice(ctx context.Context, dir, run string, fail failure, pkg string, calls int, maxTrace int64) (sliceRun, error) {
	var r sliceRun
	tctx, cancel := context.WithTimeout(ctx, 3*b.timeout)
	defer cancel()
	traceDir := filepath.Join(dir, ".culprit")
	os.RemoveAll(traceDir)
	var tooBig atomic.Bool
	if maxTrace > 0 {
		// Unsampled traces of hot loops grow by hundreds of MB a second.
		go func() {
			tick := time.NewTicker(time.Second)
			defer tick.Stop()
			for {
				select {
				case <-tctx.Done():
					return
				case <-tick.C:
					if proof.DirSize(traceDir) > maxTrace {
						tooBig.Store(true)
						cancel()
						return
					}
				}
			}
		}()
	}
	// -testout -- -json: go test's -json output on standard error, for
	// the test binary's run time; -vet=off as in the plain runs.
	// -debug-trace: the go command's own spans, for the compile's share.
	goTrace := filepath.Join(b.work, "gotrace.json")
	os.Remove(goTrace)
	cmd := exec.CommandContext(tctx, b.culprit, "slice", "-calls", fmt.Sprint(calls), "-run", run, "-test", fail.Test, "-format", "json", "-testout", pkg, "--", "-json", "-vet=off", "-debug-trace="+goTrace)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	r.wall = time.Since(start).Seconds()
	r.build = longestCompile(goTrace)
	r.trace = proof.DirSize(traceDir)
	if tooBig.Load() {
		os.RemoveAll(traceDir)
		return r, fmt.Errorf("trace over %d MiB after %.0f s, stopped", maxTrace>>20, r.wall)
	}
	if cmd.ProcessState == nil {
		return r, fmt.Errorf("culprit slice: %w", err)
	}
	r.exit = cmd.ProcessState.ExitCode()
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.rss = int64(ru.Maxrss) // KiB
	}
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() && tctx.Err() == nil {
		r.crashed = true
	}
	if bytes.Contains(stderr.Bytes(), []byte("panic: ")) && bytes.Contains(stderr.Bytes(), []byte("github.com/culprit-go/culprit/")) {
		r.crashed = true
	}
	r.run = parseTestJSON(stderr.Bytes()).Elapsed
	if m := criterionLine.FindSubmatch(stderr.Bytes()); m != nil {
		r.criterion = string(m[1])
	}
	if r.exit != 0 || r.crashed {
		r.stderr = lastLines(stderr.String(), 5)
	}
	if tctx.Err() != nil {
		return r, fmt.Errorf("culprit slice: timed out after %s", 3*b.timeout)
	}
	if r.exit != 0 {
		return r, nil
	}
	var out struct {
		Nodes []json.RawMessage
		Edges []json.RawMessage
		Lines []struct {
			File string
			Line int
		}
	}
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		return r, fmt.Errorf("culprit slice: JSON output: %w", err)
	}
	r.nodes, r.edges, r.lines = len(out.Nodes), len(out.Edges), map[string]bool{}
	want := pkgFile(pkg, fail.File)
	for _, l := range out.Lines {
		r.lines[fmt.Sprintf("%s:%d", l.File, l.Line)] = true
		if l.File == want && l.Line == fail.Line {
			r.inSlice = true
		}
	}
	return r, nil
}

// graph builds the summary graph of the test's run from the trace
// culprit slice left, as culprit slice does (the events streamed), and
// measures it: nodes, edges, the live heap it holds and the time taken.
func (b *bench) graph(traceDir, test string, res *result) error {
	res.TraceBytes = proof.DirSize(traceDir)
	var before, after runtime.MemStats
	settle()
	runtime.ReadMemStats(&before)
	start := time.Now()
	r, err := deps.BuildStream(traceDir, deps.Options{Test: test})
	if err != nil {
		return fmt.Errorf("build graph: %w", err)
	}
	res.GraphSecs = time.Since(start).Seconds()
	runtime.ReadMemStats(&after)
	res.GraphAlloc = after.TotalAlloc - before.TotalAlloc
	settle()
	runtime.ReadMemStats(&after)
	if after.HeapAlloc > before.HeapAlloc {
		res.GraphBytes = after.HeapAlloc - before.HeapAlloc
	}
	res.GraphNodes, res.GraphEdges = len(r.Nodes), len(r.Edges)
	runtime.KeepAlive(r)
	return nil
}

// settle collects garbage twice: objects with finalizers (files,
// processes) are freed by the second collection.
func settle() {
	runtime.GC()
	runtime.GC()
}

// goTest runs go test -json on pkgs in dir and returns what it said and
// how long it took.
func (b *bench) goTest(ctx context.Context, dir string, pkgs, flags []string) (testRun, time.Duration, error) {
	tctx, cancel := context.WithTimeout(ctx, b.timeout)
	defer cancel()
	args := append([]string{"test", "-json", "-count=1", "-vet=off", "-timeout", b.timeout.String()}, flags...)
	cmd := exec.CommandContext(tctx, "go", append(args, pkgs...)...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	out, err := cmd.Output()
	took := time.Since(start)
	if tctx.Err() != nil {
		return testRun{}, took, fmt.Errorf("go test: timed out after %s", b.timeout)
	}
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		return testRun{}, took, fmt.Errorf("go test: %w", err)
	}
	r := parseTestJSON(out)
	if err != nil && len(r.Failed) == 0 {
		r.Broken = true
	}
	return r, took, nil
}

// inPackages reports whether file (slash-separated, relative to the
// module root) is in one of the package directories pkgs names (all of
// them when pkgs is nil).
func inPackages(file string, pkgs []string) bool {
	if pkgs == nil {
		return true
	}
	for _, p := range pkgs {
		if path.Dir(file) == path.Clean(p) {
			return true
		}
	}
	return false
}

// pkgFile names a file of the package directory pkg ("./sub" or ".")
// relative to the module root, as culprit slice's JSON does.
func pkgFile(pkg, file string) string {
	return path.Join(strings.TrimPrefix(pkg, "./"), file)
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}

// longestCompile returns the seconds of the longest package compile in
// a go command's -debug-trace file (Chrome trace events, "B" and "E"
// spans named "Executing action (build PKG ...)"), 0 when there is none.
func longestCompile(name string) float64 {
	data, err := os.ReadFile(name)
	if err != nil {
		return 0
	}
	var evs []struct {
		Name string  `json:"name"`
		Ph   string  `json:"ph"`
		TS   float64 `json:"ts"` // microseconds
		TID  int     `json:"tid"`
	}
	if json.Unmarshal(data, &evs) != nil {
		return 0
	}
	type span struct {
		name string
		tid  int
	}
	begun := map[span]float64{}
	longest := 0.0
	for _, e := range evs {
		if !strings.HasPrefix(e.Name, "Executing action (build ") || strings.HasPrefix(e.Name, "Executing action (build check cache") {
			continue
		}
		k := span{e.Name, e.TID}
		switch e.Ph {
		case "B":
			begun[k] = e.TS
		case "E":
			if t, ok := begun[k]; ok {
				longest = max(longest, (e.TS-t)/1e6)
				delete(begun, k)
			}
		}
	}
	return longest
}
