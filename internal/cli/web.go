package cli

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"

	"github.com/culprit-go/culprit/internal/instrument"
	sfl "github.com/culprit-go/culprit/report"
	"github.com/culprit-go/culprit/spectrum"
	"github.com/culprit-go/culprit/trace"
	"github.com/culprit-go/culprit/web"
)

const webUsage = `Usage: culprit web -trace DIR [-http HOST:PORT] [flags]

Web serves a local view of an existing trace, as go tool pprof -http
does for a profile: the ranking (each entry linking to its line), the
source colored by Tarantula's spectrum, the backward and forward slices
of any executed line with its data and control dependencies as links,
graphs of slices and of flow output (drawn by Graphviz's dot), each
function's mined invariants and types beside its source, and a guided
path through the statements left to inspect. Every analysis command
(rank, slice, mine, flow) takes -http too, to open the view of the run
it just made. The manual: docs/web.md.

The trace should be recorded with every event kind (culprit test -events
all, or culprit slice) for slices, invariants and flow; a trace of
statements only shows the ranking and says what else is missing.

-diagnosis FILE shows on the ranking page the diagnosis culprit rank
wrote with -format json -o FILE (each line's rank, its function's, its
score and its evidence), the single metric's ranking a tab away; culprit
rank -http shows the diagnosis it just made.

The view binds loopback addresses only: traces hold the values the
program computed, which may be secrets. -http-any allows any address.
It runs until interrupted (Ctrl-C).

Flags:
`

// webFlags are the flags every analysis command takes to open its
// results in the web view.
type webFlags struct {
	addr *string
	any  *bool
}

// addWebFlags declares -http and -http-any on fs.
func addWebFlags(fs *flag.FlagSet) webFlags {
	return webFlags{
		addr: fs.String("http", "", "serve the web view of the results on `HOST:PORT` (loopback only; e.g. localhost:8080, :0 picks a port) instead of printing them"),
		any:  fs.Bool("http-any", false, "let -http bind addresses other than loopback (anyone who reaches it reads the trace, which may hold secrets)"),
	}
}

// on reports whether -http was given.
func (wf webFlags) on() bool { return *wf.addr != "" }

// events returns the trace events the view needs on top of a command's
// own: all of them when -http is given, so every page has its data.
func (wf webFlags) events() trace.EventSet {
	if wf.on() {
		return trace.AllEvents
	}
	return 0
}

// serveWeb serves the web view of the trace in dir on -http until the
// command's context is cancelled, and returns the command's status.
func serveWeb(e *env, name string, wf webFlags, dir string, opt web.Options) int {
	ln, status := listenWeb(e, name, wf)
	if ln == nil {
		return status
	}
	defer ln.Close()
	return serveOn(e, name, ln, dir, opt)
}

// listenWeb listens on -http, or says why it cannot and returns a nil
// listener and the command's status.
func listenWeb(e *env, name string, wf webFlags) (net.Listener, int) {
	if *wf.any {
		fmt.Fprintf(e.stderr, "culprit: %s: warning: -http-any: the view may be reachable from other machines, and traces may contain secrets\n", name)
	}
	ln, err := web.Listen(*wf.addr, *wf.any)
	if err != nil {
		errorf(e, "%s: %v (-http-any allows it)", name, err)
		return nil, exitUsage
	}
	return ln, exitOK
}

// serveOn serves the web view of the trace in dir on ln until the
// command's context is cancelled, and returns the command's status.
func serveOn(e *env, name string, ln net.Listener, dir string, opt web.Options) int {
	s, err := web.Load(dir, opt)
	if err != nil {
		errorf(e, "%s: %v", name, err)
		if errors.Is(err, os.ErrNotExist) {
			return exitUsage
		}
		return exitFail
	}
	fmt.Fprintf(e.stderr, "culprit: %s: serving the web view of %s on %s (Ctrl-C stops it)\n", name, dir, web.URL(ln))
	if err := s.Serve(e.ctx, ln); err != nil {
		errorf(e, "%s: %v", name, err)
		return exitFail
	}
	return exitOK
}

