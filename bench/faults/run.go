package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/culprit-go/culprit/bench/internal/proof"
)

// A bench runs the corpus's bugs.
type bench struct {
	work    string // work directory: one directory per bug below it
	culprit string // the culprit binary
	metrics []string
	// analyses are the analyses run besides the plain run: rank (the
	// diagnosis and the single metrics), slice, flow.
	analyses map[string]bool
	repeat   int           // verification runs of each side (-verify)
	timeout  time.Duration // one go test run's limit
	// warm runs the analyses once before the change to the package,
	// untimed: the timed runs then find the instrumented builds of the
	// packages the change does not touch in the build cache, as the
	// plain run after the change finds the plain ones.
	warm bool
	log  func(format string, args ...any)
}

// A result is what the bench found on one bug.
type result struct {
	Bug *Bug
	Err string // the bug could not be measured: why

	// Verification (-verify): how often A failed and B passed.
	AFailed, BPassed, Runs int
	Failure                string // the first failure line on A

	Plain      float64 // seconds of go test of the package, plain, build cached
	PlainBuild float64 // the same after a change to one of the package's files: building its tests included, as after an edit
	PlainFail  []string

	Executed int             // lines the package's tests executed (statement metric)
	Ranks    map[string]Rank // by ranking: "diagnosis", "ochiai", ...
	Times    map[string]float64

	Slice, Flow analysis
}

// An analysis is one run of slice or flow on the failing test.
type analysis struct {
	Ran     bool
	Wall    float64
	Exit    int
	RSS     int64 // KiB
	Note    string
	InSlice bool // slice: a fault line is in the slice
	Lines   int  // slice: lines in the slice
}

// materialize makes the bug's two trees below its work directory: A
// with B's regression test files over it (the failing version) and B.
func (b *bench) materialize(ctx context.Context, bug *Bug) (buggy, fixed string, err error) {
	dir := filepath.Join(b.work, bug.ID)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", "", err
	}
	env := goflags(bug)
	defer env()
	if buggy, _, err = proof.DownloadAt(ctx, dir, bug.Module, bug.Buggy); err != nil {
		return "", "", err
	}
	if fixed, _, err = proof.DownloadAt(ctx, dir, bug.Module, bug.Fixed); err != nil {
		return "", "", err
	}
	for _, f := range bug.TestFiles {
		data, err := os.ReadFile(filepath.Join(fixed, filepath.FromSlash(f)))
		if err != nil {
			return "", "", fmt.Errorf("%s: the fixed release's test file: %w", bug.ID, err)
		}
		dst := filepath.Join(buggy, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return "", "", err
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			return "", "", err
		}
	}
	return buggy, fixed, nil
}

// goflags sets GOFLAGS for the bug's go commands (culprit's included)
// and returns the function that restores it.
func goflags(bug *Bug) func() {
	old, had := os.LookupEnv("GOFLAGS")
	if bug.GoFlags == "" {
		return func() {}
	}
	os.Setenv("GOFLAGS", strings.TrimSpace(old+" "+bug.GoFlags))
	return func() {
		if had {
			os.Setenv("GOFLAGS", old)
		} else {
			os.Unsetenv("GOFLAGS")
		}
	}
}

// A goRun is one go test's outcome.
type goRun struct {
	wall    float64
	exit    int
	out     string
	failed  []string // top-level tests that failed
	built   bool     // the tests compiled
	timeout bool
}

// goTest runs go test -count=1 -vet=off on the bug's package in dir,
// with -run pattern when it is not "".
func (b *bench) goTest(ctx context.Context, dir string, bug *Bug, pattern string) goRun {
	args := []string{"test", "-count=1", "-vet=off", "-v"}
	if pattern != "" {
		args = append(args, "-run", pattern)
	}
	args = append(args, bug.Package)
	tctx, cancel := context.WithTimeout(ctx, b.timeout)
	defer cancel()
	cmd := exec.CommandContext(tctx, "go", args...)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	r := goRun{wall: time.Since(start).Seconds(), out: out.String()}
	if cmd.ProcessState != nil {
		r.exit = cmd.ProcessState.ExitCode()
	} else {
		r.exit = -1
	}
	r.timeout = tctx.Err() != nil
	r.built = err == nil || !strings.Contains(r.out, "[build failed]") && !strings.Contains(r.out, "[setup failed]")
	for _, line := range strings.Split(r.out, "\n") {
		if name, ok := strings.CutPrefix(line, "--- FAIL: "); ok {
			name, _, _ = strings.Cut(name, " ")
			if !strings.Contains(name, "/") {
				r.failed = append(r.failed, name)
			}
		}
	}
	if strings.Contains(r.out, "\npanic: ") || strings.HasPrefix(r.out, "panic: ") {
		r.failed = append(r.failed, "(panic)")
	}
	return r
}

