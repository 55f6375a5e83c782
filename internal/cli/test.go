package cli

import (
	"errors"
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
  stmt    statements executed, per test (the default)
  branch  outcomes of if, for, switch and select cases, && and || operands,
          range iterations, per test
  func    function entries and exits with argument, receiver and result values

-cover and -coverprofile cannot be combined with culprit test (go test
ignores -overlay for the files it covers): statement events are coverage
per test.

Flags:
`

// runTest runs go test instrumented.
func runTest(e *env, args []string) int {
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	events := fs.String("events", "stmt", "event kinds to record: `LIST` of stmt, branch, func, or all")
	traceDir := fs.String("trace", "", "write the trace to `DIR` (default .culprit at the module root)")
	instr := fs.String("instrument", "", "also instrument the packages matching `PATTERNS` (comma-separated)")
	verbose := fs.Bool("x", false, "print what was instrumented and where the trace is, on stderr")
	keep := fs.Bool("work", false, "keep the rewritten files (for debugging culprit)")
	calls := fs.Int("calls", instrument.DefaultCallLimit, "with func events, record the first `N` calls of each function, then only calls numbered by powers of two (-1: all)")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), testUsage)
		fs.PrintDefaults()
	}
	var goFlags []string
	for i, a := range args {
		if a == "--" {
			args, goFlags = args[:i], args[i+1:]
			break
		}
	}
	var pkgs []string
	for {
		if done, status := parseFlags(e, fs, args); done {
			return status
		}
		if fs.NArg() == 0 {
			break
		}
		pkgs = append(pkgs, fs.Arg(0))
		args = fs.Args()[1:]
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
	}
	if *instr != "" {
		cfg.Instrument = strings.Split(*instr, ",")
	}
	res, err := instrument.Run(e.ctx, cfg)
	if err != nil {
		errorf(e, "test: %v", err)
		var ue *instrument.UsageError
		if errors.As(err, &ue) {
			return exitUsage
		}
		return exitFail
	}
	if *verbose {
		for _, n := range res.Notes {
			fmt.Fprintf(e.stderr, "culprit: %s\n", n)
		}
		fmt.Fprintf(e.stderr, "culprit: %d files, %d sites instrumented; trace in %s\n", res.Files, res.Sites, res.TraceDir)
	}
	return res.ExitCode
}
