package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/culprit-go/culprit/reduce"
	"github.com/culprit-go/culprit/reduce/brackets"
	reducecmd "github.com/culprit-go/culprit/reduce/command"
	"github.com/culprit-go/culprit/reduce/gosyntax"
	"github.com/culprit-go/culprit/reduce/jsontree"
	"github.com/culprit-go/culprit/reduce/oracle"
	"github.com/culprit-go/culprit/reduce/rewrite"
)

// exitInterrupted is reduce's status when Ctrl-C (or SIGTERM) stopped it
// after saving the best input so far: 128 + SIGINT, as shells report it.
const exitInterrupted = 130

const reduceUsage = `Usage: culprit reduce [flags] FILE -- COMMAND [ARGS]
       culprit reduce [flags] --test SCRIPT FILE
       culprit reduce [flags] -run REGEX [PACKAGE]

Reduce FILE (a file or a directory) to a smaller input on which COMMAND
still fails the same way. In ARGS, {} stands for the candidate's absolute
path (appended when absent); COMMAND runs in the current directory. With
--test, SCRIPT runs in a fresh directory holding the candidate under
FILE's name, and exit status 0 means the candidate is interesting. With
-run, the Go files of PACKAGE (default .) are reduced while go test -run
REGEX fails the same way, into a module of its own (PACKAGE.reduced).

The result goes to FILE.reduced (--mode min, diff) and FILE.passing
(--mode max, diff), updated atomically at each improvement; the original
is never modified. See docs/reduce.md.

Flags:
`

// reduceFlags are the parsed flags of culprit reduce.
type reduceFlags struct {
	mode, out, levels, match, script string
	lang, run                        string
	jobs, repeat                     int
	timeout                          time.Duration
	ignoreOutput, json, verbose      bool
	deps                             bool
}

func runReduce(e *env, args []string) int {
	fs := flag.NewFlagSet("reduce", flag.ContinueOnError)
	var f reduceFlags
	fs.StringVar(&f.mode, "mode", "min", "`min` minimizes the failing input, max maximizes a passing one, diff does both")
	fs.StringVar(&f.out, "o", "", "write the result to `PATH` (default FILE.reduced, or FILE.passing with --mode max)")
	fs.StringVar(&f.levels, "levels", "", "comma-separated `levels`, coarse to fine: files, lines, tokens, bytes (default: files (for a directory),lines,tokens,bytes; -run: files,lines)")
	fs.StringVar(&f.lang, "lang", "", "syntax of the input for tree reduction: `go`, json, text (brackets and indentation) or none (default: by file extension, text for unknown files)")
	fs.StringVar(&f.match, "match", "", "the failure is `REGEX` matching the output (stdout and stderr), with the original's exit status")
	fs.StringVar(&f.script, "test", "", "C-Reduce style interestingness test: `SCRIPT` exits 0 when the candidate is interesting")
	fs.BoolVar(&f.deps, "deps", false, "package mode: also reduce the packages of the module that the package imports")
	fs.StringVar(&f.run, "run", "", "package mode: reduce the Go package named instead of FILE (default .) while go test -run `REGEX` fails the same way")
	fs.IntVar(&f.jobs, "jobs", runtime.NumCPU(), "test `N` candidates in parallel")
	fs.IntVar(&f.repeat, "repeat", 0, "run the original `K` more times and stop if the outcomes differ")
	fs.DurationVar(&f.timeout, "timeout", 0, "time limit of one test (default: 10 times the original's run time, at least 1s)")
	fs.BoolVar(&f.ignoreOutput, "ignore-output", false, "the failure is the exit status alone")
	fs.BoolVar(&f.json, "json", false, "print a JSON summary on stdout")
	fs.BoolVar(&f.verbose, "v", false, "log each test to stderr")
	fs.BoolVar(&f.verbose, "log", false, "same as -v")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), reduceUsage)
		fs.PrintDefaults()
	}

	// Flags may come before or after FILE; "--" starts the command.
	var cmdArgs []string
	hasCmd := false
	for i, a := range args {
		if a == "--" {
			args, cmdArgs, hasCmd = args[:i], args[i+1:], true
			break
		}
	}
	var files []string
	for {
		if done, status := parseFlags(e, fs, args); done {
			return status
		}
		if fs.NArg() == 0 {
			break
		}
		files = append(files, fs.Arg(0))
		args = fs.Args()[1:]
	}

	if f.run != "" {
		r, p, err := newPkgReducer(&f, files, hasCmd)
		if err != nil {
			errorf(e, "reduce: %v", err)
			return exitUsage
		}
		return reducePackage(e, &f, r, p)
	}
	r, err := newReducer(&f, files, hasCmd, cmdArgs)
	if err != nil {
		errorf(e, "reduce: %v", err)
		return exitUsage
	}
	return reduceMain(e, &f, r)
}

