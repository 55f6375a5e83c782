// Package cli holds culprit's command-line front end: flag parsing, help
// text and the mapping of errors to exit codes. Every command is a function
// over its arguments and standard streams, so tests run it in-process.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/culprit-go/culprit/internal/instrument"
)

// Exit statuses shared by all commands.
const (
	exitOK    = 0 // the command did its job
	exitFail  = 1 // the job ran but found a failure (as go test does)
	exitUsage = 2 // bad input: flags, files, an oracle that does not fail
)

// env is what a command sees of the outside world.
type env struct {
	ctx    context.Context
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
}

// command is one culprit subcommand.
type command struct {
	name    string
	summary string
	run     func(e *env, args []string) int
}

// commands lists culprit's subcommands; help prints them in this order.
func commands() []command {
	return []command{
		{"changes", "find the failure-inducing change between a passing and a failing version", runChanges},
		{"check", "check mined contracts on a new run of the tests", runCheck},
		{"flow", "draw the dynamic data-flow graph of a run's output", runFlow},
		{"mine", "mine functions' likely pre- and postconditions from the tests", runMine},
		{"rank", "rank the code failing tests execute by suspiciousness", runRank},
		{"reduce", "shrink a failure-inducing input (delta debugging)", runReduce},
		{"slice", "trace where a value comes from: dynamic dependencies and slices", runSlice},
		{"test", "run go test instrumented, recording a trace", runTest},
		{"version", "print culprit's module version and VCS revision", runVersion},
		{"web", "serve the local web view of a trace (also: -http on rank, slice, mine, flow)", runWeb},
	}
}

// Main runs culprit with the given arguments (without the program name)
// and returns the process exit status. Ctrl-C cancels the command's
// context; commands save their progress and return.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	e := &env{ctx: ctx, stdin: stdin, stdout: stdout, stderr: stderr}
	if len(args) == 0 {
		usage(stderr)
		return exitUsage
	}
	name := args[0]
	switch name {
	case "help", "-h", "-help", "--help":
		if len(args) > 1 {
			for _, c := range commands() {
				if c.name == args[1] {
					return c.run(e, []string{"-help"})
				}
			}
		}
		usage(stdout)
		return exitOK
	case "-version", "--version":
		return runVersion(e, args[1:])
	}
	for _, c := range commands() {
		if c.name == name {
			return c.run(e, args[1:])
		}
	}
	fmt.Fprintf(stderr, "culprit: unknown command %q (run \"culprit help\")\n", name)
	return exitUsage
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "culprit: automated debugging for Go")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Usage: culprit COMMAND [flags] [args]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Commands:")
	cs := commands()
	for _, c := range cs {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Run \"culprit help COMMAND\" for a command's flags.")
}

// errorf prints a one-line error with the program prefix.
func errorf(e *env, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	msg = strings.TrimSpace(strings.ReplaceAll(msg, "\n", " "))
	fmt.Fprintf(e.stderr, "culprit: %s\n", msg)
}

// parseFlags parses fs, mapping -help to a zero status and bad flags to a
// usage error. It returns done=true with the status when the command must
// stop.
func parseFlags(e *env, fs *flag.FlagSet, args []string) (done bool, status int) {
	fs.SetOutput(io.Discard)
	err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		fs.SetOutput(e.stdout)
		fs.Usage()
		return true, exitOK
	}
	if err != nil {
		errorf(e, "%s: %v", fs.Name(), err)
		return true, exitUsage
	}
	return false, exitOK
}

// splitArgs parses flags and packages, which may be interleaved, and the
// go test flags after "--".
func splitArgs(e *env, fs *flag.FlagSet, args []string) (pkgs, goFlags []string, done bool, status int) {
	for i, a := range args {
		if a == "--" {
			args, goFlags = args[:i], args[i+1:]
			break
		}
	}
	for {
		if done, status := parseFlags(e, fs, args); done {
			return nil, nil, true, status
		}
		if fs.NArg() == 0 {
			break
		}
		pkgs = append(pkgs, fs.Arg(0))
		args = fs.Args()[1:]
	}
	return pkgs, goFlags, false, exitOK
}

// runTrouble tells the user what an instrumented run could not record:
// files culprit cannot instrument (notes), test binaries stopped by
// -timeout (notes), and packages whose tests did not build, with the go
// command's own errors. It returns true, after the report, when the run
// is no input for an analysis: a package did not build (its trace would
// be taken for a complete one).
func runTrouble(e *env, cmd string, res *instrument.Result) bool {
	for _, n := range res.Unrecorded {
		fmt.Fprintf(e.stderr, "culprit: %s: note: %s\n", cmd, n)
	}
	for _, t := range res.TimedOut {
		fmt.Fprintf(e.stderr, "culprit: %s: note: %s; its trace ends there\n", cmd, t)
	}
	for _, r := range res.Resumed {
		fmt.Fprintf(e.stderr, "culprit: %s: note: %s\n", cmd, r)
	}
	if len(res.Broken) == 0 {
		return false
	}
	errorf(e, "%s: the tests of %s did not build; the go command said:", cmd, strings.Join(res.Broken, ", "))
	for _, l := range res.BuildErrors {
		fmt.Fprintf(e.stderr, "\t%s\n", l)
	}
	return true
}

// instrumentFailed reports an error of an instrumented run (instrument.Run
// or RunProgram) and returns the exit status: 2 for usage errors (a
// pattern matching nothing, a refused flag, an unwritable trace
// directory), 1 otherwise.
func instrumentFailed(e *env, cmd string, err error) int {
	if outsideModule(err) {
		return noModuleError(e, cmd)
	}
	errorf(e, "%s: %v", cmd, err)
	var ue *instrument.UsageError
	if errors.As(err, &ue) {
		return exitUsage
	}
	return exitFail
}

// outsideModule reports whether err is go list's failure to find
// packages ("no packages match", "go.mod file not found", ...) and the current
// directory is outside every Go module: go's message does not say what to
// do.
func outsideModule(err error) bool {
	msg, found := err.Error(), false
	for _, s := range []string{"no packages match", "go.mod file not found", "does not contain main module", "cannot find main module"} {
		found = found || strings.Contains(msg, s)
	}
	if !found {
		return false
	}
	wd, werr := os.Getwd()
	return werr == nil && moduleRoot(wd) == ""
}

// moduleRoot returns the nearest directory holding a go.mod, from dir
// up; "" when there is none.
func moduleRoot(dir string) string {
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// noModuleError reports that cmd runs outside a module and returns the
// usage status.
func noModuleError(e *env, cmd string) int {
	errorf(e, "%s: no go.mod here (culprit works inside a Go module): cd to your module's directory, or create one with go mod init", cmd)
	return exitUsage
}
