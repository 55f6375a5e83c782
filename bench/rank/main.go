// Command rank measures how well culprit rank localizes faults: it
// injects single-statement faults into real modules (the latest version
// from the module proxy, copied out of the module cache; only the copy is
// changed), keeps the mutants that make at least one test fail, runs the
// tests once per mutant instrumented, and ranks the events of each event
// kind with every metric. It prints, per metric and event kind, the share
// of faults ranked in the top 1, 3, 5 and 10 and the mean EXAM score,
// with the best, average (expected under random tie breaking) and worst
// placement of the fault within its tie.
//
// Mutation operators, each on one statement inside a function body of a
// non-test file: flip (a comparison negated: < becomes >=, == becomes
// !=), const (an integer literal off by one), swap (the operands of -, /,
// %, <<, >>, <, >, <=, >= exchanged), delete (an expression, assignment or
// ++/-- statement replaced by {}). Candidates are shuffled with -seed,
// operators interleaved; mutants that do not compile or time out are
// skipped, and at most -tries candidates are tried per module.
//
// The unit of inspection is the line: a line's score is the best score of
// its events of the kind, the fault is the first line of the mutated
// statement, and lines executed by the tests that no event of the kind
// sits on are placed, tied, after every ranked line. EXAM is the fault's
// position over the number of executed lines.
//
// With -diagnosis, culprit rank's diagnosis (its default answer: spectra,
// slices, stacks and mutants fused) is run too on each kept mutant, on
// the packages whose tests it failed, as a user would; the fault is
// placed in it the same way and its time compared with those packages'
// plain go test.
//
// Usage:
//
//	go run ./bench/rank [-modules a,b] [-mutants 20] [-events stmt,pred] [-seed 1] [-work DIR] [-markdown] [-diagnosis]
package main

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
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/culprit-go/culprit/bench/internal/proof"
	"github.com/culprit-go/culprit/internal/instrument"
	"github.com/culprit-go/culprit/report"
	"github.com/culprit-go/culprit/spectrum"
)

// defaultModules are small modules of the instrumentation proof.
var defaultModules = []string{
	"github.com/google/uuid",
	"github.com/Masterminds/semver/v3",
	"github.com/dustin/go-humanize",
	"github.com/google/btree",
}

