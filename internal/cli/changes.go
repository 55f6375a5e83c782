package cli

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime"
	"strings"
	"time"

	"github.com/culprit-go/culprit/changes"
	"github.com/culprit-go/culprit/reduce"
)

const changesUsage = `Usage: culprit changes [flags] -good REV|DIR [-bad REV|DIR] [packages] [-- go test flags]

Find the failure-inducing change between a version whose tests pass
(GOOD) and one where they fail (BAD, default: the work tree, which must
then be clean, read as HEAD). GOOD and BAD are git revisions of the
repository holding the current directory, or directories. The failure
is learned from BAD (the failing tests, their panic or first file:line:
message); GOOD must pass those tests.

With two revisions, the commits between them are bisected to the first
failing one (commits that do not build, or fail otherwise, are skipped).
Inside its change, delta debugging isolates a minimal set of changed
lines that makes the good side fail the same way; each candidate runs
go test through an -overlay, so the work tree and the index are never
touched.

The change is printed on standard output as a unified diff that git
apply accepts on the good side (GOOD, or the failing commit's parent);
the commit, the failure and the counts go to standard error. See
docs/changes.md.

Flags:
`

// changesJSON is -format json's output (docs/changes.md, JSON schema).
type changesJSON struct {
	Good     string              `json:"good"`
	Bad      string              `json:"bad"`
	Base     string              `json:"base"`
	Commit   *changesCommit      `json:"commit"`
	Range    []changesCommit     `json:"range,omitempty"`
	Skipped  []changesCommit     `json:"skipped_commits"`
	Failure  string              `json:"failure"`
	Command  string              `json:"command"`
	Changes  []changes.FileLines `json:"changes"`
	Isolated []changes.FileLines `json:"isolated"`
	Diff     string              `json:"diff"`
	Size     changesSize         `json:"size"`
	Tests    int                 `json:"tests"`
	Unbuild  int                 `json:"skipped_unbuildable"`
	Cached   int                 `json:"cache_hits"`
	Commits  int                 `json:"commits_tested"`
	Seconds  float64             `json:"seconds"`
}

type changesCommit struct {
	Hash    string `json:"hash"`
	Subject string `json:"subject"`
}

type changesSize struct {
	ChangeLines int `json:"change_lines"`
	ChangeHunks int `json:"change_hunks"`
	ResultLines int `json:"result_lines"`
}

func runChanges(e *env, args []string) int {
	fs := flag.NewFlagSet("changes", flag.ContinueOnError)
	var cfg changes.Config
	var format string
	var verbose bool
	fs.StringVar(&cfg.Good, "good", "", "the passing version: a git `REV` or a DIR")
	fs.StringVar(&cfg.Bad, "bad", "", "the failing version: a git `REV` or a DIR (default: the work tree, clean, as HEAD)")
	fs.IntVar(&cfg.Jobs, "jobs", runtime.NumCPU(), "test `N` candidates in parallel")
	fs.DurationVar(&cfg.Timeout, "timeout", 0, "time limit of one go test run (default: 10 times the slower of BAD's and GOOD's, at least 30s)")
	fs.StringVar(&format, "format", "text", "output `format`: text (a unified diff on stdout) or json")
	fs.BoolVar(&cfg.NoBisect, "no-bisect", false, "do not bisect the commits: isolate inside the whole change GOOD..BAD")
	fs.BoolVar(&cfg.NoCheck, "no-check", false, "run every candidate, even those that do not type-check")
	fs.BoolVar(&verbose, "v", false, "log each candidate to stderr")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), changesUsage)
		fs.PrintDefaults()
	}
	pkgs, goFlags, done, status := splitArgs(e, fs, args)
	if done {
		return status
	}
	switch {
	case cfg.Good == "":
		errorf(e, "changes: no GOOD version: give -good REV or -good DIR")
		return exitUsage
	case format != "text" && format != "json":
		errorf(e, "changes: -format %q: want text or json", format)
		return exitUsage
	case cfg.Jobs < 1:
		errorf(e, "changes: -jobs %d: want at least 1", cfg.Jobs)
		return exitUsage
	}
	cfg.Packages, cfg.GoFlags = pkgs, goFlags
	pr := newProgress(e.stderr, verbose)
	cfg.OnEvent = func(ev changes.Event) {
		if verbose {
			logChange(e.stderr, ev)
			return
		}
		changesStatus(pr, ev)
	}
	res, err := changes.Find(e.ctx, cfg)
	pr.clear()
	if err != nil {
		var ue *changes.UsageError
		switch {
		case errors.As(err, &ue):
			errorf(e, "changes: %v", err)
			return exitUsage
		case errors.Is(err, changes.ErrInterrupted) || e.ctx.Err() != nil:
			errorf(e, "changes: interrupted")
			return exitInterrupted
		}
		errorf(e, "changes: %v", err)
		return exitFail
	}
	diff := res.Change.Diff(res.Set)
	if format == "json" {
		js := changesJSON{
			Good: res.Good.String(), Bad: res.Bad.String(), Base: res.Base.String(),
			Skipped: commitsJSON(res.Skipped), Range: commitsJSON(res.Range),
			Failure: res.Failure, Command: res.Command,
			Changes: res.Change.Lines(res.Set), Isolated: res.Change.Lines(res.Isolated),
			Diff: diff, Tests: res.Tests, Unbuild: res.Unbuildable, Cached: res.CacheHits,
			Commits: res.Stats.Commits, Seconds: res.Elapsed.Seconds(),
		}
		if res.Commit != nil {
			js.Commit = &changesCommit{res.Commit.Rev, res.Commit.Subject}
		}
		js.Size.ChangeLines, js.Size.ChangeHunks = res.Change.Size()
		js.Size.ResultLines = len(res.Set)
		b, _ := json.MarshalIndent(js, "", "  ")
		fmt.Fprintf(e.stdout, "%s\n", b)
	} else {
		fmt.Fprint(e.stdout, diff)
	}
	summarizeChanges(e.stderr, res)
	return exitOK
}

