package cli

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/culprit-go/culprit/internal/instrument"
	sfl "github.com/culprit-go/culprit/report"
	"github.com/culprit-go/culprit/spectrum"
	"github.com/culprit-go/culprit/web"
)

const rankUsage = `Usage: culprit rank [flags] [packages] [-- go test flags]

Rank runs the packages' tests once, instrumented (as culprit test does,
leaving the trace in .culprit at the module root), and ranks the events
the tests executed by how strongly they correlate with failing tests:
statistical fault localization. With -trace DIR it ranks an existing trace
instead, without running anything.

Each leaf test (a test without subtests, a subtest, an example, a fuzz
seed) is one run, passing or failing; code a parent test runs outside its
subtests counts for each of its leaves; skipped tests are left out.

Event kinds (-events, comma-separated, or all):
  stmt    statements executed (the default; statements sharing a line are distinct)
  branch  branch outcomes: if/for conditions true or false, switch and select cases
  func    functions entered
  value   values assigned ("x = 3" at the assignment) and argument and
          result values at function entry and exit; at most 16 distinct
          values per place and name, long strings abbreviated
  pred    predicates at each assignment, use of a variable, function entry
          and exit: a number compared with the other numeric variables of
          the same call ("i < n") and with zero ("result > 0"); nil-ness
          ("err == nil"), emptiness of strings, slices and maps; the
          sign, nil-ness or emptiness of call results at the call

Metrics (-metric, default ochiai; all for a side-by-side table): tarantula,
ochiai, ochiai2, dstar (-dstar-exp), jaccard, op2, barinel, kulczynski2,
zoltar. Formulas and sources: docs/rank.md.

Formats (-format): text (a ranked list), listing (the source with each
executed line's suspiciousness, colored on a terminal; -list restricts it
to files or functions), table (the event table: events by runs), html (one
self-contained page), sarif (SARIF 2.1.0), json (schema in docs/rank.md).
-tree prints a decision tree over the events instead.

With -http HOST:PORT rank serves the web view of the run instead of
printing it (docs/web.md). Without -metric, -events or -trace its ranking
page shows the diagnosis, each line with its evidence, and the single
metric's ranking a tab away; the tests run once more, recording every
event, for the view's source, slices and graphs.

Sharding (CI matrix jobs): culprit rank -shard i/n [-o FILE] runs the
top-level tests whose name hashes to shard i of n (with their subtests)
and writes their spectra file (JSON, versioned, docs/rank.md) instead of
a ranking; every test is in exactly one shard. The test binaries are
built once: go test runs them through culprit (-exec), which lists each
binary's tests and runs the shard's. culprit rank -merge FILES...
diagnoses the shards' files as one suite (shards for it record
-events stmt,branch; its slices and mutants run where it runs), or with
-metric ranks them.

Exit status: 0 when a ranking was written (whether or not tests failed:
failing tests are the input), 2 for bad flags or packages and when no test
failed (nothing to localize), 1 when the tests could not be run or the
trace not read.

Flags:
`

