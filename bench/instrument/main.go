//go:build unix

// Command instrument is the proof of culprit's instrumentation on code
// nobody here wrote: for each module of the corpus (corpus.go: the latest
// version from the module proxy, copied out of the module cache to run as
// the main module, some vendored, in a go.work workspace or holding a
// nested module), it runs the tests plain and under culprit test for each
// event kind, compares every test's outcome and prints a table: tests
// compared, identical outcomes, the test binaries' run time plain and
// instrumented (build time apart: wall minus run), the ratio, trace bytes,
// peak memory and the machine's load. Tests that fail plain are excluded
// and named.
//
// Then, unless -analyses=false, it injects a fault into each module (a
// single-statement mutant that fails a test passing plain, as
// bench/slice does) and runs culprit rank, slice, flow -test and mine on
// the mutated package, printing a second table: each analysis's exit
// status, wall time as a multiple of the package's plain go test, and
// peak RSS. An analysis fails when it panics, exits non-zero, runs past
// 10x the plain run (at least -floor) or needs more than 8 GiB (it is
// stopped once it or a process it started passes 8 GiB, so that a
// runaway cannot take the machine; a fault whose plain run runs away is
// passed over before any analysis runs on it). Each
// analysis's standard error is kept as analyses/MODULE.NAME.stderr in the
// work directory, and its notes of what culprit could not record (cgo
// files, assembly) are listed under the table. With -warm the analyses
// run once on the fault untimed, the faulty file is then changed (a
// comment added) and the plain run timed after it too ("built s"): the
// timed analyses are a user's who edits a package of a module culprit
// has run on before.
//
// Usage:
//
//	go run ./bench/instrument [-modules a,b] [-events stmt,all] [-work DIR] [-markdown] [-analyses=false] [-warm]
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/culprit-go/culprit/bench/internal/proof"
	"github.com/culprit-go/culprit/trace"
)

func main() {
	mods := flag.String("modules", "", "comma-separated module paths, a layout in parentheses (\"github.com/spf13/cobra (vendor)\"); default: all of the proof")
	events := flag.String("events", "stmt,branch,func,all", "comma-separated event kinds to run, each a culprit test -events value; none runs the plain tests and the analyses only")
	work := flag.String("work", "", "work directory (default: a temporary one, removed)")
	markdown := flag.Bool("markdown", false, "print the table as Markdown")
	timeout := flag.Duration("timeout", 20*time.Minute, "time limit of one go test run")
	repeat := flag.Int("repeat", 1, "run each configuration `N` times and time the fastest run")
	analyses := flag.Bool("analyses", true, "also run culprit rank, slice, flow -test and mine on a fault injected into each module")
	bin := flag.String("culprit", "", "the culprit `binary` of the analyses (default: built from this checkout)")
	tries := flag.Int("tries", 12, "mutants tried per module to find one that fails a test")
	faultPkg := flag.String("fault", "", "inject the fault into the package `./DIR` alone (modernc.org/sqlite: ./vfs, whose tests run the generated ./lib)")
	warm := flag.Bool("warm", false, "run the analyses once on the fault, untimed, then change the faulty file: the timed analyses find the instrumented builds of the packages the change leaves alone cached (as the plain run after the change, the table's \"built s\", finds the plain ones)")
	floor := flag.Duration("floor", 5*time.Minute, "least time limit of an analysis (it is 10x the plain run otherwise)")
	limit := flag.Duration("limit", 0, "pass -timeout `D` to each analysis (negative: culprit's own default limit lifted, to measure how long an analysis that stops at it takes)")
	jsonOut := flag.String("json", "", "append each module's result to `FILE` as a line of JSON as it ends")
	report := flag.String("report", "", "run nothing: print the tables of the results in the comma-separated JSON `FILES` (-json's), in order")
	flag.Parse()

	if *report != "" {
		h, _, err := newHarness(os.TempDir(), *events, *timeout, os.Stderr)
		if err == nil {
			var results []*result
			results, err = readResults(strings.Split(*report, ","))
			h.print(os.Stdout, results, *markdown)
			fmt.Println()
			printAnalyses(os.Stdout, results, *markdown)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "instrument:", err)
			os.Exit(2)
		}
		return
	}

	h, cleanup, err := newHarness(*work, *events, *timeout, os.Stderr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "instrument:", err)
		os.Exit(2)
	}
	defer cleanup()
	h.repeat = max(*repeat, 1)
	h.tries, h.floor, h.limit, h.faultPkg, h.warm = *tries, *floor, *limit, *faultPkg, *warm
	if *analyses {
		if h.culprit, err = proof.Culprit(h.work, *bin); err != nil {
			fmt.Fprintln(os.Stderr, "instrument:", err)
			os.Exit(2)
		}
	}
	list := selectEntries(*mods)
	var results []*result
	bad := false
	for _, m := range list {
		r := h.runModule(context.Background(), m)
		results = append(results, r)
		h.print(os.Stderr, []*result{r}, false) // progress
		if *jsonOut != "" {
			if err := appendResult(*jsonOut, r); err != nil {
				fmt.Fprintln(os.Stderr, "instrument:", err)
				os.Exit(2)
			}
		}
		if r.Err != "" || len(r.Diverged) > 0 || len(r.analysisFailures()) > 0 {
			bad = true
		}
	}
	h.print(os.Stdout, results, *markdown)
	if h.culprit != "" {
		fmt.Println()
		printAnalyses(os.Stdout, results, *markdown)
	}
	if bad {
		os.Exit(1)
	}
}

