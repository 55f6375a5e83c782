package cli

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/culprit-go/culprit/internal/instrument"
	"github.com/culprit-go/culprit/invariant"
	creport "github.com/culprit-go/culprit/report"
	"github.com/culprit-go/culprit/trace"
	"github.com/culprit-go/culprit/web"
)

const mineUsage = `Usage: culprit mine [flags] [packages] [-- go test flags]

Mine runs the packages' tests once, instrumented (as culprit test -events
func,panics does, leaving the trace in .culprit at the module root), and
reports the likely specification of every function and method the tests
called: the preconditions its arguments satisfied at entry, the
postconditions its results satisfied at exit, and the types seen. With
-trace DIR it mines an existing trace instead.

Properties come from a pattern library (docs/mine.md) instantiated over
every type-compatible combination of parameters, results and their
lengths: signs, constants, ranges, orderings, equalities, sums,
differences, products, quotients, squares, len relations, nil-ness,
emptiness, string prefixes, suffixes and containment. -props FILE adds
your own, one Go expression a line over metavariables X, Y, Z.

An invariant is kept when it held in every call learned from and its
chance of holding by accident is below -conf (default 0.01; 1 keeps every
invariant that held); implied invariants are not shown. By default only
calls made by passing tests are learned from (-from all, fail).
-contrast reports instead the invariants of calls made by failing tests
that calls made by passing tests violate: the circumstances of failure.

Formats (-format): text (Go signatures with //culprit:pre and
//culprit:post lines), json (the contract file culprit check reads;
schema in docs/mine.md), go (functions checking the conditions, to paste
into the package; -package names it).

Exit status: 0 when the contracts were written (whether or not tests
failed), 2 for bad flags or packages, 1 when the tests could not be run or
the trace not read.

Flags:
`

// mineFlags are the flags mine and check share for running the tests.
type runFlags struct {
	traceDir  *string
	testOut   *bool
	testFiles *bool
	calls     *int
	inlinable *bool
	timeout   *time.Duration
	extra     trace.EventSet // more events to record: all for -http
}

func addRunFlags(fs *flag.FlagSet) runFlags {
	return runFlags{
		traceDir:  fs.String("trace", "", "read the existing trace in `DIR` instead of running the tests"),
		testOut:   fs.Bool("testout", false, "show go test's output on standard error"),
		testFiles: fs.Bool("testfiles", false, "include functions declared in _test.go files"),
		calls:     fs.Int("calls", instrument.DefaultCallLimit, "record the first `N` calls of each function per test binary, then only those numbered by powers of two; 100 once the test binary has recorded 2^25 events (-1: all)"),
		inlinable: fs.Bool("inlinable", true, "record small functions the compiler would inline too (allocation counts can change)"),
		timeout:   addTimeoutFlag(fs),
	}
}

// collect runs the tests instrumented (or reads -trace) and collects the
// calls, within b's time. It returns a status when the command must stop.
func collect(e *env, b *budget, rf runFlags, pkgs, goFlags []string) (*invariant.Calls, *instrument.Result, int, bool) {
	name := b.cmd
	dir := *rf.traceDir
	b.traceAt = dir
	var res *instrument.Result
	if dir == "" {
		var goOut bytes.Buffer
		var w io.Writer = &goOut
		if *rf.testOut {
			w = e.stderr
		}
		var r *instrument.Result
		took, err := b.run(traceGuess(), func(ctx context.Context) (err error) {
			r, err = instrument.Run(ctx, instrument.Config{
				Packages:  pkgs,
				Events:    trace.EventFunc | trace.EventPanic | trace.EventCall | rf.extra,
				GoFlags:   goFlags,
				Stdout:    w,
				Stderr:    w,
				CallLimit: *rf.calls,
				Inlinable: *rf.inlinable,
				Resume:    true, // the tests a panic kept from running teach invariants too
			})
			return err
		})
		if errors.Is(err, errStopped) {
			return nil, nil, exitFail, true
		}
		if err != nil {
			return nil, nil, instrumentFailed(e, name, err), true
		}
		res, dir = r, r.TraceDir
		if runTrouble(e, name, r) {
			return nil, nil, exitFail, true
		}
		b.ran(took, dir)
		if r.ExitCode != 0 && !*rf.testOut && goOut.Len() > 0 && !bytes.Contains(goOut.Bytes(), []byte("--- FAIL")) && len(r.TimedOut) == 0 {
			// Not a test failure (a build error, no tests): show why.
			e.stderr.Write(goOut.Bytes())
		}
	}
	var cs *invariant.Calls
	err := b.phase("collecting the calls from the trace", func() (err error) {
		cs, err = invariant.Load(dir, invariant.CollectOptions{TestFiles: *rf.testFiles})
		return err
	})
	if errors.Is(err, errStopped) {
		return nil, nil, exitFail, true
	}
	if err != nil {
		errorf(e, "%s: %v", name, err)
		if errors.Is(err, os.ErrNotExist) {
			return nil, nil, exitUsage, true
		}
		return nil, nil, exitFail, true
	}
	if len(cs.Functions) == 0 {
		errorf(e, "%s: no call of an instrumented function was recorded", name)
		return nil, nil, exitFail, true
	}
	return cs, res, exitOK, false
}

