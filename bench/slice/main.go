// Command slice is the proof of culprit slice on code nobody here wrote:
// for each module of the instrumentation proof (the latest version from
// the module proxy, copied out of the module cache), it injects a
// single-statement fault (the mutants of bench/internal/proof, in seeded
// order) until one makes a test fail with a reported check (a t.Error or
// t.Fatal line), twice (the second time the test alone: a test that
// fails by timing is passed over), runs culprit slice -run on that test, and checks that
// culprit does not crash and that the slice holds the check's line; it
// says whether the slice holds the faulty line too ("deleted" for a
// deleted statement, which leaves no line to hold). It
// measures the overhead of dependency tracking (the test binary's run
// time under culprit slice, every event kind recorded with its default
// sampling, against the plain go test run of the same test) and the
// summary graph of the run (nodes, edges, the live heap it holds, the
// time deps.Build takes), and how much of culprit slice's time the go
// command spent compiling the instrumented package (its -debug-trace).
// With -full (the default) it slices the same
// test again from every event (culprit slice -calls -1) and counts the
// lines both slices hold: what sampling costs in recall. It prints a
// table. Tests that fail before mutation are skipped.
//
// Usage:
//
//	go run ./bench/slice [-modules a,b] [-tries 8] [-seed 1] [-calls N] [-full] [-max-trace MiB] [-work DIR] [-culprit BIN] [-markdown]
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"time"

	"github.com/culprit-go/culprit/bench/internal/proof"
	"github.com/culprit-go/culprit/internal/instrument"
)

func main() {
	mods := flag.String("modules", "", "comma-separated module paths (default: all of the proof)")
	tries := flag.Int("tries", 8, "mutants to try per module")
	seed := flag.Int64("seed", 1, "seed of the mutants' order")
	work := flag.String("work", "", "work directory (default: a temporary one, removed)")
	bin := flag.String("culprit", "", "the culprit binary (default: built from this checkout)")
	markdown := flag.Bool("markdown", false, "print the table as Markdown")
	timeout := flag.Duration("timeout", 3*time.Minute, "time limit of one go test run (culprit slice: three times it)")
	pkgRuns := flag.Bool("package", true, "also time the failing test's whole package, plain and instrumented")
	calls := flag.Int("calls", instrument.DefaultCallLimit, "culprit slice -calls: events of each site recorded in full per test (-1: all)")
	full := flag.Bool("full", true, "also slice with every event recorded (-calls -1) and compare the slices' lines")
	maxTrace := flag.Int64("max-trace", 8<<10, "stop a full run whose trace grows past this many MiB")
	flag.Parse()
	b := &bench{tries: *tries, seed: *seed, timeout: *timeout, pkgRuns: *pkgRuns, calls: *calls, full: *full, maxTrace: *maxTrace << 20, log: os.Stderr}
	if err := run(b, *mods, *work, *bin, *markdown); err != nil {
		fmt.Fprintln(os.Stderr, "slice:", err)
		os.Exit(1)
	}
}

// run runs b on the modules, in work, with the culprit binary bin (built
// when ""), and prints the table.
func run(b *bench, mods, work, bin string, markdown bool) error {
	work, cleanup, err := proof.WorkDir(work, "culprit-slice-bench-")
	if err != nil {
		return err
	}
	defer cleanup()
	if bin, err = proof.Culprit(work, bin); err != nil {
		return err
	}
	b.work, b.culprit = work, bin
	start := time.Now()
	var results []*result
	bad := false
	for _, m := range proof.Select(mods) {
		r := b.module(context.Background(), m)
		results = append(results, r)
		print(os.Stderr, []*result{r}, false) // progress
		if r.Crashed || r.Err == "" && !r.InSlice {
			bad = true
		}
	}
	fmt.Printf("%s, %s/%s, %d CPUs, %s; seed %d; %s\n\n", time.Now().Format("2006-01-02"), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.Version(), b.seed, time.Since(start).Round(time.Second))
	print(os.Stdout, results, markdown)
	if bad {
		return fmt.Errorf("a slice crashed or misses its check")
	}
	return nil
}