// runRank ranks the events of a test run by suspiciousness.
func runRank(e *env, args []string) int {
	if len(args) > 0 && args[0] == shardExecFlag {
		return shardExec(e, args[1:])
	}
	fs := flag.NewFlagSet("rank", flag.ContinueOnError)
	metricName := fs.String("metric", "ochiai", "suspiciousness `METRIC`, or all")
	star := fs.Float64("dstar-exp", 2, "the exponent of the dstar metric")
	top := fs.Int("top", 10, "show the `N` most suspicious events (0: all; json and sarif show all unless -top is given)")
	format := fs.String("format", "text", "output `FORMAT`: text, listing, table, html, sarif or json")
	out := fs.String("o", "", "write the output to `FILE` instead of standard output")
	events := fs.String("events", "stmt", "event kinds to rank: `LIST` of stmt, branch, func, value(s), pred(s), or all")
	traceDir := fs.String("trace", "", "rank the existing trace in `DIR` instead of running the tests")
	list := fs.String("list", "", "listing of the files or functions whose name contains `NAME` (implies -format listing)")
	tree := fs.Bool("tree", false, "print a decision tree (CART, Gini) over the events separating failing from passing tests")
	depth := fs.Int("depth", 3, "depth of the -tree decision tree")
	threshold := fs.Float64("threshold", 0, "sarif: report only events scoring above `SCORE`")
	testOut := fs.Bool("testout", false, "show go test's output on standard error (it is shown anyway when no test ran)")
	testFiles := fs.Bool("testfiles", false, "rank events in _test.go files too (left out by default)")
	color := fs.String("color", "auto", "color the listing: auto (on a terminal), always or never")
	shard := fs.String("shard", "", "run shard `i/n` of the tests (1 <= i <= n, by a hash of each top-level test's name) and write its spectra file instead of a ranking")
	merge := fs.Bool("merge", false, "rank the spectra files given as arguments (written by -shard) as one suite: without -metric the diagnosis, its slices and mutants run here; with it, without running anything")
	inlinable := fs.Bool("inlinable", false, "record values in small functions the compiler would inline too (allocation counts can change)")
	diagTest := fs.String("test", "", "diagnose the failing tests that fail as `NAME` does alone (default: every failing test, the groups named)")
	slices := fs.Int("slices", maxSliced, "slice up to `N` failing tests for the diagnosis, one of each group in turn, but not a package's whose trace is over 32 MiB (0: none)")
	mutants := fs.Bool("mutants", true, "mutate the most suspicious functions' lines for the diagnosis")
	cases := fs.Bool("cases", false, "diagnosis: count the cases of a sliced failing test that passed (a table-driven test without subtests) as passing runs (test case purification; off by default: on the real-fault corpus's training bugs it ranked faults that passing cases also ran lower)")
	mutBudget := fs.Duration("mutation-budget", 0, "time limit of the mutation step, building included, a safety net for slow tests: mutants it leaves out are noted, and the ranking then depends on the machine's speed (default: twice the instrumented run, loading and building included, and at least 30s)")
	mutMax := fs.Int("mutation-max", defaultMutationMax, "make and run at most `N` mutants, the most suspicious lines' first, so that the diagnosis does not depend on the machine's speed (0: no cap)")
	mutFuncs := fs.Int("mutate-funcs", 5, "mutate the lines of the `N` most suspicious functions")
	timeout := fs.Duration("timeout", 0, "diagnosis: stop after `D` and rank with the evidence gathered by then, saying what was left out (default 0: slices and mutants may take ten times the instrumented test run plus a minute; negative: no limit)")
	wf := addWebFlags(fs)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), rankUsage)
		fs.PrintDefaults()
	}
	pkgs, goFlags, done, status := splitArgs(e, fs, args)
	if done {
		return status
	}
	topSet := false
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { topSet = topSet || f.Name == "top"; set[f.Name] = true })
	// The diagnosis is the default: a single metric, a trace, shards,
	// a tree or a listing ask for the single metric's ranking.
	diagnose := !set["metric"] && !set["events"] && !set["dstar-exp"] && !*tree && *shard == "" && !*merge && *traceDir == "" && *list == ""
	diag := diagFlags{format: *format, out: *out, top: *top, test: *diagTest, testOut: *testOut,
		testFiles: *testFiles, slices: *slices, cases: *cases, timeout: *timeout,
		mutation: mutationFlags{on: *mutants, budget: *mutBudget, max: *mutMax, funcs: *mutFuncs, passing: 20}}
	if diagnose && wf.on() {
		// The web view shows the diagnosis on its ranking page, the
		// single metric's a tab away.
		return serveDiagnosis(e, wf, diag, pkgs, goFlags)
	}
	if diagnose && (*format == "text" || *format == "json") {
		if !topSet && *format == "json" {
			diag.top = 0
		}
		return runDiagnosis(e, diag, pkgs, goFlags)
	}
	if *list != "" {
		*format = "listing"
	}
	switch *format {
	case "text", "listing", "table", "html", "sarif", "json":
	default:
		errorf(e, "rank: -format %q: want text, listing, table, html, sarif or json", *format)
		return exitUsage
	}
	if !topSet && (*format == "json" || *format == "sarif" || *format == "table") {
		*top = 0
	}
	kinds, err := spectrum.ParseKinds(*events)
	if err != nil {
		errorf(e, "rank: -events: %v", err)
		return exitUsage
	}
	var metrics []spectrum.Metric
	if *metricName == "all" {
		metrics = spectrum.Metrics(*star)
	} else {
		m, err := spectrum.MetricByName(*metricName, *star)
		if err != nil {
			errorf(e, "rank: -metric: %v", err)
			return exitUsage
		}
		metrics = []spectrum.Metric{m}
	}
	if *color != "auto" && *color != "always" && *color != "never" {
		errorf(e, "rank: -color %q: want auto, always or never", *color)
		return exitUsage
	}
	if *traceDir != "" && (len(pkgs) > 0 || len(goFlags) > 0) {
		errorf(e, "rank: -trace ranks an existing trace: it takes no packages or go test flags")
		return exitUsage
	}
	shardN := 0
	if *shard != "" {
		if _, shardN, err = spectrum.ParseShard(*shard); err != nil {
			errorf(e, "rank: -shard: %v", err)
			return exitUsage
		}
		switch {
		case *traceDir != "" || *merge:
			errorf(e, "rank: -shard runs tests: it takes neither -trace nor -merge")
			return exitUsage
		case hasRunFlag(goFlags):
			errorf(e, "rank: -shard selects the tests with go test -run: it cannot be combined with -run")
			return exitUsage
		case hasGoFlag(goFlags, "exec"):
			errorf(e, "rank: -shard runs the test binaries through go test -exec: it cannot be combined with -exec")
			return exitUsage
		}
	}
	if *merge && (*traceDir != "" || len(pkgs) == 0 || len(goFlags) > 0) {
		errorf(e, "rank: -merge takes spectra files as arguments, and neither -trace nor go test flags")
		return exitUsage
	}

	if *merge && !set["metric"] && !set["events"] && !set["dstar-exp"] && !*tree && *list == "" && !wf.on() && (*format == "text" || *format == "json") {
		// The shards' spectra, merged, diagnosed here.
		if !topSet && *format == "json" {
			diag.top = 0
		}
		return runMergedDiagnosis(e, diag, pkgs)
	}

	dir := *traceDir
	ranNothing := false
	var s *spectrum.Spectra
	if *merge {
		s, err = mergeFiles(pkgs, kinds, eventsSet(fs))
		if err != nil {
			errorf(e, "rank: -merge: %v", err)
			return exitUsage
		}
		kinds = s.Kinds
	} else if shardN > 0 {
		// go test builds each test binary once and runs it through
		// culprit, which lists the binary's tests and runs this shard's.
		self, err := executable()
		if err != nil {
			errorf(e, "rank: -shard: %v", err)
			return exitFail
		}
		goFlags = append(goFlags, "-exec", quoteField(self)+" rank "+shardExecFlag+" "+*shard)
	}
	var unrecorded []string // files whose code records nothing (cgo, assembly)
	if dir == "" && s == nil {
		var goOut bytes.Buffer
		var w io.Writer = &goOut
		if *testOut {
			w = e.stderr
		}
		runFlags := goFlags
		if !hasGoFlag(runFlags, "parallel") {
			// One test at a time, as the diagnosis runs them: a test
			// beside another would hold the other's lines.
			runFlags = withGoFlag(runFlags, "-parallel=1")
		}
		res, err := instrument.Run(e.ctx, instrument.Config{
			Packages:  pkgs,
			Events:    spectrum.Needs(kinds) | wf.events(),
			GoFlags:   runFlags,
			Inlinable: *inlinable,
			Stdout:    w,
			Stderr:    w,
			// The view slices the failing test's run, as culprit slice
			// records it.
			SamplePerTest: wf.on(),
			// A test's panic ends its binary: the tests after it run
			// in another, or the spectra would lack their passing runs.
			Resume: true,
		})
		if err != nil {
			return instrumentFailed(e, "rank", err)
		}
		dir = res.TraceDir
		if runTrouble(e, "rank", res) {
			return exitFail
		}
		unrecorded = res.Unrecorded
		defer func() {
			// go test's output explains a run without tests.
			if goOut.Len() > 0 && res.ExitCode != 0 && !*testOut && ranNothing {
				e.stderr.Write(goOut.Bytes())
			}
		}()
	}
	if wf.on() && s == nil && shardN == 0 {
		return serveWeb(e, "rank", wf, dir, web.Options{Metric: metrics[0], Kinds: kinds, TestFiles: *testFiles})
	}
	if s == nil {
		s, err = spectrum.Load(dir, spectrum.Options{Kinds: kinds, TestFiles: *testFiles})
		if err != nil {
			errorf(e, "rank: %v", err)
			if errors.Is(err, os.ErrNotExist) {
				return exitUsage
			}
			return exitFail
		}
	}
	if shardN > 0 {
		if len(s.Runs) == 0 {
			fmt.Fprintf(e.stderr, "culprit: rank: shard %s: no test of this shard ran\n", *shard)
		}
		return writeShard(e, s, kinds, *shard, *out)
	}
	switch {
	case len(s.Runs) == 0:
		ranNothing = true
		errorf(e, "rank: no test ran: nothing to rank")
		if *traceDir == "" {
			return exitFail
		}
		return exitUsage
	case s.Failed() == 0:
		errorf(e, "rank: no failing test: nothing to rank (%d tests passed)", s.Passed())
		return exitUsage
	case len(s.Events) == 0 && len(unrecorded) > 0:
		errorf(e, "rank: nothing to rank: the tests ran no code culprit records (the notes above say which files it cannot instrument)")
		return exitFail
	case s.Passed() == 0:
		fmt.Fprintf(e.stderr, "culprit: rank: warning: all %d tests failed: the ranking cannot tell their events apart\n", s.Failed())
	}

	w := e.stdout
	var file *os.File
	if *out != "" {
		file, err = os.Create(*out)
		if err != nil {
			errorf(e, "rank: %v", err)
			return exitUsage
		}
		w = file
	}
	// Notes go to standard error, apart from the ranking: the text
	// format would print them as "# note:" lines among its results.
	notes := s.Notes
	if *format == "text" {
		s.Notes = nil
	}
	opt := sfl.Options{Top: *top, Threshold: *threshold, List: *list, Metrics: metrics}
	opt.Color = *color == "always" || (*color == "auto" && isTerminal(w))
	r := spectrum.Rank(s, metrics[0])
	switch {
	case *tree:
		err = spectrum.WriteRules(w, s, spectrum.Tree(s, spectrum.TreeOptions{MaxDepth: *depth}))
	case len(metrics) > 1 && *format == "text":
		err = sfl.MetricsTable(w, s, opt)
	case len(metrics) > 1:
		err = fmt.Errorf("-metric all makes a text table only, not %s", *format)
	case *format == "text":
		err = sfl.Text(w, r, opt)
	case *format == "listing":
		err = sfl.Listing(w, r, opt)
	case *format == "table":
		err = sfl.Table(w, r, opt)
	case *format == "html":
		err = sfl.HTML(w, r, opt)
	case *format == "sarif":
		err = sfl.SARIF(w, r, opt)
	case *format == "json":
		err = sfl.JSON(w, r, kinds.String(), opt)
	}
	if file != nil {
		if cerr := file.Close(); err == nil && cerr != nil {
			err = cerr
		}
	}
	if err != nil {
		errorf(e, "rank: %v", err)
		return exitFail
	}
	for _, n := range notes {
		fmt.Fprintf(e.stderr, "culprit: rank: note: %s\n", n)
	}
	if *out != "" {
		abs, _ := filepath.Abs(*out)
		fmt.Fprintf(e.stderr, "culprit: rank: %s written (%s)\n", abs, strings.TrimSpace(sfl.Header(r)))
	}
	return exitOK
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	return os.Getenv("NO_COLOR") == "" && charDevice(w)
}