// runMine mines function contracts.
func runMine(e *env, args []string) int {
	fs := flag.NewFlagSet("mine", flag.ContinueOnError)
	rf := addRunFlags(fs)
	format := fs.String("format", "text", "output `FORMAT`: text, json or go")
	out := fs.String("o", "", "write the output to `FILE` instead of standard output")
	conf := fs.Float64("conf", invariant.DefaultConfidence, "report invariants whose chance of holding by accident is below `P` (1: all that held)")
	from := fs.String("from", "pass", "learn from the calls of `TESTS`: pass, fail or all")
	contrast := fs.Bool("contrast", false, "report the invariants of failing tests' calls that passing tests' calls violate")
	props := fs.String("props", "", "read extra properties from `FILE`: one Go expression a line over X, Y, Z")
	pkgName := fs.String("package", "contracts", "package `NAME` of -format go")
	fuzz := fs.String("fuzz", "", "also learn from the calls made while fuzzing with the fuzz target `NAME` (one package)")
	fuzzTime := fs.String("fuzztime", "10s", "how long -fuzz fuzzes (`D`, as go test -fuzztime)")
	wf := addWebFlags(fs)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), mineUsage)
		fs.PrintDefaults()
	}
	pkgs, goFlags, done, status := splitArgs(e, fs, args)
	if done {
		return status
	}
	switch *format {
	case "text", "json", "go":
	default:
		errorf(e, "mine: -format %q: want text, json or go", *format)
		return exitUsage
	}
	opt := invariant.Options{Confidence: *conf}
	switch *from {
	case "pass":
	case "fail":
		opt.Use = (*invariant.Call).Failing
	case "all":
		opt.Use = func(*invariant.Call) bool { return true }
	default:
		errorf(e, "mine: -from %q: want pass, fail or all", *from)
		return exitUsage
	}
	if *conf <= 0 {
		errorf(e, "mine: -conf %v: want a probability above 0", *conf)
		return exitUsage
	}
	if *props != "" {
		ps, err := readProps(*props)
		if err != nil {
			errorf(e, "mine: %v", err)
			return exitUsage
		}
		opt.Props = ps
	}
	if *rf.traceDir != "" && (len(pkgs) > 0 || len(goFlags) > 0 || *fuzz != "") {
		errorf(e, "mine: -trace mines an existing trace: it takes no packages, go test flags or -fuzz")
		return exitUsage
	}
	if *fuzz != "" {
		goFlags = append(goFlags, "-fuzz=^"+*fuzz+"$", "-fuzztime="+*fuzzTime)
	}
	start := time.Now()
	rf.extra = wf.events()
	b := newBudget(e, "mine", *rf.timeout)
	defer b.close()
	cs, res, status, stop := collect(e, b, rf, pkgs, goFlags)
	if stop {
		return status
	}
	var c *invariant.Contracts
	if err := b.phase("mining invariants", func() error {
		if *contrast {
			c = invariant.Contrast(cs, opt)
		} else {
			c = invariant.Mine(cs, opt)
		}
		return nil
	}); err != nil {
		return exitFail
	}
	if *contrast {
		if len(c.Functions) == 0 {
			errorf(e, "mine: -contrast: no call was made by a failing test")
			return exitUsage
		}
	} else {
		if len(c.Functions) == 0 {
			errorf(e, "mine: no call was made by a test of the selected outcome (-from %s)", *from)
			return exitFail
		}
	}
	if wf.on() {
		dir := *rf.traceDir
		if res != nil {
			dir = res.TraceDir
		}
		return serveWeb(e, "mine", wf, dir, web.Options{Contracts: c, TestFiles: *rf.testFiles, Start: "/mine"})
	}
	w, closeOut, err := output(*out, e.stdout)
	if err != nil {
		errorf(e, "mine: %v", err)
		return exitUsage
	}
	switch *format {
	case "text":
		err = creport.Contracts(w, c)
	case "json":
		err = creport.ContractsJSON(w, c)
	case "go":
		err = creport.ContractsGo(w, c, *pkgName)
	}
	if cerr := closeOut(); err == nil {
		err = cerr
	}
	if err != nil {
		errorf(e, "mine: %v", err)
		return exitFail
	}
	for _, n := range cs.Notes {
		fmt.Fprintf(e.stderr, "culprit: mine: note: %s\n", n)
	}
	if *out != "" {
		calls := 0
		for _, s := range c.Functions {
			calls += s.Calls
		}
		fmt.Fprintf(e.stderr, "culprit: mine: %s written: %d functions, %d calls (%.1fs)\n", *out, len(c.Functions), calls, time.Since(start).Seconds())
	}
	return exitOK
}

// output opens the -o file, or returns stdout.
func output(name string, stdout io.Writer) (io.Writer, func() error, error) {
	if name == "" {
		return stdout, func() error { return nil }, nil
	}
	f, err := os.Create(name)
	if err != nil {
		return nil, nil, err
	}
	return f, f.Close, nil
}

// readProps reads user properties: one expression a line; blank lines
// and lines starting with # or // are skipped.
func readProps(name string) ([]*invariant.Expr, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("-props: %w", err)
	}
	defer f.Close()
	var out []*invariant.Expr
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "//") {
			continue
		}
		e, err := invariant.Parse(line)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, n, err)
		}
		out = append(out, e)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("-props: %w", err)
	}
	return out, nil
}