func newHarness(work, events string, timeout time.Duration, log io.Writer) (*harness, func(), error) {
	cleanup := func() {}
	if work == "" {
		d, err := os.MkdirTemp("", "culprit-proof-")
		if err != nil {
			return nil, nil, err
		}
		work, cleanup = d, func() { os.RemoveAll(d) }
	} else if err := os.MkdirAll(work, 0o755); err != nil {
		return nil, nil, err
	}
	if abs, err := filepath.Abs(work); err == nil {
		work = abs
	}
	h := &harness{work: work, log: log, timeout: timeout, repeat: 1, tries: 12, floor: 5 * time.Minute}
	for _, e := range strings.Split(events, ",") {
		if e == "none" {
			continue
		}
		set, err := trace.ParseEvents(e)
		if err != nil {
			return nil, nil, err
		}
		h.variants = append(h.variants, variant{Name: e, Events: set})
	}
	return h, cleanup, nil
}

// print writes the table, then the excluded and diverging tests.
func (h *harness) print(w io.Writer, results []*result, markdown bool) {
	head := []string{"module", "version", "tests", "identical", "plain s"}
	for _, v := range h.variants {
		head = append(head, v.Name+" s", v.Name+" ratio")
	}
	if len(h.variants) == 0 {
		return // no instrumented runs: the analyses' table only
	}
	lastName := h.variants[len(h.variants)-1].Name
	head = append(head, "build s plain/"+lastName, "trace bytes ("+lastName+")", "records ("+lastName+")", "bytes per M records", "peak RSS MiB plain/"+lastName, "load")
	var rows [][]string
	for _, r := range results {
		if r.Plain == nil || r.Err != "" {
			rows = append(rows, []string{r.Module, r.Version, "error: " + strings.Join(strings.Fields(r.Err), " "), r.Load})
			continue
		}
		if !r.ranAll(h.variants) {
			rows = append(rows, []string{r.Module, r.Version, "not run with every event kind of the table (-events none: the analyses only)", r.Load})
			continue
		}
		row := []string{r.Module, r.Version, fmt.Sprint(r.Tests), fmt.Sprint(r.Identical), fmt.Sprintf("%.2f", r.Plain.Elapsed)}
		var last *run
		for _, v := range h.variants {
			x := r.Runs[v.Name]
			last = x
			row = append(row, fmt.Sprintf("%.2f", x.Elapsed), ratio(x.Elapsed, r.Plain.Elapsed))
		}
		row = append(row, fmt.Sprintf("%.1f/%.1f", r.Plain.Wall-r.Plain.Elapsed, last.Wall-last.Elapsed),
			fmt.Sprint(last.TraceBytes), fmt.Sprint(last.Calls), perMillion(last.TraceBytes, last.Calls),
			fmt.Sprintf("%d/%d", r.Plain.MaxRSS/1024, last.MaxRSS/1024), r.Load)
		rows = append(rows, row)
	}
	// The total row: run times summed over the modules, so that the many
	// suites that run in milliseconds do not make the ratio noise.
	var plainSum float64
	sums := make([]float64, len(h.variants))
	tests, same, counted := 0, 0, 0
	for _, r := range results {
		if r.Plain == nil || r.Err != "" || !r.ranAll(h.variants) {
			continue
		}
		counted++
		plainSum += r.Plain.Elapsed
		tests += r.Tests
		same += r.Identical
		for i, v := range h.variants {
			sums[i] += r.Runs[v.Name].Elapsed
		}
	}
	if counted > 1 {
		row := []string{"total", "", fmt.Sprint(tests), fmt.Sprint(same), fmt.Sprintf("%.2f", plainSum)}
		for i := range h.variants {
			row = append(row, fmt.Sprintf("%.2f", sums[i]), ratio(sums[i], plainSum))
		}
		rows = append(rows, row)
	}
	if markdown {
		fmt.Fprintf(w, "| %s |\n|%s\n", strings.Join(head, " | "), strings.Repeat("---|", len(head)))
		for _, row := range rows {
			fmt.Fprintf(w, "| %s |\n", strings.Join(row, " | "))
		}
	} else {
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, strings.Join(head, "\t"))
		for _, row := range rows {
			fmt.Fprintln(tw, strings.Join(row, "\t"))
		}
		tw.Flush()
	}
	for _, r := range results {
		if r.Plain != nil && r.Err == "" && r.Tests == 0 {
			fmt.Fprintf(w, "no test compared: %s (%s)\n", r.Module, orNone(lastLines(r.Plain.Output, 2)))
		}
		for _, f := range r.FailedPlain {
			fmt.Fprintf(w, "excluded (fails plain): %s\n", f)
		}
		for _, d := range r.Diverged {
			fmt.Fprintf(w, "DIVERGED: %s\n", d)
		}
		for _, f := range r.Flaky {
			fmt.Fprintf(w, "flaky (counted identical): %s\n", f)
		}
		if r.Err != "" {
			fmt.Fprintf(w, "ERROR: %s: %s\n", r.Module, r.Err)
		}
	}
}

