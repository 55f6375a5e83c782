package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/culprit-go/culprit/bench/internal/proof"
	"github.com/culprit-go/culprit/invariant"
)

// result is what one module measured.
type result struct {
	Module, Version string
	Functions       int     // functions with a recorded call
	Calls           int     // calls recorded (entries), tests' and the rest
	Returned        int     // of those, calls whose exit was recorded
	Specs           int     // functions with at least one invariant
	Invariants      int     // pre- and postconditions mined
	Plain           float64 // seconds of go test (built already)
	Mine            float64 // seconds of culprit mine: instrument, build, run, mine
	MinePeak        int64   // largest resident set of culprit mine, bytes
	Load            float64 // seconds reading the trace (in-process)
	Live            int64   // bytes live after reading the trace (after a collection)
	Infer           float64 // seconds of invariant.Mine (in-process)
	InferCPU        float64 // CPU seconds of invariant.Mine
	PlainExit       int
	MineExit        int
	Err             string
}

// measure runs one module: plain go test twice (the first builds), then
// culprit mine, then the in-process reading and mining of its trace.
func measure(ctx context.Context, work, bin string, m proof.Module, timeout time.Duration) *result {
	r := &result{Module: m.Path}
	dir, version, err := proof.Download(ctx, work, m.Path)
	if err != nil {
		r.Err = err.Error()
		return r
	}
	r.Version = version
	pkgs := m.Patterns()
	goTest := append([]string{"test", "-count=1"}, pkgs...)
	timed(ctx, dir, timeout, "go", goTest...) // builds the tests
	r.Plain, r.PlainExit, _, _ = timed(ctx, dir, timeout, "go", goTest...)
	// culprit mine writes its trace to .culprit at the module's root.
	traceDir := filepath.Join(dir, ".culprit")
	mine := append([]string{"mine", "-format", "json", "-o", filepath.Join(dir, "contracts.json")}, pkgs...)
	var out []byte
	r.Mine, r.MineExit, out, r.MinePeak = timed(ctx, dir, 3*timeout, bin, mine...)
	if r.MineExit != 0 && r.MineExit != 1 {
		r.Err = fmt.Sprintf("culprit mine exit %d: %s", r.MineExit, lastLines(out, 3))
	}
	infer(r, traceDir)
	return r
}

// infer reads the trace in traceDir and mines it, timing both and
// counting the calls and invariants.
func infer(r *result, traceDir string) {
	t0 := time.Now()
	cs, err := invariant.Load(traceDir, invariant.CollectOptions{})
	r.Load = time.Since(t0).Seconds()
	if err != nil {
		if r.Err == "" {
			r.Err = err.Error()
		}
		return
	}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	r.Live = int64(ms.HeapAlloc)
	for _, f := range cs.Functions {
		r.Functions++
		r.Calls += len(f.Calls)
		for _, c := range f.Calls {
			if c.Returned || c.Panicked {
				r.Returned++
			}
		}
	}
	t0, cpu0 := time.Now(), cpuTime()
	c := invariant.Mine(cs, invariant.Options{})
	r.Infer, r.InferCPU = time.Since(t0).Seconds(), (cpuTime() - cpu0).Seconds()
	for _, s := range c.Functions {
		if n := len(s.Pre) + len(s.Post); n > 0 {
			r.Specs++
			r.Invariants += n
		}
	}
}

// timed runs name with args in dir and returns its wall time in seconds,
// its exit status (-1: it could not run or timed out), its combined
// output and its largest resident set in bytes.
func timed(ctx context.Context, dir string, timeout time.Duration, name string, args ...string) (float64, int, []byte, int64) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Start()
	peak := int64(0)
	if err == nil {
		stop := watchPeak(cmd.Process.Pid)
		err = cmd.Wait()
		peak = stop()
	}
	secs := time.Since(start).Seconds()
	if err != nil {
		if x, ok := err.(*exec.ExitError); ok && ctx.Err() == nil {
			return secs, x.ExitCode(), out.Bytes(), peak
		}
		return secs, -1, out.Bytes(), peak
	}
	return secs, 0, out.Bytes(), peak
}

func lastLines(b []byte, n int) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}

// table prints the results, then the totals.
func table(w io.Writer, results []*result, markdown bool) {
	rows := [][]string{{"module", "functions", "calls", "returned", "with invariants", "invariants", "go test s", "culprit mine s", "ratio", "mine peak GB", "read trace s", "live after read GB", "infer s", "infer CPU s", "records/s", "records/CPU s", "exit plain/mine"}}
	var tot result
	for _, r := range results {
		if r.Err != "" && r.Calls == 0 {
			rows = append(rows, []string{r.Module, "error: " + r.Err})
			continue
		}
		rows = append(rows, []string{r.Module + "@" + r.Version, fmt.Sprint(r.Functions), fmt.Sprint(r.Calls), fmt.Sprint(r.Returned), fmt.Sprint(r.Specs), fmt.Sprint(r.Invariants),
			fmt.Sprintf("%.1f", r.Plain), fmt.Sprintf("%.1f", r.Mine), ratio(r.Mine, r.Plain), gb(r.MinePeak), fmt.Sprintf("%.2f", r.Load), gb(r.Live), fmt.Sprintf("%.2f", r.Infer), fmt.Sprintf("%.2f", r.InferCPU), rate(r.Calls+r.Returned, r.Infer), rate(r.Calls+r.Returned, r.InferCPU),
			fmt.Sprintf("%d/%d", r.PlainExit, r.MineExit)})
		tot.Functions += r.Functions
		tot.Calls += r.Calls
		tot.Returned += r.Returned
		tot.Specs += r.Specs
		tot.Invariants += r.Invariants
		tot.Plain += r.Plain
		tot.Mine += r.Mine
		tot.MinePeak = max(tot.MinePeak, r.MinePeak)
		tot.Load += r.Load
		tot.Live = max(tot.Live, r.Live)
		tot.Infer += r.Infer
		tot.InferCPU += r.InferCPU
	}
	rows = append(rows, []string{"total", fmt.Sprint(tot.Functions), fmt.Sprint(tot.Calls), fmt.Sprint(tot.Returned), fmt.Sprint(tot.Specs), fmt.Sprint(tot.Invariants),
		fmt.Sprintf("%.1f", tot.Plain), fmt.Sprintf("%.1f", tot.Mine), ratio(tot.Mine, tot.Plain), gb(tot.MinePeak), fmt.Sprintf("%.2f", tot.Load), gb(tot.Live), fmt.Sprintf("%.2f", tot.Infer), fmt.Sprintf("%.2f", tot.InferCPU), rate(tot.Calls+tot.Returned, tot.Infer), rate(tot.Calls+tot.Returned, tot.InferCPU), ""})
	proof.WriteTable(w, rows, markdown)
	for _, r := range results {
		if r.Err != "" {
			fmt.Fprintf(w, "\n%s: %s", r.Module, r.Err)
		}
	}
	fmt.Fprintln(w)
}

func ratio(a, b float64) string {
	if b <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f", a/b)
}

// gb renders bytes in gigabytes.
func gb(b int64) string {
	if b <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", float64(b)/(1<<30))
}

// rate is records per second, in millions.
func rate(records int, secs float64) string {
	if secs <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.2fM", float64(records)/secs/1e6)
}