func main() {
	mods := flag.String("modules", strings.Join(defaultModules, ","), "comma-separated module paths")
	perModule := flag.Int("mutants", 20, "failing mutants to keep per module")
	tries := flag.Int("tries", 0, "candidates to try per module (0: 5 x -mutants)")
	seed := flag.Int64("seed", 1, "seed of the mutants' order")
	events := flag.String("events", "stmt,pred", "comma-separated event kinds to evaluate, each ranked alone (join kinds with + to rank them together: stmt+pred)")
	work := flag.String("work", "", "work directory (default: a temporary one, removed)")
	markdown := flag.Bool("markdown", false, "print the tables as Markdown")
	timeout := flag.Duration("timeout", 2*time.Minute, "time limit of one go test run")
	inlinable := flag.Bool("inlinable", false, "record values in small inlinable functions too")
	metricList := flag.String("metrics", "all", "comma-separated metrics to report, or all")
	jsonOut := flag.String("json", "", "also write every kept mutant's placements to `FILE`")
	diag := flag.Bool("diagnosis", false, "also run culprit rank's diagnosis (its default) on each kept mutant's failing packages and place the fault in it")
	bin := flag.String("culprit", "", "-diagnosis: the culprit binary (default: built from this checkout)")
	flag.Parse()
	if *tries == 0 {
		*tries = 5 * *perModule
	}
	metrics = spectrum.Metrics(2)
	if *metricList != "all" {
		metrics = nil
		for _, name := range strings.Split(*metricList, ",") {
			m, err := spectrum.MetricByName(name, 2)
			if err != nil {
				fmt.Fprintln(os.Stderr, "rank:", err)
				os.Exit(2)
			}
			metrics = append(metrics, m)
		}
	}
	var kinds []spectrum.Kinds
	var need spectrum.Kinds
	for _, e := range strings.Split(*events, ",") {
		k, err := spectrum.ParseKinds(strings.ReplaceAll(e, "+", ","))
		if err != nil {
			fmt.Fprintln(os.Stderr, "rank:", err)
			os.Exit(2)
		}
		kinds = append(kinds, k)
		need |= k | spectrum.KindsOf(spectrum.Stmt)
	}
	dir := *work
	if dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			fmt.Fprintln(os.Stderr, "rank:", err)
			os.Exit(1)
		}
		dir, _ = filepath.Abs(dir)
	} else {
		d, err := os.MkdirTemp("", "culprit-rank-bench-")
		if err != nil {
			fmt.Fprintln(os.Stderr, "rank:", err)
			os.Exit(1)
		}
		defer os.RemoveAll(d)
		dir = d
	}
	b := &bench{work: dir, kinds: kinds, need: need, timeout: *timeout, inlinable: *inlinable, log: os.Stderr}
	if *diag {
		var err error
		if b.culprit, err = proof.Culprit(dir, *bin); err != nil {
			fmt.Fprintln(os.Stderr, "rank:", err)
			os.Exit(1)
		}
	}
	ctx := context.Background()
	start := time.Now()
	var results []*faultResult
	var sums []modSummary
	for _, m := range strings.Split(*mods, ",") {
		sum, rs, err := b.module(ctx, m, *perModule, *tries, *seed)
		if err != nil {
			fmt.Fprintf(os.Stderr, "rank: %s: %v\n", m, err)
		}
		sums = append(sums, sum)
		results = append(results, rs...)
	}
	fmt.Printf("%s, %s/%s, %d CPUs, %s; seed %d; %s\n\n", time.Now().Format("2006-01-02"), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.Version(), *seed, time.Since(start).Round(time.Second))
	printModules(os.Stdout, sums, *markdown)
	fmt.Println()
	printAccuracy(os.Stdout, results, kinds, *markdown)
	fmt.Println()
	printOperators(os.Stdout, results, kinds[0], *markdown)
	if *jsonOut != "" {
		data, _ := json.MarshalIndent(results, "", "  ")
		if err := os.WriteFile(*jsonOut, data, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "rank:", err)
			os.Exit(1)
		}
	}
}

// printOperators prints, per mutation operator, Ochiai's top-5 and EXAM
// for the event kinds k.
func printOperators(w io.Writer, results []*faultResult, k spectrum.Kinds, markdown bool) {
	m := metrics[0].Name
	rows := [][]string{{"operator", "faults", k.String() + " " + m + " top-1 avg [best-worst]", "top-5", "EXAM"}}
	for _, op := range []string{"flip", "const", "swap", "delete"} {
		var ps []placement
		for _, r := range results {
			if r.Mutant.Op == op {
				ps = append(ps, r.Place[k.String()+"/"+m])
			}
		}
		rows = append(rows, []string{op, fmt.Sprint(len(ps)),
			cell(ps, func(p placement, which int) float64 { return p.top(1, which) }, "%.0f%%"),
			cell(ps, func(p placement, which int) float64 { return p.top(5, which) }, "%.0f%%"),
			cell(ps, func(p placement, which int) float64 { return p.exam(which) }, "%.1f%%")})
	}
	proof.WriteTable(w, rows, markdown)
}

// cell averages f over the placements for the best, average and worst
// placement and prints "average [best-worst]".
func cell(ps []placement, f func(p placement, which int) float64, pct string) string {
	var v [3]float64
	for which := range v {
		for _, p := range ps {
			v[which] += f(p, which)
		}
		if len(ps) > 0 {
			v[which] /= float64(len(ps))
		}
	}
	return fmt.Sprintf(pct+" ["+pct+"-"+pct+"]", 100*v[1], 100*v[0], 100*v[2])
}

// metrics are the metrics reported (-metrics), the first of which the
// progress lines and the per-operator table use.
var metrics []spectrum.Metric