// ranAll reports whether the module's tests ran instrumented with every
// event kind of vs (a result of -events none has no such run).
func (r *result) ranAll(vs []variant) bool {
	for _, v := range vs {
		if r.Runs[v.Name] == nil {
			return false
		}
	}
	return true
}

func ratio(a, b float64) string {
	if b <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", a/b)
}

// perMillion is the trace size per million records.
func perMillion(bytes int64, records int) string {
	if records == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f MB", float64(bytes)/float64(records))
}

// analysisFailures names the module's analyses that failed, and why.
func (r *result) analysisFailures() []string {
	if r.Fault == nil {
		return nil
	}
	var out []string
	for _, a := range r.Fault.Analyses {
		if why := a.failed(); why != "" {
			out = append(out, a.Name+": "+why)
		}
	}
	return out
}

// printAnalyses writes the analyses' table: per module the injected
// fault, the failing test, the plain run of its package (and with -warm
// the plain run after a change to the faulty file), and for each
// analysis its exit status, its wall time as a multiple of the plain
// run's and its peak RSS; then the failures and the modules without a
// fault.
func printAnalyses(w io.Writer, results []*result, markdown bool) {
	head := []string{"module", "fault", "test", "plain s", "built s"}
	for _, n := range analysisNames {
		head = append(head, n+" exit/ratio/MiB")
	}
	head = append(head, "load")
	rows := [][]string{head}
	sums := map[string]float64{}
	var plainSum float64
	for _, r := range results {
		f := r.Fault
		if f == nil || f.Err != "" {
			continue
		}
		built := ""
		if f.PlainBuilt > 0 {
			built = fmt.Sprintf("%.1f", f.PlainBuilt)
		}
		row := []string{r.Module, f.Package + ": " + f.Mutant, f.Test, fmt.Sprintf("%.1f", f.PlainWall), built}
		plainSum += f.PlainWall
		for _, a := range f.Analyses {
			sums[a.Name] += a.Wall
			cell := fmt.Sprintf("%d/%s/%d", a.Exit, ratio(a.Wall, f.PlainWall), a.RSS>>10)
			if a.failed() != "" {
				cell = "**" + cell + "**"
			}
			row = append(row, cell)
		}
		rows = append(rows, append(row, f.Load))
	}
	total := []string{"total (wall s summed)", "", "", fmt.Sprintf("%.1f", plainSum), ""}
	for _, n := range analysisNames {
		total = append(total, fmt.Sprintf("%.0f s, %s", sums[n], ratio(sums[n], plainSum)))
	}
	total = append(total, "")
	rows = append(rows, total)
	proof.WriteTable(w, rows, markdown)
	for _, r := range results {
		if r.Fault != nil && r.Fault.Err != "" {
			fmt.Fprintf(w, "no analyses: %s: %s\n", r.Module, r.Fault.Err)
		}
		for _, f := range r.analysisFailures() {
			fmt.Fprintf(w, "ANALYSIS FAILED: %s: %s\n", r.Module, f)
		}
		for _, n := range r.unrecorded() {
			fmt.Fprintf(w, "noted: %s: %s\n", r.Module, n)
		}
	}
}

