package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/culprit-go/culprit/deps"
	"github.com/culprit-go/culprit/internal/instrument"
	sfl "github.com/culprit-go/culprit/report"
	"github.com/culprit-go/culprit/trace"
	"github.com/culprit-go/culprit/web"
)

const sliceUsage = `Usage: culprit slice [flags] [packages] [-- go test flags]

Slice runs the packages' tests once, instrumented with every event kind
(as culprit test -events all does, leaving the trace in .culprit at the
module root; hot code sampled, see -calls; the module's packages the
tests import are instrumented too), builds the dynamic dependence graph of one test's run and
prints the slice of a criterion: every statement that influenced it (its
data dependencies, "this value came from there", and its control
dependencies, "this ran because of that decision", a called function's
statements because of the call; an if whose skipped branch would have
assigned what a statement read counts too), or with -forward everything
it influenced. With -trace DIR it slices an existing trace. The tests
are built with -vet=off unless the go test flags after -- set -vet;
with -test (and no -run but ^TestX$) the test files' other tests are
left as written, and the other tests' calls record no events (the trace
then serves -trace for that test, its parents and subtests only).

The test: -test NAME ("TestX" or "TestX/sub"), by default the first
failing test. The criterion, by default the test's failure point (the
t.Error/t.Fatal call it made, or the panic, with what they read):
  -at FILE:LINE[:COL]   what the statements at that line defined
  -at FILE:LINE:VAR     the variable (or pseudo-variable) VAR defined there
  -var NAME@FILE:LINE   the variable (or pseudo-variable, "<test>") defined there
  -return FUNC          the return values of FUNC ("Middle", "T.M")

Checked coverage (-checked): for each test, the fraction of the
statements it executed that are in the backward slice of its checks
(t.Error*/t.Fatal*/t.Fail* calls, the conditions guarding them, helpers of
test files that make them), per package, and the statements executed but
never checked (Schuler and Zeller); -format text (default) or json.

Formats (-format): code (the source of every function in the slice, its
lines marked "*" and annotated "// <= y (12), z (12); <- <test> (5)":
data dependencies "<=", control "<-", forward "=>" and "->"), deps (the
dependency list per function), dot (Graphviz; -o FILE.svg or FILE.png
renders it when dot is installed), json (schema in docs/slice.md).

Exit status: 0 when a slice was written, 2 for bad flags, an unknown test
or a criterion that matches nothing, 1 when the tests could not be run or
the trace not read.

Flags:
`

