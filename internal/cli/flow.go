package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"

	"github.com/culprit-go/culprit/deps"
	"github.com/culprit-go/culprit/flow"
	"github.com/culprit-go/culprit/internal/instrument"
	sfl "github.com/culprit-go/culprit/report"
	"github.com/culprit-go/culprit/trace"
	"github.com/culprit-go/culprit/web"
)

const flowUsage = `Usage: culprit flow [flags] [packages] [-- go test flags]
       culprit flow [flags] main-package [-- program arguments]

Flow runs the packages' tests once, instrumented with every event kind
(leaving the trace in .culprit at the module root; built with -vet=off
unless the go test flags set -vet), and draws the dynamic data-flow graph
of one test's output. Given one main package and neither
-test nor -run, it builds and runs the program instead, instrumented,
with the arguments after -- and culprit's standard input, and draws the
graph of the program's output; its run is named "main" in the trace, its
standard output and error are shown on standard error with -testout, a
nonzero exit status in a note. The output: by default every call that
printed to standard output or error (fmt.Print*, print, println,
log.Print*, fmt.Fprint* and writes to os.Stdout, os.Stderr or a writer
over them, io.Copy to it) or to the test's log (t.Log*, t.Error*,
t.Fatal*), named as written with what it printed (fmt.Println(sum) = 5),
and the test's failing check or panic; writes into other writers (a
bytes.Buffer) are intermediate values. With -return FUNC what FUNC
returned, with -var FILE:LINE:NAME the last version of a variable. Each is
traced back through every intermediate value to the inputs and constants
it came from. Each assignment makes a new version of a variable (x@0,
x@1); constants are leaves; elements and fields are named (xs[3],
p.name), also those a composite literal defines, and a literal used in
place is named by its parts ([x, y], Point{x, y}); calls into code that
is not instrumented are nodes (len(xs)); a program's inputs are named
(os.Args[1], stdin line 3); decisions are nodes, and what ran under them
depends on them. The module's packages the tests import are
instrumented too. The graph is bounded by the trace's size (about a
node per 32 events): past that, the definitions a site makes merge into
one version, and a note on standard error says how many. With -trace
DIR it reads an existing trace (recorded with -events all).

Formats (-format): text (each output with the inputs it depends on, one
per line), dot, svg and png (Graphviz dot renders them; without it, DOT is
written and a note says so), json (schema in docs/flow.md).

Exit status: 0 when a graph was written, 2 for bad flags, an unknown test
or an output that matches nothing, 1 when the tests could not be run or
the trace not read.

Flags:
`