// newReducer checks the arguments and builds the reducer they describe.
func newReducer(f *reduceFlags, files []string, hasCmd bool, cmdArgs []string) (*reducecmd.Reducer, error) {
	switch {
	case len(files) == 0:
		return nil, errors.New("no input file (usage: culprit reduce [flags] FILE -- COMMAND [ARGS])")
	case len(files) > 1:
		return nil, fmt.Errorf("one input file expected, got %d: %s", len(files), strings.Join(files, " "))
	case hasCmd && f.script != "":
		return nil, errors.New("give either -- COMMAND or --test SCRIPT, not both")
	case hasCmd && len(cmdArgs) == 0:
		return nil, errors.New("empty command after --")
	case !hasCmd && f.script == "":
		return nil, errors.New("no command: give -- COMMAND [ARGS] or --test SCRIPT")
	case f.jobs < 1:
		return nil, fmt.Errorf("--jobs %d: want at least 1", f.jobs)
	case f.repeat < 0:
		return nil, fmt.Errorf("--repeat %d: want 0 or more", f.repeat)
	case f.timeout < 0:
		return nil, fmt.Errorf("--timeout %v: want a positive duration", f.timeout)
	case f.match != "" && f.ignoreOutput:
		return nil, errors.New("give either --match or --ignore-output, not both")
	case f.deps:
		return nil, errors.New("--deps applies to package mode (-run) only")
	case f.script != "" && (f.match != "" || f.ignoreOutput):
		return nil, errors.New("--match and --ignore-output do not apply to --test (the script decides)")
	}
	r := &reducecmd.Reducer{Jobs: f.jobs, Repeat: f.repeat}
	switch f.mode {
	case "min":
		r.Mode = reduce.Min
	case "max":
		r.Mode = reduce.Max
	case "diff":
		r.Mode = reduce.Diff
	default:
		return nil, fmt.Errorf("unknown --mode %q (want min, max or diff)", f.mode)
	}
	if f.levels != "" {
		levels, err := reducecmd.ParseLevels(f.levels)
		if err != nil {
			return nil, fmt.Errorf("--levels: %v", err)
		}
		r.Levels = levels
	}

	if _, err := syntaxOf(f.lang, false, false); err != nil {
		return nil, err
	}

	file := filepath.Clean(files[0])
	if base := filepath.Base(file); base == "." || base == ".." || base == string(filepath.Separator) {
		// Name the directory, so that results go next to it, not in it.
		abs, err := filepath.Abs(file)
		if err != nil {
			return nil, err
		}
		file = abs
	}
	in, err := reducecmd.Read(file)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("%s: %v", pe.Path, pe.Err)
		}
		return nil, err
	}
	r.Input = in
	if f.levels == "" || f.lang != "" {
		// --levels alone names exactly the levels to run.
		r.Syntax, _ = syntaxOf(f.lang, in.Dir, false)
	}
	r.Output, r.Passing = file+".reduced", file+".passing"
	if f.out != "" {
		if r.Mode == reduce.Max {
			r.Passing = f.out
		} else {
			r.Output = f.out
		}
	}
	for _, out := range []string{r.Output, r.Passing} {
		if err := notOriginal(file, out); err != nil {
			return nil, err
		}
	}

	r.Command.Timeout = f.timeout
	switch {
	case f.script != "":
		args, err := scriptCommand(f.script)
		if err != nil {
			return nil, err
		}
		r.Command.Args = args
		r.Command.InCandidateDir = true
		r.Judge.Rule = oracle.Interesting
	case f.match != "":
		re, err := regexp.Compile(f.match)
		if err != nil {
			return nil, fmt.Errorf("bad --match: %v", err)
		}
		r.Command.Args = cmdArgs
		r.Judge = oracle.Judge{Rule: oracle.Match, Regexp: re}
	case f.ignoreOutput:
		r.Command.Args = cmdArgs
		r.Judge.Rule = oracle.ExitStatus
	default:
		r.Command.Args = cmdArgs
		r.Judge.Rule = oracle.GoPanic
	}
	return r, nil
}

