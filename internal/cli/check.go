package cli

import (
	"flag"
	"fmt"

	"github.com/culprit-go/culprit/invariant"
	creport "github.com/culprit-go/culprit/report"
)

const checkUsage = `Usage: culprit check -contracts FILE [flags] [packages] [-- go test flags]

Check runs the packages' tests again, instrumented, and evaluates the
contracts of FILE (written by culprit mine -format json, possibly edited)
on every recorded call: preconditions on the arguments at entry,
postconditions on the arguments and the results of calls that returned.
It reports each violated condition with the function, the values of the
violating calls, the test that made them and where the call was made.
With -trace DIR it checks an existing trace instead.

The conditions are evaluated on the trace of the run, not compiled into
the program: the program runs exactly as under culprit test, and a
violation never stops a test. Conditions whose values do not fit (a
string where a number was mined) are counted as not applicable.

Exit status: 1 when a condition was violated or the tests could not be
run, 0 when none was (whether or not tests failed), 2 for bad flags,
packages or contract file.

Flags:
`

// runCheck checks contracts against a new run.
func runCheck(e *env, args []string) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	rf := addRunFlags(fs)
	file := fs.String("contracts", "", "the contract `FILE` (culprit mine -format json)")
	format := fs.String("format", "text", "output `FORMAT`: text or json")
	out := fs.String("o", "", "write the output to `FILE` instead of standard output")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), checkUsage)
		fs.PrintDefaults()
	}
	pkgs, goFlags, done, status := splitArgs(e, fs, args)
	if done {
		return status
	}
	if *file == "" {
		errorf(e, "check: -contracts FILE is required")
		return exitUsage
	}
	if *format != "text" && *format != "json" {
		errorf(e, "check: -format %q: want text or json", *format)
		return exitUsage
	}
	if *rf.traceDir != "" && (len(pkgs) > 0 || len(goFlags) > 0) {
		errorf(e, "check: -trace checks an existing trace: it takes no packages or go test flags")
		return exitUsage
	}
	c, err := invariant.ReadFile(*file)
	if err != nil {
		errorf(e, "check: %v", err)
		return exitUsage
	}
	b := newBudget(e, "check", *rf.timeout)
	defer b.close()
	cs, _, status, stop := collect(e, b, rf, pkgs, goFlags)
	if stop {
		return status
	}
	r, err := invariant.Check(c, cs)
	if err != nil {
		errorf(e, "check: %v", err)
		return exitUsage
	}
	w, closeOut, err := output(*out, e.stdout)
	if err != nil {
		errorf(e, "check: %v", err)
		return exitUsage
	}
	if *format == "json" {
		err = creport.ViolationsJSON(w, r)
	} else {
		err = creport.Violations(w, r)
	}
	if cerr := closeOut(); err == nil {
		err = cerr
	}
	if err != nil {
		errorf(e, "check: %v", err)
		return exitFail
	}
	if len(r.Violations) > 0 {
		return exitFail
	}
	return exitOK
}
