package cli

import (
	"flag"
	"fmt"
	"strings"

	"github.com/culprit-go/culprit/internal/instrument"
	"github.com/culprit-go/culprit/trace"
)

const testUsage = `Usage: culprit test [flags] [packages] [-- go test flags]

Test runs go test on the packages as go test would (same output, same exit
status) with their code instrumented, and leaves a trace of the run in the
trace directory: the site table and one events file per test binary (the
format is specified in the trace package).

Event kinds (-events, comma-separated, or all):
  stmt        statements executed, per test (the default)
  branch      outcomes of if, for, switch and select cases, && and ||
              operands, range iterations, per test
  func        function entries and exits with argument, receiver and
              result values, each entry linked to the call site (calls)
  reads       variable reads with their values, column-precise; elements,
              map entries, fields and dereferences with where they are
  writes      assignments, increments, declarations, range variables and
              if/switch/for header assignments with the values written and
              where (address, element index, map key)
  calls       call sites: a call record before the arguments, the callee's
              entry names it, the results at the call site after it
              returns; deferred calls too
  panics      panic calls and recover calls with their values
  goroutines  go statements, linked to the goroutine they start and its
              entry
  chans       channel sends and receives with the values and the channel
  steps       every statement execution, in order, per goroutine
  decisions   every branch outcome (as branch), in order, per goroutine

Statement and branch events are counters attributed to the tests running
when they were set: exact when one test runs at a time; with parallel
tests each gets what ran while they overlapped, and is marked shared
(-- -parallel=1 for exact spectra). The other kinds are attributed per
goroutine. Functions small enough for the compiler to inline that return
pointers (or strings, slices...) record statements and branches only, so
that their callers' allocations do not change; -inlinable records them
too.

-cover and -coverprofile cannot be combined with culprit test (go test
ignores -overlay for the files it covers): statement events are coverage
per test.

Flags:
`

// runTest runs go test instrumented.
func runTest(e *env, args []string) int {
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	events := fs.String("events", "stmt", "event kinds to record: `LIST` of stmt, branch, func, reads, writes, calls, panics, goroutines, chans, steps, decisions, or all")
	inlinable := fs.Bool("inlinable", false, "record stream events in small functions the compiler would inline too (allocation counts can change)")
	traceDir := fs.String("trace", "", "write the trace to `DIR` (default .culprit at the module root)")
	instr := fs.String("instrument", "", "also instrument the packages matching `PATTERNS` (comma-separated)")
	verbose := fs.Bool("x", false, "print what was instrumented and where the trace is, on stderr")
	keep := fs.Bool("work", false, "keep the rewritten files (for debugging culprit)")
	calls := fs.Int("calls", instrument.DefaultCallLimit, "record the first `N` stream events of each site (calls of a function, reads of a variable...), then only those numbered by powers of two; a call of a function not recorded records nothing inside it; 100 a site once the test binary has recorded 2^25 events (-1: all)")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), testUsage)
		fs.PrintDefaults()
	}
	pkgs, goFlags, done, status := splitArgs(e, fs, args)
	if done {
		return status
	}
	set, err := trace.ParseEvents(*events)
	if err != nil {
		errorf(e, "test: -events: %v", err)
		return exitUsage
	}
	cfg := instrument.Config{
		Packages:  pkgs,
		Events:    set,
		TraceDir:  *traceDir,
		GoFlags:   goFlags,
		Stdout:    e.stdout,
		Stderr:    e.stderr,
		KeepWork:  *keep,
		CallLimit: *calls,
		Inlinable: *inlinable,
	}
	if *instr != "" {
		cfg.Instrument = strings.Split(*instr, ",")
	}
	res, err := instrument.Run(e.ctx, cfg)
	if err != nil {
		return instrumentFailed(e, "test", err)
	}
	if *verbose {
		for _, n := range res.Notes {
			fmt.Fprintf(e.stderr, "culprit: %s\n", n)
		}
		fmt.Fprintf(e.stderr, "culprit: %d files, %d sites instrumented; trace in %s\n", res.Files, res.Sites, res.TraceDir)
	}
	return res.ExitCode
}