// hasRunFlag reports whether go test flags select tests with -run.
func hasRunFlag(flags []string) bool {
	return hasGoFlag(flags, "run") || hasGoFlag(flags, "test.run")
}

// hasGoFlag reports whether go test flags hold -name or -name=value.
func hasGoFlag(flags []string, name string) bool {
	for _, f := range flags {
		f = strings.TrimLeft(f, "-")
		if f == name || strings.HasPrefix(f, name+"=") {
			return true
		}
	}
	return false
}

// shardExecFlag is culprit rank's hidden first argument when go test runs
// a test binary through it for -shard: "culprit rank -shard-exec i/n
// BINARY ARGS..." (see shardExec).
const shardExecFlag = "-shard-exec"

// shardExec is go test's -exec program for culprit rank -shard i/n: go
// test has built the instrumented test binary once and calls this with
// the binary and its arguments (in the package's directory). It lists
// the binary's tests, examples and fuzz targets (-test.list), keeps the
// top-level names of shard i (spectrum.ShardOf) and runs the binary on
// them alone (-test.run), passing its output and exit status through. A
// package with no test in the shard runs none (-test.run '^$').
func shardExec(e *env, args []string) int {
	if len(args) < 2 {
		errorf(e, "rank %s: want i/n BINARY [ARGS]", shardExecFlag)
		return exitUsage
	}
	i, n, err := spectrum.ParseShard(args[0])
	if err != nil {
		errorf(e, "rank %s: %v", shardExecFlag, err)
		return exitUsage
	}
	bin, binArgs := args[1], args[2:]
	list := exec.CommandContext(e.ctx, bin, "-test.list", ".")
	var listOut bytes.Buffer
	list.Stdout, list.Stderr = &listOut, e.stderr
	if err := list.Run(); err != nil {
		e.stdout.Write(listOut.Bytes())
		errorf(e, "rank -shard %s: list the tests of %s: %v", args[0], bin, err)
		return exitFail
	}
	var mine []string
	for _, name := range testNames(listOut.String()) {
		if spectrum.ShardOf(name, n) == i {
			mine = append(mine, regexp.QuoteMeta(name))
		}
	}
	run := "^$"
	if len(mine) > 0 {
		run = "^(" + strings.Join(mine, "|") + ")$"
	}
	cmd := exec.CommandContext(e.ctx, bin, append(binArgs, "-test.run="+run)...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = e.stdin, e.stdout, e.stderr
	err = cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &exit) && exit.ExitCode() > 0:
		return exit.ExitCode()
	}
	errorf(e, "rank -shard %s: run %s: %v", args[0], bin, err)
	return exitFail
}