// runSlice prints a dynamic slice of a test's run.
func runSlice(e *env, args []string) int {
	fs := flag.NewFlagSet("slice", flag.ContinueOnError)
	format := fs.String("format", "code", "output `FORMAT`: code, deps, dot or json")
	out := fs.String("o", "", "write the output to `FILE` (.svg, .png: rendered with Graphviz dot)")
	traceDir := fs.String("trace", "", "slice the existing trace in `DIR` instead of running the tests")
	testName := fs.String("test", "", "the test whose run to slice (`NAME`, TestX or TestX/sub); default: the first failing test")
	run := fs.String("run", "", "run only the tests matching `REGEXP` (go test -run)")
	at := fs.String("at", "", "criterion: what the statements at `FILE:LINE[:COL]` defined, or the variable at FILE:LINE:VAR")
	varAt := fs.String("var", "", "criterion: the variable defined at `NAME@FILE:LINE`")
	ret := fs.String("return", "", "criterion: the return values of function `FUNC`")
	forward := fs.Bool("forward", false, "slice forward: what the criterion influenced")
	testOut := fs.Bool("testout", false, "show go test's output on standard error")
	precise := fs.Bool("precise", false, "slice over execution instances (each definition its own node; the events are streamed from the trace)")
	calls := fs.Int("calls", instrument.DefaultCallLimit, "record the first `N` stream events of each site in full, then only those numbered by powers of two; a call not recorded runs its function uninstrumented, and the calls it makes too (they are not counted); 100 once the test binary has recorded 2^25 events (-1: all; -precise records all unless given)")
	checked := fs.Bool("checked", false, "checked coverage: per test and package, the executed statements in the backward slice of the tests' checks (-format json or text)")
	timeout := addTimeoutFlag(fs)
	wf := addWebFlags(fs)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), sliceUsage)
		fs.PrintDefaults()
	}
	pkgs, goFlags, done, status := splitArgs(e, fs, args)
	if done {
		return status
	}
	callLimit := *calls
	if *precise && !isSet(fs, "calls") {
		// Instances are the precise graph's nodes: all of them.
		callLimit = -1
	}
	switch *format {
	case "code", "deps", "dot", "json":
	case "text":
		if *checked {
			break
		}
		fallthrough
	default:
		errorf(e, "slice: -format %q: want code, deps, dot or json", *format)
		return exitUsage
	}
	crit, err := parseCriterion(*at, *varAt, *ret)
	if err != nil {
		errorf(e, "slice: %v", err)
		return exitUsage
	}
	if *checked && *precise {
		errorf(e, "slice: -checked uses the summary graph: -precise does not apply")
		return exitUsage
	}
	if *checked && (crit.set || *forward || *testName != "" || *format == "dot" || *format == "deps" || *out != "" && render(*out) == "dot") {
		errorf(e, "slice: -checked slices from every test's checks: it takes no -test, -at, -var, -return, -forward, and formats text or json")
		return exitUsage
	}
	if *traceDir != "" && (len(pkgs) > 0 || len(goFlags) > 0 || *run != "") {
		errorf(e, "slice: -trace slices an existing trace: it takes no packages, -run or go test flags")
		return exitUsage
	}

	b := newBudget(e, "slice", *timeout)
	defer b.close()
	dir := *traceDir
	timedOut := false // the test binary was stopped by -timeout
	b.traceAt = dir
	if dir == "" {
		if *run != "" {
			goFlags = append([]string{"-run", *run}, goFlags...)
		} else if *testName != "" {
			goFlags = append([]string{"-run", runPattern(*testName)}, goFlags...)
		}
		// go test -json: the output of each test is its own, for the
		// failure locations the failing test printed (the criterion when
		// an assertion library failed it from uninstrumented code).
		// -testout shows the text, unless the user asked for -json.
		var shown io.Writer = e.stderr
		if !hasGoFlag(goFlags, "json") {
			goFlags = withGoFlag(goFlags, "-json")
			shown = &jsonText{w: e.stderr}
		}
		goFlags = buildFlags(goFlags)
		var goOut bytes.Buffer
		var w io.Writer = &goOut
		if *testOut {
			w = io.MultiWriter(&goOut, shown)
		}
		var res *instrument.Result
		took, err := b.run(traceGuess(), func(ctx context.Context) (err error) {
			// The module's packages the tests import are instrumented
			// too: a value computed there is followed into them.
			res, err = instrument.Run(ctx, instrument.Config{
				Packages:      pkgs,
				ModuleImports: true,
				Events:        trace.AllEvents,
				GoFlags:       goFlags,
				Stdout:        w,
				Stderr:        w,
				CallLimit:     callLimit,
				SamplePerTest: true,
				SampleTest:    *testName,
				OnlyRelated:   onlyTest(*run, *testName) != nil && !wf.on(),
				Inlinable:     true,
				NoInline:      true,
				Tests:         onlyTest(*run, *testName),
			})
			return err
		})
		if errors.Is(err, errStopped) {
			return exitFail
		}
		if err != nil {
			return instrumentFailed(e, "slice", err)
		}
		dir = res.TraceDir
		if runTrouble(e, "slice", res) {
			return exitFail
		}
		timedOut = len(res.TimedOut) > 0
		b.ran(took, dir)
		defer func() {
			if res.ExitCode != 0 && !*testOut && strings.Contains(goOut.String(), "no test files") {
				(&jsonText{w: e.stderr}).Write(goOut.Bytes())
			}
		}()
		crit.output = &goOut
	}
	if wf.on() {
		return serveWeb(e, "slice", wf, dir, web.Options{Test: *testName, Start: "/source"})
	}
	if !*checked {
		// The events are streamed from the trace, not held: the summary
		// graph's memory is bounded by the program, the trace's by
		// nothing.
		var r *deps.Run
		err := b.phase("building the dependence graph", func() (err error) {
			r, err = deps.BuildStream(dir, deps.Options{Test: *testName, Versions: *precise})
			return err
		})
		if errors.Is(err, errStopped) {
			return exitFail
		}
		if err != nil {
			errorf(e, "slice: %v", err)
			if timedOut {
				return exitFail // the timeout, noted above, is why
			}
			if errors.Is(err, os.ErrNotExist) || errors.Is(err, deps.ErrNoFailure) || errors.Is(err, deps.ErrNoTest) || strings.Contains(err.Error(), "no test") {
				return exitUsage
			}
			return exitFail
		}
		return writeSlice(e, r, crit, *forward, *format, *out, "")
	}
	return writeChecked(e, b, dir, *format, *out)
}