func commitsJSON(vs []changes.Version) []changesCommit {
	out := []changesCommit{}
	for _, v := range vs {
		out = append(out, changesCommit{v.Rev, v.Subject})
	}
	return out
}

// summarizeChanges prints the human summary.
func summarizeChanges(w io.Writer, res *changes.Result) {
	switch {
	case res.Commit != nil:
		fmt.Fprintf(w, "first failing commit: %s %s\n", shortRev(res.Commit.Rev), res.Commit.Subject)
	case len(res.Range) > 0:
		fmt.Fprintf(w, "first failing commit: one of %d (skipped commits hide it):\n", len(res.Range))
		for _, c := range res.Range {
			fmt.Fprintf(w, "\t%s %s\n", shortRev(c.Rev), c.Subject)
		}
	}
	for _, c := range res.Skipped {
		fmt.Fprintf(w, "skipped: %s %s (does not build, or fails otherwise)\n", shortRev(c.Rev), c.Subject)
	}
	fmt.Fprintf(w, "failure: %s\n", res.Failure)
	lines, hunks := res.Change.Size()
	fmt.Fprintf(w, "change: %d changed lines in %d hunks; failure-inducing: %d lines, applied to %s\n", lines, hunks, len(res.Set), baseName(res))
	for _, fl := range res.Change.Lines(res.Set) {
		fmt.Fprintf(w, "\t%s: good lines %s, bad lines %s\n", fl.File, ranges(fl.GoodLines), ranges(fl.BadLines))
	}
	fmt.Fprintf(w, "tests: %d run, %d skipped as unbuildable, %d cached", res.Tests, res.Unbuildable, res.CacheHits)
	if res.Stats.Commits > 0 {
		fmt.Fprintf(w, ", %d commits tested", res.Stats.Commits)
	}
	fmt.Fprintf(w, "; %s\n", res.Elapsed.Round(100*time.Millisecond))
}

func baseName(res *changes.Result) string {
	if res.Base.Rev != "" && res.Base.Rev != res.Good.Rev {
		return "the commit's parent " + shortRev(res.Base.Rev)
	}
	return "GOOD (" + res.Good.String() + ")"
}

func shortRev(rev string) string {
	if len(rev) > 12 {
		return rev[:12]
	}
	return rev
}

func ranges(rs [][2]int) string {
	if len(rs) == 0 {
		return "none"
	}
	var parts []string
	for _, r := range rs {
		if r[0] == r[1] {
			parts = append(parts, fmt.Sprint(r[0]))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d", r[0], r[1]))
		}
	}
	return strings.Join(parts, ",")
}

// logChange is -v's line for a candidate.
func logChange(w io.Writer, ev changes.Event) {
	how := ""
	switch {
	case ev.Cached:
		how = " (cached)"
	case ev.Skipped:
		how = " (does not type-check)"
	case ev.Why != "":
		how = " (" + ev.Why + ")"
	}
	if ev.Run > 0 {
		how += fmt.Sprintf(" %s", ev.Run.Round(10*time.Millisecond))
	}
	fmt.Fprintf(w, "changes: %-7s %4d lines %-10s%s\n", ev.Phase, ev.Atoms, ev.Outcome, how)
}

// changesStatus draws the progress line on a terminal.
func changesStatus(p *progress, ev changes.Event) {
	if !p.on {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if now := time.Now(); now.Sub(p.last) >= 100*time.Millisecond || ev.Outcome == reduce.Fail {
		p.last = now
		fmt.Fprintf(p.w, "\r\x1b[Kchanges: %s: %d tests, %d unbuildable, %d cached, %s", ev.Phase, ev.Stats.Tests, ev.Stats.Unbuildable, ev.Stats.CacheHits, ev.Stats.Elapsed.Round(time.Second))
		p.drew = true
	}
}