// print writes the table, then each module's fault and errors.
func print(w io.Writer, results []*result, markdown bool) {
	rows := [][]string{{"module", "test", "check", "exit", "check in slice", "fault in slice", "slice lines", "slice nodes", "plain run s", "slice run s", "ratio", "plain wall s", "slice wall s", "wall ratio", "plain built wall s", "wall ratio built", "slice compile s", "slice peak RSS MiB", "package plain s", "package traced s", "package ratio", "graph nodes", "graph edges", "graph bytes", "alloc KiB", "graph s", "trace KiB", "full: check in slice", "full: lines", "lines in both", "full: run s", "full: ratio", "full: trace MiB"}}
	var plain, sliced, pkgPlain, pkgTraced float64
	for _, r := range results {
		if r.Test == "" {
			rows = append(rows, []string{r.Module, "error: " + r.Err})
			continue
		}
		exit := fmt.Sprint(r.Exit)
		if r.Crashed {
			exit += " CRASH"
		}
		check := r.Check
		if r.Criterion != "" {
			check += " (sliced from " + r.Criterion + ")"
		}
		rows = append(rows, []string{r.Module, r.Test, check, exit, yesNo(r.InSlice), r.FaultInSlice, fmt.Sprint(r.SliceLines), fmt.Sprint(r.SliceNodes),
			fmt.Sprintf("%.2f", r.PlainRun), fmt.Sprintf("%.2f", r.SliceRun), ratio(r.SliceRun, r.PlainRun),
			fmt.Sprintf("%.1f", r.PlainWall), fmt.Sprintf("%.1f", r.SliceWall), ratio(r.SliceWall, r.PlainWall), fmt.Sprintf("%.1f", r.PlainBuilt), ratio(r.SliceWall, r.PlainBuilt), fmt.Sprintf("%.1f", r.SliceBuild), fmt.Sprint(r.SliceRSS / 1024),
			fmt.Sprintf("%.2f", r.PkgPlain), fmt.Sprintf("%.2f", r.PkgTraced), ratio(r.PkgTraced, r.PkgPlain),
			fmt.Sprint(r.GraphNodes), fmt.Sprint(r.GraphEdges), fmt.Sprint(r.GraphBytes), fmt.Sprint(r.GraphAlloc / 1024), fmt.Sprintf("%.2f", r.GraphSecs), fmt.Sprint(r.TraceBytes / 1024)})
		if b := rows[len(rows)-1]; r.FullErr != "" {
			rows[len(rows)-1] = append(b, "-", "-", "-", fmt.Sprintf("%.2f", r.FullRun), "-", fmt.Sprint(r.FullTrace>>20))
		} else if r.FullLines > 0 || r.FullIn {
			rows[len(rows)-1] = append(b, yesNo(r.FullIn), fmt.Sprint(r.FullLines), fmt.Sprint(r.Common), fmt.Sprintf("%.2f", r.FullRun), ratio(r.FullRun, r.PlainRun), fmt.Sprint(r.FullTrace>>20))
		}
		plain += r.PlainRun
		sliced += r.SliceRun
		pkgPlain += r.PkgPlain
		pkgTraced += r.PkgTraced
	}
	if len(results) > 1 {
		// Run times summed over the modules: the many tests that run in
		// milliseconds do not make the ratio noise.
		rows = append(rows, []string{"total", "", "", "", "", "", "", "", fmt.Sprintf("%.2f", plain), fmt.Sprintf("%.2f", sliced), ratio(sliced, plain),
			"", "", "", "", "", "", "", fmt.Sprintf("%.2f", pkgPlain), fmt.Sprintf("%.2f", pkgTraced), ratio(pkgTraced, pkgPlain)})
	}
	proof.WriteTable(w, rows, markdown)
	for _, r := range results {
		if r.Mutant != "" {
			fmt.Fprintf(w, "\n%s@%s: fault %s (mutant %d tried)", r.Module, r.Version, r.Mutant, r.Tried)
		}
		if r.Err != "" {
			fmt.Fprintf(w, "\nERROR: %s: %s", r.Module, r.Err)
		}
		if r.FullErr != "" {
			fmt.Fprintf(w, "\n%s: full slice (-calls -1): %s", r.Module, r.FullErr)
		}
		if r.Stderr != "" {
			fmt.Fprintf(w, "\n%s: culprit slice: %s", r.Module, r.Stderr)
		}
	}
	fmt.Fprintln(w)
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "NO"
}

func ratio(a, b float64) string {
	if b <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f", a/b)
}