// buildFlags adds to the go test flags of an instrumented run what
// makes its build quicker, where the user's flags do not say otherwise:
// -vet=off (vet checks the instrumented source, not the user's, and took
// 4.7 s of validator v10.15.3's 75 s under culprit slice, for nothing an
// analysis uses).
//
// The runs that slice also compile the instrumented packages without
// inlining (instrument.Config.NoInline; docs/slice.md): the compile is
// most of a slice's time and takes a half to a third as long.
func buildFlags(goFlags []string) []string {
	if !hasGoFlag(goFlags, "vet") {
		goFlags = withGoFlag(goFlags, "-vet=off")
	}
	return goFlags
}

// onlyTest returns the tests whose functions a run of -test name (with
// no -run, or a -run of that top-level test alone: ^TestX$) instruments
// in the test files: its top-level test alone, the other tests being
// left as written (a large test file compiles far quicker); nil, every
// test, otherwise.
func onlyTest(run, name string) map[string]bool {
	top, _, _ := strings.Cut(name, "/")
	if name == "" || run != "" && run != "^"+regexp.QuoteMeta(top)+"$" {
		return nil
	}
	return map[string]bool{top: true}
}

// withGoFlag returns the go test flags with f added, before any -args.
func withGoFlag(goFlags []string, f string) []string {
	for i, g := range goFlags {
		if g == "-args" || g == "--args" {
			out := append(append(append([]string{}, goFlags[:i]...), f), goFlags[i:]...)
			return out
		}
	}
	return append(goFlags, f)
}

// jsonText writes go test -json output as the text it stands for: each
// event's Output; lines that are not events (the go command's own
// messages) as they are.
type jsonText struct {
	w       io.Writer
	partial []byte
}

func (j *jsonText) Write(p []byte) (int, error) {
	j.partial = append(j.partial, p...)
	for {
		i := bytes.IndexByte(j.partial, '\n')
		if i < 0 {
			break
		}
		line := j.partial[:i+1]
		var ev struct{ Output string }
		if bytes.HasPrefix(line, []byte("{")) && json.Unmarshal(line, &ev) == nil {
			io.WriteString(j.w, ev.Output)
		} else {
			j.w.Write(line)
		}
		j.partial = j.partial[i+1:]
	}
	return len(p), nil
}

// testOutput returns what test name of package pkg printed, from go test
// -json output (the events of its parent tests too, which an assertion
// library running its own tests under one Go test writes to; a package
// pkg that no event names matches every package).
func testOutput(out []byte, pkg, name string) string {
	parts := strings.Split(name, "/")
	want := map[string]bool{}
	for i := range parts {
		want[strings.Join(parts[:i+1], "/")] = true
	}
	type event struct{ Action, Package, Test, Output string }
	var evs []event
	pkgs := map[string]bool{}
	for _, line := range bytes.Split(out, []byte("\n")) {
		var ev event
		if !bytes.HasPrefix(line, []byte("{")) || json.Unmarshal(line, &ev) != nil {
			continue
		}
		pkgs[ev.Package] = true
		if ev.Action == "output" && want[ev.Test] {
			evs = append(evs, ev)
		}
	}
	var b strings.Builder
	for _, ev := range evs {
		if !pkgs[pkg] || ev.Package == pkg {
			b.WriteString(ev.Output)
		}
	}
	return b.String()
}