// runWeb serves the web view of an existing trace.
func runWeb(e *env, args []string) int {
	fs := flag.NewFlagSet("web", flag.ContinueOnError)
	traceDir := fs.String("trace", "", "the trace `DIR` to view (required; culprit test writes .culprit at the module root)")
	metricName := fs.String("metric", "ochiai", "rank by suspiciousness `METRIC`")
	testName := fs.String("test", "", "the test whose run to slice (`NAME`); default: the first failing test")
	testFiles := fs.Bool("testfiles", false, "rank events in _test.go files too")
	diagFile := fs.String("diagnosis", "", "show the diagnosis in `FILE` (written by culprit rank -format json -o FILE from the same code) on the ranking page")
	wf := addWebFlags(fs)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), webUsage)
		fs.PrintDefaults()
	}
	if done, status := parseFlags(e, fs, args); done {
		return status
	}
	if fs.NArg() > 0 {
		errorf(e, "web: unexpected arguments %q: the view reads -trace DIR", fs.Args())
		return exitUsage
	}
	if *traceDir == "" {
		errorf(e, "web: -trace DIR is required (record one with culprit test -events all)")
		return exitUsage
	}
	if !wf.on() {
		*wf.addr = "localhost:0"
	}
	m, err := spectrum.MetricByName(*metricName, 2)
	if err != nil {
		errorf(e, "web: -metric: %v", err)
		return exitUsage
	}
	opt := web.Options{Metric: m, Test: *testName, TestFiles: *testFiles}
	if *diagFile != "" {
		f, err := os.Open(*diagFile)
		if err != nil {
			errorf(e, "web: -diagnosis: %v", err)
			return exitUsage
		}
		opt.Diagnosis, opt.DiagnosisInfo, err = sfl.ReadDiagnosisJSON(f)
		f.Close()
		if err != nil {
			errorf(e, "web: -diagnosis %s: %v", *diagFile, err)
			return exitUsage
		}
	}
	return serveWeb(e, "web", wf, *traceDir, opt)
}

// serveDiagnosis is culprit rank -http without -metric: it makes the
// diagnosis as rank does (the tests, slices of the failing group,
// mutants), runs the tests again recording every event for the view's
// other pages, and serves the view with the diagnosis on its ranking
// page. The address is checked first, before anything runs.
func serveDiagnosis(e *env, wf webFlags, f diagFlags, pkgs, goFlags []string) int {
	ln, status := listenWeb(e, "rank", wf)
	if ln == nil {
		return status
	}
	defer ln.Close()

	// The diagnosis, as rank -format json writes it: JSON is its
	// contract (notes and errors still go to standard error).
	var js bytes.Buffer
	de := *e
	de.stdout = &js
	f.format, f.out, f.top = "json", "", 0
	if status := runDiagnosis(&de, f, pkgs, goFlags); status != exitOK {
		return status
	}
	d, info, err := sfl.ReadDiagnosisJSON(&js)
	if err != nil {
		errorf(e, "rank: %v", err)
		return exitFail
	}

	// The view's trace: every event of the same code, each test's
	// sampling restarted so that the failing test's run can be sliced.
	more, err := instrument.ModuleImports(e.ctx, instrument.Config{Packages: pkgs, GoFlags: goFlags})
	if err != nil {
		return instrumentFailed(e, "rank", err)
	}
	var w io.Writer = io.Discard // the first run showed what the tests said
	if f.testOut {
		w = e.stderr
	}
	res, err := instrument.Run(e.ctx, instrument.Config{Packages: pkgs, Instrument: more, Events: trace.AllEvents, GoFlags: goFlags,
		Stdout: w, Stderr: w, SamplePerTest: true})
	if err != nil {
		return instrumentFailed(e, "rank", err)
	}
	if len(res.Broken) > 0 && runTrouble(e, "rank", res) {
		return exitFail
	}
	return serveOn(e, "rank", ln, res.TraceDir, web.Options{Metric: spectrum.Ochiai, TestFiles: f.testFiles, Diagnosis: d, DiagnosisInfo: info})
}