// syntaxOf returns the syntax of each file for --lang: by extension when
// lang is empty (Go for .go, JSON for .json, brackets for the rest), or
// the one named for every file (in a directory, Go and JSON only for the
// files with their extension). With compiled, the oracle compiles the
// Go files (package mode's go test), which reject what is unused.
func syntaxOf(lang string, dir, compiled bool) (func(path string) rewrite.Syntax, error) {
	goSyn, jsonSyn, text := &gosyntax.Syntax{Compiled: compiled}, &jsontree.Syntax{}, brackets.Syntax{}
	switch lang {
	case "":
		return func(p string) rewrite.Syntax {
			switch filepath.Ext(p) {
			case ".go":
				return goSyn
			case ".json":
				return jsonSyn
			}
			return text
		}, nil
	case "go", "json":
		var syn rewrite.Syntax = goSyn
		if lang == "json" {
			syn = jsonSyn
		}
		return func(p string) rewrite.Syntax {
			if !dir || filepath.Ext(p) == "."+lang {
				return syn
			}
			return nil
		}, nil
	case "text":
		return func(string) rewrite.Syntax { return text }, nil
	case "none":
		return nil, nil
	}
	return nil, fmt.Errorf("unknown --lang %q (want go, json, text or none)", lang)
}

// notOriginal refuses a result path that would overwrite the original.
func notOriginal(file, out string) error {
	a, errA := filepath.Abs(file)
	b, errB := filepath.Abs(out)
	same := errA == nil && errB == nil && a == b
	if fa, err := os.Stat(file); err == nil {
		if fb, err := os.Stat(out); err == nil && os.SameFile(fa, fb) {
			same = true
		}
	}
	if same {
		return fmt.Errorf("result path %s is the original input; it is never overwritten", out)
	}
	return nil
}

// scriptCommand returns the command that runs a --test script: the
// script by its absolute path (it runs in another directory), or, for a
// text file without a "#!" line, /bin/sh with the script, as a shell would
// run it (C-Reduce's scripts often have none).
func scriptCommand(script string) ([]string, error) {
	var path string
	if info, err := os.Stat(script); err == nil && !info.IsDir() {
		abs, err := filepath.Abs(script)
		if err != nil {
			return nil, err
		}
		path = abs
	} else if p, err := exec.LookPath(script); err == nil && !strings.ContainsRune(script, filepath.Separator) {
		path = p
	} else {
		return nil, fmt.Errorf("--test %s: no such file", script)
	}
	if shellScript(path) {
		return []string{"/bin/sh", path}, nil
	}
	if info, err := os.Stat(path); err == nil && info.Mode().Perm()&0o111 == 0 {
		return nil, fmt.Errorf("--test %s: not executable", script)
	}
	return []string{path}, nil
}