// writeSlice prints the slice of the run's graph from the criterion.
func writeSlice(e *env, r *deps.Run, crit criterion, forward bool, format, out, root string) int {
	if root == "" {
		root = r.Root
	}
	ids, err := crit.find(r)
	if err != nil {
		errorf(e, "slice: %s: %v", r.Test, err)
		return exitUsage
	}
	if crit.used != "" {
		fmt.Fprintf(e.stderr, "culprit: slice: criterion: %s\n", crit.used)
	}
	var s *deps.Slice
	if forward {
		s = r.Forward(ids...)
	} else {
		s = r.Backward(ids...)
	}
	info := sfl.SliceInfo{Root: root, Package: r.Package, Test: r.Test, Outcome: r.Outcome.String(), Files: r.Files()}
	render := format
	if out != "" && (strings.HasSuffix(out, ".svg") || strings.HasSuffix(out, ".png")) {
		render = "dot"
	}
	var buf bytes.Buffer
	switch render {
	case "code":
		err = sfl.SliceCode(&buf, s, info)
	case "deps":
		err = sfl.SliceDeps(&buf, s, info)
	case "dot":
		err = sfl.SliceDOT(&buf, s, info)
	case "json":
		err = sfl.SliceJSONTo(&buf, s, info)
	}
	if err != nil {
		errorf(e, "slice: %v", err)
		return exitFail
	}
	if out == "" {
		e.stdout.Write(buf.Bytes())
	} else if err := writeSliceFile(e, out, buf.Bytes()); err != nil {
		errorf(e, "slice: %v", err)
		return exitFail
	}
	for _, n := range r.Notes {
		fmt.Fprintf(e.stderr, "culprit: slice: note: %s\n", n)
	}
	return exitOK
}

// render returns "dot" for an output file Graphviz renders.
func render(name string) string {
	if strings.HasSuffix(name, ".svg") || strings.HasSuffix(name, ".png") {
		return "dot"
	}
	return ""
}

// writeChecked prints the checked coverage of every test of the trace
// in dir. The events are streamed from the trace, a batch of tests per
// read of an events file: memory is a batch of summary graphs, bounded
// by the program, whatever the length of the run.
func writeChecked(e *env, b *budget, dir, format, out string) int {
	var covs []*deps.Coverage
	err := b.phase("slicing every test's checks", func() (err error) {
		covs, err = deps.CheckedCoverage(dir, 0)
		return err
	})
	if errors.Is(err, errStopped) {
		return exitFail
	}
	if err != nil {
		errorf(e, "slice: %v", err)
		if errors.Is(err, os.ErrNotExist) {
			return exitUsage
		}
		return exitFail
	}
	if len(covs) == 0 {
		errorf(e, "slice: -checked: no test in the trace")
		return exitUsage
	}
	info := sfl.SliceInfo{Root: covs[0].Root}
	var buf bytes.Buffer
	if format == "json" {
		err = sfl.CheckedJSONTo(&buf, covs, info)
	} else {
		err = sfl.CheckedText(&buf, covs, info)
	}
	if err != nil {
		errorf(e, "slice: %v", err)
		return exitFail
	}
	if out == "" {
		e.stdout.Write(buf.Bytes())
	} else if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
		errorf(e, "slice: write output: %v", err)
		return exitFail
	}
	notes := map[string]bool{}
	for _, c := range covs {
		for _, n := range c.Notes {
			if !notes[n] {
				notes[n] = true
				fmt.Fprintf(e.stderr, "culprit: slice: note: %s\n", n)
			}
		}
	}
	return exitOK
}

// writeSliceFile writes the output to name, rendering DOT to SVG or PNG
// with Graphviz when the name asks for it (DOT next to it when dot is
// missing).
func writeSliceFile(e *env, name string, data []byte) error {
	ext := strings.TrimPrefix(filepath.Ext(name), ".")
	if ext != "svg" && ext != "png" {
		if err := os.WriteFile(name, data, 0o644); err != nil {
			return fmt.Errorf("write output: %w", err)
		}
		return nil
	}
	dot, err := exec.LookPath("dot")
	if err != nil {
		alt := strings.TrimSuffix(name, "."+ext) + ".dot"
		if err := os.WriteFile(alt, data, 0o644); err != nil {
			return fmt.Errorf("write output: %w", err)
		}
		fmt.Fprintf(e.stderr, "culprit: slice: Graphviz dot is not installed: wrote DOT to %s instead of %s\n", alt, name)
		return nil
	}
	cmd := exec.CommandContext(e.ctx, dot, "-T"+ext, "-o", name)
	cmd.Stdin = bytes.NewReader(data)
	if msg, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("dot -T%s: %v: %s", ext, err, bytes.TrimSpace(msg))
	}
	return nil
}

// runPattern turns a test name into a go test -run pattern matching it
// alone: TestX/sub -> ^TestX$/^sub$.
func runPattern(name string) string {
	parts := strings.Split(name, "/")
	for i, p := range parts {
		parts[i] = "^" + regexp.QuoteMeta(p) + "$"
	}
	return strings.Join(parts, "/")
}