// firstFailure is the first line of out that explains a failure.
func firstFailure(out string) string {
	lines := strings.Split(out, "\n")
	for i, line := range lines {
		if strings.HasPrefix(line, "--- FAIL: ") || strings.HasPrefix(line, "panic: ") {
			if strings.HasPrefix(line, "panic: ") {
				return line
			}
			if i+1 < len(lines) {
				return strings.TrimSpace(lines[i+1])
			}
			return line
		}
	}
	return ""
}

// run measures one bug.
func (b *bench) run(ctx context.Context, bug *Bug, verify bool) *result {
	r := &result{Bug: bug, Ranks: map[string]Rank{}, Times: map[string]float64{}}
	buggy, fixed, err := b.materialize(ctx, bug)
	if err != nil {
		r.Err = err.Error()
		return r
	}
	defer goflags(bug)()
	runs := 1
	if verify {
		runs = b.repeat
	}
	r.Runs = runs
	for i := 0; i < runs; i++ {
		a := b.goTest(ctx, buggy, bug, bug.RunPattern())
		if a.exit != 0 && a.built && !a.timeout && len(a.failed) > 0 {
			r.AFailed++
			if r.Failure == "" {
				r.Failure = firstFailure(a.out)
			}
		} else if !a.built {
			r.Err = "A with B's tests does not build: " + lastLines(a.out, 3)
			return r
		}
		f := b.goTest(ctx, fixed, bug, bug.RunPattern())
		if f.exit == 0 {
			r.BPassed++
		}
	}
	if r.AFailed != runs || r.BPassed != runs {
		r.Err = fmt.Sprintf("not reproduced: A failed %d/%d, B passed %d/%d", r.AFailed, runs, r.BPassed, runs)
		return r
	}
	if verify {
		return r
	}
	// The plain run of the whole package, as the user runs it: the
	// first after a change to one of its files, building its tests
	// (PlainBuild: what a user who has just edited the code waits for,
	// and what culprit's instrumented builds, never cached on a first
	// run, compare with); the second from the build cache (Plain, the
	// ratios' first denominator).
	if b.warm {
		b.warmUp(ctx, buggy, bug)
	}
	if err := touchPackage(filepath.Join(buggy, filepath.FromSlash(bug.Package))); err != nil {
		r.Err = err.Error()
		return r
	}
	r.PlainBuild = b.goTest(ctx, buggy, bug, "").wall
	p := b.goTest(ctx, buggy, bug, "")
	r.Plain, r.PlainFail = p.wall, p.failed
	if b.analyses["rank"] {
		if err := b.rank(ctx, buggy, r); err != nil {
			r.Err = err.Error()
			return r
		}
	}
	if b.analyses["slice"] {
		r.Slice = b.analysis(ctx, buggy, "slice", r)
	}
	if b.analyses["flow"] {
		r.Flow = b.analysis(ctx, buggy, "flow", r)
	}
	return r
}

// warmUp runs, untimed and with their outputs thrown away, the culprit
// commands the bench times, so that their instrumented builds of every
// package the change (touchPackage) leaves alone are cached: the times
// after the change are then a user's who edits a package of a module
// culprit has run on before, the same footing as the plain run after
// the change, whose other packages' builds are cached too.
func (b *bench) warmUp(ctx context.Context, dir string, bug *Bug) {
	limit := b.timeout + 5*time.Minute
	if b.analyses["rank"] {
		if len(b.metrics) > 0 {
			b.culpritRun(ctx, dir, limit, "rank", "-metric", b.metrics[0], "-events", "stmt", "-format", "json", "-top", "0", bug.Package)
		}
		b.culpritRun(ctx, dir, limit, "rank", "-format", "json", "-top", "0", bug.Package)
	}
	for _, name := range []string{"slice", "flow"} {
		if b.analyses[name] {
			b.culpritRun(ctx, dir, limit, name, "-test", bug.FailingTests[0], "-format", "json", bug.Package)
		}
	}
}

// touchPackage appends a comment line to the first non-test Go file of
// dir (the bench's own copy of the module): its build is no longer
// cached, and no line moves.
func touchPackage(dir string) error {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return err
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		fh, err := os.OpenFile(f, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			return fmt.Errorf("touch the package: %w", err)
		}
		_, err = fmt.Fprintf(fh, "\n// changed by bench/faults at %s so that its build is not cached\n", time.Now().UTC().Format(time.RFC3339Nano))
		if cerr := fh.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("touch the package: %w", err)
		}
		return nil
	}
	return fmt.Errorf("touch the package: no Go file in %s", dir)
}