// shellScript reports whether the file at path is text without a "#!"
// line: executables hold a NUL byte in their first kilobyte.
func shellScript(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 1024)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	return !bytes.HasPrefix(head, []byte("#!")) && !bytes.ContainsRune(head, 0)
}

// reduceSummary is the --json output of culprit reduce. Its keys are a
// contract (docs/reduce.md).
type reduceSummary struct {
	Mode           string   `json:"mode"`
	Levels         []string `json:"levels"`
	OriginalBytes  int      `json:"original_bytes"`
	FinalBytes     int      `json:"final_bytes"`
	Result         string   `json:"result"`
	Command        string   `json:"command,omitempty"`
	Passing        string   `json:"passing,omitempty"`
	PassingBytes   *int     `json:"passing_bytes,omitempty"`
	Tests          int      `json:"tests"`
	CacheHits      int      `json:"cache_hits"`
	Skipped        int      `json:"skipped_unparsable"`
	Sweeps         int      `json:"sweeps"`
	Seconds        float64  `json:"seconds"`
	TimeoutSeconds float64  `json:"timeout_seconds"`
	Interrupted    bool     `json:"interrupted"`
	Diff           *string  `json:"diff,omitempty"`
}

// runReducer reduces after the original was checked (checkErr, the
// result of r.Check), the progress line cleared. It returns the summary,
// whether an interrupt cut the reduction short (the best result so far
// is then the result), and an exit status when the command ends here
// (-1 otherwise).
func runReducer(e *env, r *reducecmd.Reducer, checkErr error, p *progress) (reducecmd.Summary, bool, int) {
	if checkErr != nil {
		p.clear()
		if e.ctx.Err() != nil {
			errorf(e, "reduce: interrupted while checking the original")
			return reducecmd.Summary{}, false, exitInterrupted
		}
		errorf(e, "reduce: %v", checkErr)
		return reducecmd.Summary{}, false, exitUsage
	}
	sum, err := r.Reduce(e.ctx)
	p.clear()
	interrupted := err != nil && errors.Is(err, context.Canceled) && e.ctx.Err() != nil
	if err != nil && !interrupted {
		errorf(e, "reduce: %v", err)
		return sum, false, exitFail
	}
	return sum, interrupted, -1
}

// reduceMain runs a checked reducer and reports.
func reduceMain(e *env, f *reduceFlags, r *reducecmd.Reducer) int {
	p := newProgress(e.stderr, f.verbose)
	r.OnStatus = p.status
	if f.verbose {
		r.OnTest = func(ev reducecmd.Event) { logTest(e.stderr, ev) }
	}
	sum, interrupted, code := runReducer(e, r, r.Check(e.ctx), p)
	if code >= 0 {
		return code
	}
	result := r.Output
	if r.Mode == reduce.Max {
		result = r.Passing
	}
	if f.json {
		js := reduceSummary{
			Mode:           r.Mode.String(),
			Levels:         sum.Levels,
			OriginalBytes:  sum.OriginalBytes,
			FinalBytes:     sum.FinalBytes,
			Result:         result,
			Tests:          sum.Tests,
			CacheHits:      sum.CacheHits,
			Skipped:        sum.Skipped,
			Sweeps:         sum.Sweeps,
			Seconds:        sum.Elapsed.Seconds(),
			TimeoutSeconds: sum.Timeout.Seconds(),
			Interrupted:    interrupted,
		}
		if r.Mode&reduce.Max != 0 {
			js.Passing, js.PassingBytes = r.Passing, &sum.PassingBytes
		}
		if r.Mode == reduce.Diff {
			js.Diff = &sum.Diff
		}
		b, _ := json.MarshalIndent(js, "", "  ")
		fmt.Fprintf(e.stdout, "%s\n", b)
	} else if r.Mode == reduce.Diff {
		fmt.Fprint(e.stdout, sum.Diff)
	}
	report(e.stderr, r, sum, result)
	if interrupted {
		errorf(e, "reduce: interrupted; the best input so far is in %s", result)
		return exitInterrupted
	}
	return exitOK
}