// criterion is what a slice starts from.
type criterion struct {
	file      string
	line, col int
	name      string
	fn        string
	set       bool
	// output is go test -json's output, when the tests were run: the
	// failure locations the failing test printed are the default
	// criterion when the trace holds no check or panic of the test.
	output *bytes.Buffer
	// used says what the default criterion was (find sets it).
	used string
}

// parseCriterion reads -at, -var and -return (at most one).
func parseCriterion(at, varAt, ret string) (criterion, error) {
	n := 0
	for _, s := range []string{at, varAt, ret} {
		if s != "" {
			n++
		}
	}
	if n > 1 {
		return criterion{}, fmt.Errorf("-at, -var and -return exclude each other")
	}
	var c criterion
	switch {
	case ret != "":
		return criterion{fn: ret, set: true}, nil
	case varAt != "":
		i := strings.LastIndexByte(varAt, '@')
		if i <= 0 {
			return c, fmt.Errorf("-var %q: want NAME@FILE:LINE", varAt)
		}
		c.name, at = varAt[:i], varAt[i+1:]
	case at == "":
		return c, nil
	}
	parts := strings.Split(at, ":")
	if n := len(parts); c.name == "" && n >= 3 {
		// -at FILE:LINE:VAR names the variable at the line.
		if _, err := strconv.Atoi(parts[n-1]); err != nil {
			if _, err := strconv.Atoi(parts[n-2]); err == nil {
				c.name, parts = parts[n-1], parts[:n-1]
			}
		}
	}
	nums := []int{}
	for len(parts) > 1 {
		v, err := strconv.Atoi(parts[len(parts)-1])
		if err != nil {
			break
		}
		nums = append([]int{v}, nums...)
		parts = parts[:len(parts)-1]
	}
	if len(nums) == 0 || len(nums) > 2 {
		return c, fmt.Errorf("criterion %q: want FILE:LINE[:COL] or FILE:LINE:VAR", at)
	}
	c.file, c.line, c.set = strings.Join(parts, ":"), nums[0], true
	if len(nums) == 2 {
		c.col = nums[1]
	}
	return c, nil
}

// find returns the criterion's nodes in the run's graph.
func (c *criterion) find(r *deps.Run) ([]int, error) {
	switch {
	case !c.set:
		// No t.Error/t.Fatal call or panic of the test: an assertion
		// library (check.v1, testify) failed it from its own,
		// uninstrumented code. Its call is where the test printed that
		// it failed.
		var out []byte
		if c.output != nil {
			out = c.output.Bytes()
		}
		if ids, used := failurePoint(r, out); len(used) > 0 {
			names := make([]string, len(used))
			for i, p := range used {
				names[i] = p.String()
			}
			c.used = "the failure locations the test printed (" + strings.Join(names, ", ") + "): it made no t.Error/t.Fatal call or panic the trace shows"
			return ids, nil
		}
		if len(r.Failure) == 0 {
			return nil, fmt.Errorf("the test did not fail where the trace shows it (%s): give a criterion with -at, -var or -return", r.Outcome)
		}
		c.used = failureWhat(r)
		return r.Failure, nil
	case c.fn != "":
		ids := r.Returns(c.fn)
		if len(ids) == 0 {
			return nil, fmt.Errorf("no return value of %s in the run", c.fn)
		}
		return ids, nil
	}
	ids := r.Find(c.file, c.line, c.col, c.name)
	if len(ids) == 0 {
		what := fmt.Sprintf("%s:%d", c.file, c.line)
		if c.name != "" {
			what = c.name + "@" + what
		}
		return nil, fmt.Errorf("nothing defined at %s in the run", what)
	}
	return ids, nil
}

// failureWhat says what the run's failure point is.
func failureWhat(r *deps.Run) string {
	at := ""
	if len(r.Failure) > 0 {
		n := r.Nodes[r.Failure[0]]
		at = fmt.Sprintf(" at %s:%d", filepath.Base(n.File), n.Line)
	}
	switch r.FailureKind {
	case deps.FailureCheck:
		return "the test's failing check" + at
	case deps.FailurePanic:
		return "the panic" + at
	}
	return "the test's last step" + at + ": it made no t.Error/t.Fatal call or panic the trace shows, and printed no failure location of the run (give one with -at)"
}