// testNames returns the names of the tests, examples and fuzz targets in
// the output of a test binary's -test.list (benchmarks and lines a
// TestMain printed left out).
func testNames(list string) []string {
	var names []string
	for _, line := range strings.Split(list, "\n") {
		if (strings.HasPrefix(line, "Test") || strings.HasPrefix(line, "Example") || strings.HasPrefix(line, "Fuzz")) && !strings.ContainsAny(line, " \t") {
			names = append(names, line)
		}
	}
	return names
}

// executable returns the path of the running culprit, as it was invoked
// when that can be found (a copy of a test binary standing in for
// culprit is named by how it was invoked), else as the system tells.
func executable() (string, error) {
	if a := os.Args[0]; a != "" {
		if !strings.ContainsRune(a, filepath.Separator) {
			if p, err := exec.LookPath(a); err == nil {
				a = p
			}
		}
		if abs, err := filepath.Abs(a); err == nil {
			if st, err := os.Stat(abs); err == nil && st.Mode().IsRegular() {
				return abs, nil
			}
		}
	}
	p, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("find culprit's executable for go test -exec: %w", err)
	}
	return p, nil
}

// quoteField quotes a path for go test -exec, which splits its value
// into fields at spaces and honours single and double quotes.
func quoteField(s string) string {
	if !strings.ContainsAny(s, " \t'\"") {
		return s
	}
	if !strings.Contains(s, "'") {
		return "'" + s + "'"
	}
	return `"` + s + `"`
}