// runFlow draws the data-flow graph of a test's output.
func runFlow(e *env, args []string) int {
	fs := flag.NewFlagSet("flow", flag.ContinueOnError)
	format := fs.String("format", "text", "output `FORMAT`: text, dot, svg, png or json")
	out := fs.String("o", "", "write the output to `FILE`")
	traceDir := fs.String("trace", "", "read the existing trace in `DIR` instead of running the tests")
	testName := fs.String("test", "", "the test whose run to draw (`NAME`, TestX or TestX/sub); default: the first failing test")
	run := fs.String("run", "", "run only the tests matching `REGEXP` (go test -run)")
	ret := fs.String("return", "", "output: the value function `FUNC` returned (its last call)")
	call := fs.Int("call", 0, "with -return: the `N`th call to return, from 1 (default: the last)")
	varAt := fs.String("var", "", "output: the last version of the variable at `FILE:LINE:NAME`")
	noCond := fs.Bool("no-cond", false, "fold decision nodes away: connect what they read to what they controlled")
	reduce := fs.Bool("reduce", false, "apply transitive reduction (removes information: implied edges disappear)")
	unfold := fs.Bool("unfold", false, "keep the versions a loop makes at one site apart")
	depth := fs.Int("depth", 0, "keep the nodes at most `N` edges from an output")
	focus := fs.String("focus", "", "keep the paths from the values named `NAME` (x, x@2, x@1..4, stdin line 3) to the outputs")
	testOut := fs.Bool("testout", false, "show go test's output (or the program's) on standard error")
	calls := fs.Int("calls", instrument.DefaultCallLimit, "record the first `N` stream events of each site in full, then only those numbered by powers of two, as culprit slice; 100 once the test binary has recorded 2^25 events (-1: all)")
	timeout := addTimeoutFlag(fs)
	wf := addWebFlags(fs)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), flowUsage)
		fs.PrintDefaults()
	}
	pkgs, goFlags, done, status := splitArgs(e, fs, args)
	if done {
		return status
	}
	switch *format {
	case "text", "dot", "svg", "png", "json":
	default:
		errorf(e, "flow: -format %q: want text, dot, svg, png or json", *format)
		return exitUsage
	}
	if *ret != "" && *varAt != "" {
		errorf(e, "flow: -return and -var exclude each other")
		return exitUsage
	}
	if *traceDir != "" && (len(pkgs) > 0 || len(goFlags) > 0 || *run != "") {
		errorf(e, "flow: -trace reads an existing trace: it takes no packages, -run or go test flags")
		return exitUsage
	}
	b := newBudget(e, "flow", *timeout)
	defer b.close()
	dir := *traceDir
	b.traceAt = dir
	program := false
	timedOut := false // the test binary was stopped by -timeout
	if dir == "" && len(pkgs) == 1 && *run == "" && *testName == "" {
		var err error
		if program, err = instrument.IsMain(e.ctx, "", pkgs[0], nil); err != nil {
			if outsideModule(err) {
				return noModuleError(e, "flow")
			}
			errorf(e, "flow: %v", err)
			return exitFail
		}
	}
	if program {
		var progOut bytes.Buffer
		var w io.Writer = &progOut
		if *testOut {
			w = e.stderr
		}
		var res *instrument.Result
		took, err := b.run(traceGuess(), func(ctx context.Context) (err error) {
			res, err = instrument.RunProgram(ctx, instrument.Program{
				Config: instrument.Config{Packages: pkgs, Events: trace.AllEvents, Stdout: w, Stderr: w, CallLimit: *calls, Inlinable: true, NoInline: true},
				Args:   goFlags, Stdin: e.stdin,
			})
			return err
		})
		if errors.Is(err, errStopped) {
			return exitFail
		}
		if err != nil {
			e.stderr.Write(progOut.Bytes()) // go build's errors
			return instrumentFailed(e, "flow", err)
		}
		if res.ExitCode != 0 {
			fmt.Fprintf(e.stderr, "culprit: flow: note: the program exited with status %d\n", res.ExitCode)
		}
		dir = res.TraceDir
		b.ran(took, dir)
		*testName = instrument.ProgramRun
	} else if dir == "" {
		if *run != "" {
			goFlags = append([]string{"-run", *run}, goFlags...)
		} else if *testName != "" {
			goFlags = append([]string{"-run", runPattern(*testName)}, goFlags...)
		}
		goFlags = buildFlags(goFlags)
		var goOut bytes.Buffer
		var w io.Writer = &goOut
		if *testOut {
			w = e.stderr
		}
		var res *instrument.Result
		took, err := b.run(traceGuess(), func(ctx context.Context) (err error) {
			// The module's packages the tests import are instrumented
			// too: a value computed there is followed into them.
			res, err = instrument.Run(ctx, instrument.Config{
				Packages: pkgs, ModuleImports: true, Events: trace.AllEvents, GoFlags: goFlags,
				Stdout: w, Stderr: w, CallLimit: *calls, SamplePerTest: true, SampleTest: *testName, OnlyRelated: onlyTest(*run, *testName) != nil && !wf.on(), Inlinable: true, NoInline: true,
				Tests: onlyTest(*run, *testName),
			})
			return err
		})
		if errors.Is(err, errStopped) {
			return exitFail
		}
		if err != nil {
			return instrumentFailed(e, "flow", err)
		}
		dir = res.TraceDir
		if runTrouble(e, "flow", res) {
			return exitFail
		}
		timedOut = len(res.TimedOut) > 0
		b.ran(took, dir)
	}
	if wf.on() {
		return serveWeb(e, "flow", wf, dir, web.Options{Test: *testName, Start: "/flow", Flow: flow.Options{Test: *testName, Return: *ret,
			Call: *call, Var: *varAt, NoCond: *noCond, Reduce: *reduce, Unfold: *unfold, Depth: *depth, Focus: *focus}})
	}
	// The events are streamed from the trace, not held: memory grows
	// with the graph, whose nodes and edges deps bounds by the trace's
	// size (deps.Options.MaxNodes: past it versions merge, with a note).
	var r *deps.Run
	err := b.phase("building the dependence graph", func() (err error) {
		r, err = deps.BuildStream(dir, deps.Options{Test: *testName, Versions: true})
		return err
	})
	if errors.Is(err, errStopped) {
		return exitFail
	}
	if err != nil {
		errorf(e, "flow: %v", err)
		if errors.Is(err, os.ErrNotExist) {
			return exitUsage
		}
		if timedOut {
			return exitFail // the timeout, noted above, is why
		}
		return exitUsage
	}
	var g *flow.Graph
	err = b.phase("building the flow graph", func() (err error) {
		g, err = flow.FromRun(r, flow.Options{Test: *testName, Return: *ret, Call: *call, Var: *varAt,
			NoCond: *noCond, Reduce: *reduce, Unfold: *unfold, Depth: *depth, Focus: *focus})
		return err
	})
	if errors.Is(err, errStopped) {
		return exitFail
	}
	if err != nil {
		errorf(e, "flow: %v", err)
		if timedOut {
			return exitFail // the timeout, noted above, is why
		}
		return exitUsage
	}
	info := sfl.SliceInfo{Root: r.Root, Package: g.Package, Test: g.Test, Outcome: g.Outcome.String()}
	var buf bytes.Buffer
	switch *format {
	case "text":
		err = sfl.FlowText(&buf, g, info)
	case "json":
		err = sfl.FlowJSONTo(&buf, g, info)
	default:
		err = sfl.FlowDOT(&buf, g, info)
	}
	if err != nil {
		errorf(e, "flow: %v", err)
		return exitFail
	}
	data := buf.Bytes()
	if *format == "svg" || *format == "png" {
		rendered, err := renderDOT(e, *format, data)
		if err != nil {
			errorf(e, "flow: %v", err)
			return exitFail
		}
		if rendered == nil && strings.HasSuffix(*out, "."+*format) {
			*out = strings.TrimSuffix(*out, "."+*format) + ".dot"
			fmt.Fprintf(e.stderr, "culprit: flow: wrote DOT to %s\n", *out)
		}
		if rendered != nil {
			data = rendered
		}
	}
	if *out == "" {
		e.stdout.Write(data)
	} else if err := os.WriteFile(*out, data, 0o644); err != nil {
		errorf(e, "flow: write output: %v", err)
		return exitFail
	}
	for _, n := range g.Notes {
		fmt.Fprintf(e.stderr, "culprit: flow: note: %s\n", n)
	}
	return exitOK
}

// renderDOT renders DOT to svg or png with Graphviz's dot; it returns
// nil, saying so, when dot is not installed.
func renderDOT(e *env, format string, data []byte) ([]byte, error) {
	dot, err := exec.LookPath("dot")
	if err != nil {
		fmt.Fprintf(e.stderr, "culprit: flow: Graphviz dot is not installed: writing DOT instead of %s\n", strings.ToUpper(format))
		return nil, nil
	}
	cmd := exec.CommandContext(e.ctx, dot, "-T"+format)
	cmd.Stdin = bytes.NewReader(data)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	res, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("dot -T%s: %v: %s", format, err, bytes.TrimSpace(stderr.Bytes()))
	}
	return res, nil
}
