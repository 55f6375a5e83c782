//go:build unix

// Command instrument is the proof of culprit's instrumentation on code
// nobody here wrote: for each module (the latest version from the module
// proxy, copied out of the module cache to run as the main module), it
// runs the tests plain and under culprit test for each event kind,
// compares every test's outcome and prints a table: tests compared,
// identical outcomes, the test binaries' run time plain and instrumented
// (build time apart: wall minus run), the ratio, trace bytes and peak
// memory. Tests that fail plain are excluded and named.
//
// Usage:
//
//	go run ./bench/instrument [-modules a,b] [-events stmt,all] [-work DIR] [-markdown]
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/culprit-go/culprit/bench/internal/proof"
	"github.com/culprit-go/culprit/trace"
)

func main() {
	mods := flag.String("modules", "", "comma-separated module paths (default: all of the proof)")
	events := flag.String("events", "stmt,branch,func,all", "comma-separated event kinds to run, each a culprit test -events value")
	work := flag.String("work", "", "work directory (default: a temporary one, removed)")
	markdown := flag.Bool("markdown", false, "print the table as Markdown")
	timeout := flag.Duration("timeout", 20*time.Minute, "time limit of one go test run")
	repeat := flag.Int("repeat", 1, "run each configuration `N` times and time the fastest run")
	flag.Parse()

	h, cleanup, err := newHarness(*work, *events, *timeout, os.Stderr)
	h.repeat = max(*repeat, 1)
	if err != nil {
		fmt.Fprintln(os.Stderr, "instrument:", err)
		os.Exit(2)
	}
	defer cleanup()
	list := proof.Select(*mods)
	var results []*result
	bad := false
	for _, m := range list {
		r := h.runModule(context.Background(), m)
		results = append(results, r)
		h.print(os.Stderr, []*result{r}, false) // progress
		if r.Err != "" || len(r.Diverged) > 0 {
			bad = true
		}
	}
	h.print(os.Stdout, results, *markdown)
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
	h := &harness{work: work, log: log, timeout: timeout}
	for _, e := range strings.Split(events, ",") {
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
	lastName := h.variants[len(h.variants)-1].Name
	head = append(head, "build s plain/"+lastName, "trace bytes ("+lastName+")", "records ("+lastName+")", "bytes per M records", "peak RSS MiB plain/"+lastName)
	var rows [][]string
	for _, r := range results {
		if r.Plain == nil || r.Err != "" {
			rows = append(rows, []string{r.Module, r.Version, "error: " + r.Err})
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
			fmt.Sprintf("%d/%d", r.Plain.MaxRSS/1024, last.MaxRSS/1024))
		rows = append(rows, row)
	}
	// The total row: run times summed over the modules, so that the many
	// suites that run in milliseconds do not make the ratio noise.
	var plainSum float64
	sums := make([]float64, len(h.variants))
	tests, same := 0, 0
	for _, r := range results {
		if r.Plain == nil || r.Err != "" {
			continue
		}
		plainSum += r.Plain.Elapsed
		tests += r.Tests
		same += r.Identical
		for i, v := range h.variants {
			sums[i] += r.Runs[v.Name].Elapsed
		}
	}
	if len(results) > 1 {
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