// writeShard writes a shard's spectra file to out (standard output when "").
func writeShard(e *env, s *spectrum.Spectra, kinds spectrum.Kinds, shard, out string) int {
	w := e.stdout
	var file *os.File
	if out != "" {
		var err error
		if file, err = os.Create(out); err != nil {
			errorf(e, "rank: %v", err)
			return exitUsage
		}
		w = file
	}
	err := s.Write(w, kinds, shard)
	if file != nil {
		if cerr := file.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		errorf(e, "rank: %v", err)
		return exitFail
	}
	fmt.Fprintf(e.stderr, "culprit: rank: shard %s: %d failing and %d passing runs, %d events\n", shard, s.Failed(), s.Passed(), len(s.Events))
	return exitOK
}

// eventsSet reports whether -events was given.
func eventsSet(fs *flag.FlagSet) bool { return isSet(fs, "events") }

// isSet reports whether the flag name was given on the command line.
func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// mergeFiles reads and merges spectra files. They must hold the same
// event kinds; with -events (explicit), the merged spectra keep those
// kinds, which the files must hold.
func mergeFiles(names []string, kinds spectrum.Kinds, explicit bool) (*spectrum.Spectra, error) {
	var all []*spectrum.Spectra
	var have spectrum.Kinds
	for i, name := range names {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		s, k, err := spectrum.Read(bufio.NewReader(f))
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if i > 0 && k != have {
			return nil, fmt.Errorf("%s holds events %s, %s holds %s: shards must record the same kinds", name, k, names[0], have)
		}
		have = k
		all = append(all, s)
	}
	s := spectrum.Merge(all...)
	s.Kinds = have
	if explicit && kinds != have {
		if kinds&^have != 0 {
			return nil, fmt.Errorf("-events %s: the files hold %s", kinds, have)
		}
		k := kinds
		s = s.Filter(func(e spectrum.Event) bool { return k.Has(e.Kind) })
		s.Kinds = k
	}
	if st, err := os.Stat(s.Root); err != nil || !st.IsDir() {
		// Shards ran on another machine: read sources here.
		if wd, err := os.Getwd(); err == nil {
			s.Root = wd
			if root := moduleRoot(wd); root != "" {
				s.Root = root
			}
		}
	}
	return s, nil
}