// bench runs the benchmark.
type bench struct {
	work      string
	kinds     []spectrum.Kinds
	need      spectrum.Kinds
	timeout   time.Duration
	inlinable bool
	log       io.Writer
	culprit   string // the binary whose diagnosis is placed too ("": none)
}

// modSummary is one module's line of the first table.
type modSummary struct {
	Module, Version         string
	Candidates, Tried, Kept int
	Survived, Broken, Slow  int
	NotReproduced           int
	ByOp                    map[string]int
	Err                     string
}

// faultResult is one kept mutant: per event kinds and metric, the fault
// line's placement.
type faultResult struct {
	Module string
	Mutant proof.Mutant
	Place  map[string]placement // kinds + "/" + metric, and diagKey
	// With -diagnosis: the diagnosis's wall time and the plain go test
	// run's of the failing packages, in seconds.
	DiagTime, PlainTime float64 `json:",omitempty"`
}

// diagKey is the diagnosis's placement in faultResult.Place.
const diagKey = "diagnosis"

// placement is where the fault line landed in a ranking of lines.
type placement struct {
	Best, Worst int // the fault's tie group, 1-based positions
	Total       int // executed lines
}

func (p placement) exam(which int) float64 {
	pos := []float64{float64(p.Best), float64(p.Best+p.Worst) / 2, float64(p.Worst)}[which]
	return pos / float64(p.Total)
}