// unrecorded is what the module's analyses noted they could not record,
// each note once (without the "culprit: NAME: note: " its analysis put
// before it), with the analyses that printed it.
func (r *result) unrecorded() []string {
	if r.Fault == nil {
		return nil
	}
	var notes []string
	by := map[string][]string{}
	for _, a := range r.Fault.Analyses {
		for _, n := range a.Unrecorded {
			if _, after, ok := strings.Cut(n, ": note: "); ok {
				n = after
			}
			if by[n] == nil {
				notes = append(notes, n)
			}
			by[n] = append(by[n], a.Name)
		}
	}
	for i, n := range notes {
		notes[i] = "(" + strings.Join(by[n], ", ") + ") " + n
	}
	return notes
}

// appendResult appends r to the file name as a line of JSON.
func appendResult(name string, r *result) error {
	data, err := json.Marshal(r)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(name, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(append(data, '\n')); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// readResults reads the results appendResult wrote to the files, one
// per module in the order each first appears: a later result of the same
// module replaces its test runs when it has them (a re-run after a fix)
// and its analyses when it has them (-events none runs only those). The
// analyses' load is their run's when they did not record their own.
func readResults(names []string) ([]*result, error) {
	var out []*result
	byName := map[string]*result{}
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			r := &result{}
			if err := json.Unmarshal([]byte(line), r); err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			if r.Fault != nil && r.Fault.Load == "" {
				r.Fault.Load = r.Load
			}
			old := byName[r.Module]
			if old == nil {
				byName[r.Module] = r
				out = append(out, r)
				continue
			}
			if len(r.Runs) > 0 || len(old.Runs) == 0 {
				fault := old.Fault
				*old = *r
				if old.Fault == nil {
					old.Fault = fault
				}
			} else if r.Fault != nil {
				old.Fault = r.Fault
			}
		}
	}
	return out, nil
}