// report prints the human summary to stderr.
func report(w io.Writer, r *reducecmd.Reducer, sum reducecmd.Summary, result string) {
	pct := func(n int) float64 {
		if sum.OriginalBytes == 0 {
			return 100
		}
		return 100 * float64(n) / float64(sum.OriginalBytes)
	}
	switch r.Mode {
	case reduce.Max:
		fmt.Fprintf(w, "passing: %s (%d of %d bytes, %.1f%%)\n", result, sum.FinalBytes, sum.OriginalBytes, pct(sum.FinalBytes))
	default:
		fmt.Fprintf(w, "reduced: %s (%d of %d bytes, %.1f%%)\n", result, sum.FinalBytes, sum.OriginalBytes, pct(sum.FinalBytes))
		if r.Mode == reduce.Diff {
			fmt.Fprintf(w, "passing: %s (%d bytes; difference: %s)\n", r.Passing, sum.PassingBytes, plural(sum.FinalBytes-sum.PassingBytes, "byte"))
		}
	}
	skipped := ""
	if sum.Skipped > 0 {
		skipped = fmt.Sprintf(", %d skipped unparsable", sum.Skipped)
	}
	fmt.Fprintf(w, "tests: %d run, %d cached%s, %.1fs\n", sum.Tests, sum.CacheHits, skipped, sum.Elapsed.Seconds())
}

// plural formats a count of things.
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// logTest prints one test for -v.
func logTest(w io.Writer, ev reducecmd.Event) {
	if ev.Cached {
		fmt.Fprintf(w, "cached  %-6s %6d bytes  %s\n", ev.Level, ev.Bytes, ev.Outcome)
		return
	}
	why := ""
	if ev.Outcome == reduce.Unresolved {
		// Say what failed instead: the first error message, or the
		// first line of standard error.
		if msg := oracle.ParseMessage(ev.Run.Output); msg != "" {
			why = ": " + msg
		} else if msg, _ := oracle.ParsePanic(ev.Run.Output); msg != "" {
			why = ": " + msg
		} else if line, _, _ := strings.Cut(strings.TrimSpace(string(ev.Run.Stderr)), "\n"); line != "" {
			why = ": " + line
		} else if t := oracle.FailedTest(ev.Run.Output); t != "" {
			why = ": --- FAIL: " + t
		}
	}
	fmt.Fprintf(w, "test %-3d %-6s %5d bytes  %s (%s, %s)%s\n", ev.Number, ev.Level, ev.Bytes, ev.Outcome, ev.Run.Exit, ev.Run.Duration.Round(time.Millisecond), why)
}

// progress draws one updating status line on a terminal.
type progress struct {
	mu   sync.Mutex
	w    io.Writer
	on   bool
	last time.Time
	drew bool
}

func newProgress(w io.Writer, verbose bool) *progress {
	p := &progress{w: w}
	if f, ok := w.(*os.File); ok && !verbose {
		if info, err := f.Stat(); err == nil && info.Mode()&os.ModeCharDevice != 0 {
			p.on = true
		}
	}
	return p
}

func (p *progress) status(s reducecmd.Status) {
	if !p.on {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if now := time.Now(); now.Sub(p.last) >= 100*time.Millisecond {
		p.last = now
		rate := 0.0
		if secs := s.Elapsed.Seconds(); secs > 0 {
			rate = float64(s.Tests) / secs
		}
		pct := 100.0
		if s.OriginalBytes > 0 {
			pct = 100 * float64(s.Bytes) / float64(s.OriginalBytes)
		}
		fmt.Fprintf(p.w, "\r\x1b[Kreduce: sweep %d, %s: %d tests, %d cached, %d bytes (%.1f%%), %.1f tests/s",
			s.Sweep, s.Level, s.Tests, s.CacheHits, s.Bytes, pct, rate)
		p.drew = true
	}
}

func (p *progress) clear() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.drew {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.drew = false
	}
}