// top returns the chance that the fault is in the first n lines: 1 or 0
// for the best and worst placements, the share of tie orders for the
// average.
func (p placement) top(n, which int) float64 {
	switch which {
	case 0:
		return b2f(p.Best <= n)
	case 2:
		return b2f(p.Worst <= n)
	}
	x := float64(n-p.Best+1) / float64(p.Worst-p.Best+1)
	return max(0, min(1, x))
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// module runs the benchmark on one module.
func (b *bench) module(ctx context.Context, mod string, want, tries int, seed int64) (modSummary, []*faultResult, error) {
	sum := modSummary{Module: mod, ByOp: map[string]int{}}
	dir, version, err := proof.Download(ctx, b.work, mod)
	if err != nil {
		sum.Err = err.Error()
		return sum, nil, err
	}
	sum.Version = version
	// Tests failing before any mutation are skipped in every run. A
	// mutant's run may take ten times the unmutated one (and 20s), at
	// most -timeout: loops made endless are cut short.
	limit := b.timeout
	t0 := time.Now()
	base, err := b.goTest(ctx, dir, nil)
	if err != nil {
		sum.Err = err.Error()
		return sum, nil, err
	}
	b.timeout = min(limit, max(20*time.Second, 10*time.Since(t0)))
	defer func() { b.timeout = limit }()
	var skip []string
	for t := range base.failed {
		skip = append(skip, regexp.QuoteMeta(strings.SplitN(t, "/", 2)[0]))
	}
	sort.Strings(skip)
	var flags []string
	if len(skip) > 0 {
		flags = []string{"-skip", "^(" + strings.Join(skip, "|") + ")$"}
		fmt.Fprintf(b.log, "%s: failing before mutation, skipped: %s\n", mod, strings.Join(skip, " "))
	}
	cands, err := proof.Candidates(dir)
	if err != nil {
		return sum, nil, err
	}
	sum.Candidates = len(cands)
	var out []*faultResult
	for _, m := range proof.Order(cands, seed) {
		if sum.Kept >= want || sum.Tried >= tries {
			break
		}
		sum.Tried++
		path := filepath.Join(dir, filepath.FromSlash(m.File))
		src, err := os.ReadFile(path)
		if err != nil {
			return sum, out, err
		}
		if err := os.WriteFile(path, m.Apply(src), 0o644); err != nil {
			return sum, out, err
		}
		t1 := time.Now()
		r, err := b.mutant(ctx, mod, dir, m, flags)
		if werr := os.WriteFile(path, src, 0o644); werr != nil {
			return sum, out, werr
		}
		switch {
		case errors.Is(err, errSurvived):
			sum.Survived++
		case errors.Is(err, errBroken):
			sum.Broken++
		case errors.Is(err, errSlow):
			sum.Slow++
		case errors.Is(err, errNotReproduced):
			sum.NotReproduced++
		case err != nil:
			return sum, out, err
		default:
			sum.Kept++
			sum.ByOp[m.Op]++
			out = append(out, r)
			p := r.Place[b.kinds[0].String()+"/"+metrics[0].Name]
			fmt.Fprintf(b.log, "%s: kept %d/%d: %s: "+metrics[0].Name+" %s %d-%d of %d (%s)\n", mod, sum.Kept, want, m, b.kinds[0], p.Best, p.Worst, p.Total, time.Since(t1).Round(time.Second))
		}
	}
	return sum, out, nil
}

var (
	errSurvived      = errors.New("no test failed")
	errBroken        = errors.New("does not build")
	errSlow          = errors.New("timed out")
	errNotReproduced = errors.New("no test failed instrumented")
)

// mutant tests one mutant plain, then, when a test fails, instrumented,
// and places the fault in each ranking.
func (b *bench) mutant(ctx context.Context, mod, dir string, m proof.Mutant, flags []string) (*faultResult, error) {
	r, err := b.goTest(ctx, dir, flags)
	if err != nil {
		return nil, err
	}
	if len(r.failed) == 0 {
		return nil, errSurvived
	}
	traceDir := filepath.Join(b.work, "trace")
	os.RemoveAll(traceDir)
	tctx, cancel := context.WithTimeout(ctx, 3*b.timeout)
	defer cancel()
	var goOut bytes.Buffer
	res, err := instrument.Run(tctx, instrument.Config{
		Dir: dir, Packages: []string{"./..."}, Events: spectrum.Needs(b.need), TraceDir: traceDir,
		GoFlags: append([]string{"-vet=off", "-timeout", b.timeout.String()}, flags...),
		Stdout:  &goOut, Stderr: &goOut, Inlinable: b.inlinable,
		Env: append(os.Environ(), "GOFLAGS=-mod=mod"),
	})
	if err != nil {
		if tctx.Err() != nil {
			return nil, errSlow
		}
		return nil, fmt.Errorf("%s: culprit: %v", m, err)
	}
	_ = res
	stmts, err := spectrum.Load(traceDir, spectrum.Options{Kinds: spectrum.KindsOf(spectrum.Stmt)})
	if err != nil {
		return nil, fmt.Errorf("%s: %v", m, err)
	}
	if stmts.Failed() == 0 {
		return nil, errNotReproduced
	}
	total := len(lines(stmts))
	fr := &faultResult{Module: mod, Mutant: m, Place: map[string]placement{}}
	if b.culprit != "" {
		if err := b.diagnose(ctx, dir, m, flags, r, total, fr); err != nil {
			return nil, err
		}
	}
	for _, k := range b.kinds {
		s := stmts
		if k != spectrum.KindsOf(spectrum.Stmt) {
			if s, err = spectrum.Load(traceDir, spectrum.Options{Kinds: k}); err != nil {
				return nil, fmt.Errorf("%s: %v", m, err)
			}
		}
		for _, metric := range metrics {
			fr.Place[k.String()+"/"+metric.Name] = place(s, metric, m.File, m.Line, total)
		}
	}
	return fr, nil
}

// diagnose runs culprit rank's diagnosis, as a user would, on the
// packages whose tests the mutant failed, times it against their plain
// go test, and places the fault line in it among total executed lines
// (after every ranked line when it is not ranked).
func (b *bench) diagnose(ctx context.Context, dir string, m proof.Mutant, flags []string, r *testRun, total int, fr *faultResult) error {
	var pkgs []string
	for p := range r.pkgs {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	goFlags := append([]string{"-vet=off", "-timeout", b.timeout.String()}, flags...)
	env := append(os.Environ(), "GOFLAGS=-mod=mod")

	plain := exec.CommandContext(ctx, "go", append(append([]string{"test", "-count=1"}, pkgs...), goFlags...)...)
	plain.Dir, plain.Env = dir, env
	t0 := time.Now()
	plain.Run() // it fails: the mutant's tests do
	fr.PlainTime = time.Since(t0).Seconds()

	out := filepath.Join(b.work, "diagnosis.json")
	os.Remove(out)
	tctx, cancel := context.WithTimeout(ctx, 10*b.timeout)
	defer cancel()
	args := append(append([]string{"rank", "-format", "json", "-top", "0", "-o", out}, pkgs...), "--")
	cmd := exec.CommandContext(tctx, b.culprit, append(args, goFlags...)...)
	cmd.Dir, cmd.Env = dir, env
	t0 = time.Now()
	msg, err := cmd.CombinedOutput()
	fr.DiagTime = time.Since(t0).Seconds()
	if err != nil && strings.Contains(string(msg), "no failing test") {
		return errNotReproduced // a flaky mutant: it failed plain and instrumented, not a third time
	}
	if err != nil {
		return fmt.Errorf("%s: culprit rank: %v: %s", m, err, lastLines(string(msg), 5))
	}
	data, err := os.ReadFile(out)
	if err != nil {
		return fmt.Errorf("%s: %v", m, err)
	}
	var d report.JSONDiagnosis
	if err := json.Unmarshal(data, &d); err != nil {
		return fmt.Errorf("%s: %s: %v", m, out, err)
	}
	// Each fault's diagnosis is kept, to be read again (weights,
	// evidence) without running anything.
	keep := filepath.Join(b.work, "diagnoses", fmt.Sprintf("%s_%s_%d_%d.json", filepath.Base(dir), strings.ReplaceAll(m.File, "/", "_"), m.Line, m.Off))
	if err := os.MkdirAll(filepath.Dir(keep), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(keep, data, 0o644); err != nil {
		return err
	}
	p := placement{Best: len(d.Locations) + 1, Worst: max(total, len(d.Locations)), Total: max(total, len(d.Locations))}
	for _, l := range d.Locations {
		if l.File == m.File && l.Line == m.Line {
			p.Best, p.Worst = l.Rank.Best, l.Rank.Worst
			break
		}
	}
	fr.Place[diagKey] = p
	return nil
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

type lineKey struct {
	file string
	line int
}

// lines returns the lines the spectra's events sit on, with each line's
// events.
func lines(s *spectrum.Spectra) map[lineKey][]int {
	out := map[lineKey][]int{}
	for i, e := range s.Events {
		k := lineKey{e.File, e.Line}
		out[k] = append(out[k], i)
	}
	return out
}

// place ranks the lines of s by the best score of their events under m
// and returns the fault line's placement among total executed lines.
func place(s *spectrum.Spectra, m spectrum.Metric, file string, line, total int) placement {
	ls := lines(s)
	scores := make([]float64, 0, len(ls))
	fault, found := 0.0, false
	for k, evs := range ls {
		best := m.Score(s.Counts(evs[0]))
		for _, e := range evs[1:] {
			best = max(best, m.Score(s.Counts(e)))
		}
		scores = append(scores, best)
		if k.file == file && k.line == line {
			fault, found = best, true
		}
	}
	total = max(total, len(ls))
	if !found {
		return placement{Best: len(ls) + 1, Worst: total, Total: total}
	}
	p := placement{Total: total}
	for _, x := range scores {
		switch {
		case x > fault && !spectrum.Tied(x, fault):
			p.Best++
			p.Worst++
		case spectrum.Tied(x, fault):
			p.Worst++
		}
	}
	p.Best++
	return p
}

// testRun is what one plain go test run gave.
type testRun struct {
	failed map[string]bool // package.Test of failing tests
	pkgs   map[string]bool // packages with a failing test
}

// goTest runs the module's tests plain with -json.
func (b *bench) goTest(ctx context.Context, dir string, flags []string) (*testRun, error) {
	tctx, cancel := context.WithTimeout(ctx, b.timeout+30*time.Second)
	defer cancel()
	args := append([]string{"test", "-json", "-count=1", "-vet=off", "-timeout", b.timeout.String()}, flags...)
	cmd := exec.CommandContext(tctx, "go", append(args, "./...")...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if tctx.Err() != nil {
		return nil, errSlow
	}
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		return nil, err
	}
	r := &testRun{failed: map[string]bool{}, pkgs: map[string]bool{}}
	broken := false
	for _, line := range bytes.Split(out, []byte("\n")) {
		var ev struct{ Action, Package, Test, Output string }
		if json.Unmarshal(line, &ev) != nil {
			continue
		}
		switch {
		case ev.Action == "fail" && ev.Test != "":
			r.failed[ev.Test] = true
			r.pkgs[ev.Package] = true
		case ev.Action == "output" && (strings.Contains(ev.Output, "[build failed]") || strings.Contains(ev.Output, "[setup failed]")):
			broken = true
		case ev.Action == "output" && strings.Contains(ev.Output, "panic: test timed out"):
			return nil, errSlow
		}
	}
	if broken || (err != nil && len(r.failed) == 0) {
		return nil, errBroken
	}
	return r, nil
}

func printModules(w io.Writer, mods []modSummary, markdown bool) {
	rows := [][]string{{"module", "version", "candidates", "tried", "kept", "flip", "const", "swap", "delete", "survived", "no build", "timeout", "not reproduced"}}
	for _, m := range mods {
		if m.Err != "" {
			rows = append(rows, []string{m.Module, "error: " + m.Err})
			continue
		}
		rows = append(rows, []string{m.Module, m.Version, fmt.Sprint(m.Candidates), fmt.Sprint(m.Tried), fmt.Sprint(m.Kept),
			fmt.Sprint(m.ByOp["flip"]), fmt.Sprint(m.ByOp["const"]), fmt.Sprint(m.ByOp["swap"]), fmt.Sprint(m.ByOp["delete"]),
			fmt.Sprint(m.Survived), fmt.Sprint(m.Broken), fmt.Sprint(m.Slow), fmt.Sprint(m.NotReproduced)})
	}
	proof.WriteTable(w, rows, markdown)
}

// printAccuracy prints, per event kinds and metric, top-N and EXAM as
// "average [best-worst]".
func printAccuracy(w io.Writer, results []*faultResult, kinds []spectrum.Kinds, markdown bool) {
	rows := [][]string{{"events", "metric", "faults", "top-1 avg [best-worst]", "top-3", "top-5", "top-10", "EXAM avg [best-worst]"}}
	row := func(events, metric, key string) {
		var ps []placement
		for _, r := range results {
			if p, ok := r.Place[key]; ok {
				ps = append(ps, p)
			}
		}
		if len(ps) == 0 {
			return
		}
		row := []string{events, metric, fmt.Sprint(len(ps))}
		for _, n := range []int{1, 3, 5, 10} {
			row = append(row, cell(ps, func(p placement, which int) float64 { return p.top(n, which) }, "%.0f%%"))
		}
		row = append(row, cell(ps, func(p placement, which int) float64 { return p.exam(which) }, "%.1f%%"))
		rows = append(rows, row)
	}
	row("diagnosis", "fused", diagKey)
	for _, k := range kinds {
		for _, m := range metrics {
			row(k.String(), m.Name, k.String()+"/"+m.Name)
		}
	}
	proof.WriteTable(w, rows, markdown)
	var ratios []float64
	for _, r := range results {
		if r.PlainTime > 0 {
			ratios = append(ratios, r.DiagTime/r.PlainTime)
		}
	}
	if len(ratios) > 0 {
		sort.Float64s(ratios)
		fmt.Fprintf(w, "\ndiagnosis time over the failing packages' plain go test: median %.1fx, max %.1fx (%d mutants)\n", ratios[len(ratios)/2], ratios[len(ratios)-1], len(ratios))
	}
}
