// Command mine is the proof of culprit mine on code nobody here wrote:
// for each module of the instrumentation proof (the latest version from
// the module proxy, copied out of the module cache by
// bench/internal/proof), it runs the module's tests plainly (go test,
// after a warm-up run that builds them), then culprit mine on the same
// packages, and reads the trace back in-process to count the calls
// recorded and time the inference alone. It prints a table: calls,
// functions, invariants, the wall time of go test and of culprit mine
// (instrumenting, building, running and mining), their ratio, the heap
// live after reading the trace, and the inference speed in call records
// per second (elapsed, the functions mined in parallel, and per CPU
// second).
//
// Usage:
//
//	go run ./bench/mine [-modules a,b] [-work DIR] [-culprit BIN] [-timeout D] [-markdown]
//	go run ./bench/mine -infer -work DIR [-modules a,b] [-markdown]
//
// With -infer it runs nothing: it reads the traces an earlier run left in
// DIR and times the inference again (after a change to the invariant
// package).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/culprit-go/culprit/bench/internal/proof"
)

func main() {
	mods := flag.String("modules", "", "comma-separated module paths (default: all of the proof)")
	work := flag.String("work", "", "work directory (default: a temporary one, removed)")
	bin := flag.String("culprit", "", "the culprit binary (default: built from this checkout)")
	timeout := flag.Duration("timeout", 5*time.Minute, "time limit of one go test or culprit mine run")
	markdown := flag.Bool("markdown", false, "print the table as Markdown")
	infer := flag.Bool("infer", false, "only read the traces an earlier run left in -work and time the inference")
	flag.Parse()
	var err error
	if *infer {
		err = reinfer(*mods, *work, *markdown)
	} else {
		err = run(*mods, *work, *bin, *timeout, *markdown)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "mine:", err)
		os.Exit(1)
	}
}

// run measures the modules in work with the culprit binary bin (built
// when ""), and prints the table.
func run(mods, work, bin string, timeout time.Duration, markdown bool) error {
	work, cleanup, err := proof.WorkDir(work, "culprit-mine-bench-")
	if err != nil {
		return err
	}
	defer cleanup()
	if bin, err = proof.Culprit(work, bin); err != nil {
		return err
	}
	start := time.Now()
	var results []*result
	for _, m := range proof.Select(mods) {
		r := measure(context.Background(), work, bin, m, timeout)
		results = append(results, r)
		fmt.Fprintf(os.Stderr, "%s: %d calls, %d invariants, %.1fs plain, %.1fs mine %s\n", r.Module, r.Calls, r.Invariants, r.Plain, r.Mine, r.Err)
	}
	fmt.Printf("%s, %s/%s, %d CPUs, %s; %s\n\n", time.Now().Format("2006-01-02"), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.Version(), time.Since(start).Round(time.Second))
	table(os.Stdout, results, markdown)
	return nil
}

// reinfer times the inference on the traces an earlier run left in work.
func reinfer(mods, work string, markdown bool) error {
	if work == "" {
		return fmt.Errorf("-infer needs the -work directory of an earlier run")
	}
	var results []*result
	for _, m := range proof.Select(mods) {
		dirs, _ := filepath.Glob(filepath.Join(work, strings.NewReplacer("/", "_", "@", "_").Replace(m.Path)+"_*", ".culprit"))
		if len(dirs) == 0 {
			continue
		}
		r := &result{Module: m.Path, Version: strings.TrimPrefix(filepath.Base(filepath.Dir(dirs[0])), strings.NewReplacer("/", "_").Replace(m.Path)+"_")}
		infer(r, dirs[0])
		results = append(results, r)
	}
	fmt.Printf("%s, %s/%s, %d CPUs, %s; inference only\n\n", time.Now().Format("2006-01-02"), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.Version())
	table(os.Stdout, results, markdown)
	return nil
}