// culpritRun runs culprit with args in dir and returns its standard
// output, wall time, exit status, peak RSS (KiB) and the tail of its
// standard error.
func (b *bench) culpritRun(ctx context.Context, dir string, limit time.Duration, args ...string) (stdout []byte, wall float64, exit int, rss int64, stderr string) {
	tctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	cmd := exec.CommandContext(tctx, b.culprit, args...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	cmd.Run()
	wall = time.Since(start).Seconds()
	exit = -1
	if cmd.ProcessState != nil {
		exit = cmd.ProcessState.ExitCode()
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			rss = int64(ru.Maxrss)
		}
	}
	stderr = lastLines(errb.String(), 4)
	if tctx.Err() != nil {
		stderr = fmt.Sprintf("killed by the bench after %s; %s", limit, stderr)
	}
	return out.Bytes(), wall, exit, rss, stderr
}

// rank runs the diagnosis (culprit rank's default) and the single
// metrics on the buggy tree and places the fault in each ranking.
func (b *bench) rank(ctx context.Context, dir string, r *result) error {
	limit := time.Duration(30*r.Plain)*time.Second + 5*time.Minute
	bug := r.Bug
	// The single metrics first: one instrumented run of statements, each
	// metric ranked from its trace.
	var lines map[lineKey]string // executed line -> function
	var funcs map[string]bool    // the functions holding the fault
	faults := candidates(dir, bug)
	for i, m := range b.metrics {
		args := []string{"rank", "-metric", m, "-events", "stmt", "-format", "json", "-top", "0"}
		if i > 0 {
			args = append(args, "-trace", ".culprit")
		}
		if i == 0 {
			args = append(args, bug.Package)
		}
		out, wall, exit, _, errs := b.culpritRun(ctx, dir, limit, args...)
		if exit != 0 {
			return fmt.Errorf("culprit rank -metric %s: exit %d: %s", m, exit, errs)
		}
		var locs metricJSON
		if err := json.Unmarshal(out, &locs); err != nil {
			return fmt.Errorf("culprit rank -metric %s: %w", m, err)
		}
		if i == 0 {
			lines = locs.lines()
			funcs = faultFuncs(dir, bug, lines)
			// Kept for -rescore: the executed lines and their functions.
			if data, err := json.Marshal(executedLines(lines)); err == nil {
				os.WriteFile(filepath.Join(b.work, bug.ID, "executed.json"), data, 0o644)
			}
			r.Executed = len(lines)
			r.Times[m] = wall
		} else {
			r.Times[m] = r.Times[b.metrics[0]] // ranked from the same run
		}
		r.Ranks[m] = locs.place(faults, funcs)
	}
	out, wall, exit, _, errs := b.culpritRun(ctx, dir, limit, "rank", "-format", "json", "-top", "0", bug.Package)
	if exit != 0 {
		return fmt.Errorf("culprit rank: exit %d: %s", exit, errs)
	}
	var d diagnosisJSON
	if err := json.Unmarshal(out, &d); err != nil {
		return fmt.Errorf("culprit rank: %w", err)
	}
	r.Times["diagnosis"] = wall
	// Kept for a look at why the fault ranks where it does.
	os.WriteFile(filepath.Join(b.work, bug.ID, "diagnosis.json"), out, 0o644)
	// The diagnosis also ranks lines of the module's other packages,
	// which the statement ranking (the tested package's) does not run:
	// the fault's function is named from both.
	all := d.executed(lines)
	r.Ranks["diagnosis"] = d.place(faults, faultFuncs(dir, bug, all), all)
	return nil
}

// analysis runs culprit slice or flow on the bug's first failing test
// with culprit's own default time limit, the bench's as a backstop.
func (b *bench) analysis(ctx context.Context, dir, name string, r *result) analysis {
	bug := r.Bug
	args := []string{name, "-test", bug.FailingTests[0], "-format", "json", bug.Package}
	out, wall, exit, rss, errs := b.culpritRun(ctx, dir, time.Duration(20*r.Plain)*time.Second+5*time.Minute, args...)
	a := analysis{Ran: true, Wall: wall, Exit: exit, RSS: rss}
	if exit != 0 {
		a.Note = errs
		return a
	}
	if strings.Contains(errs, "note:") {
		a.Note = errs
	}
	if name == "slice" {
		var s struct {
			Lines []struct {
				File string
				Line int
			}
		}
		if err := json.Unmarshal(out, &s); err != nil {
			a.Note = "JSON: " + err.Error()
			return a
		}
		a.Lines = len(s.Lines)
		faults := candidates(dir, bug)
		for _, l := range s.Lines {
			if faults.has(l.File, l.Line) {
				a.InSlice = true
			}
		}
	}
	return a
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}
