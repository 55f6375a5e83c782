// Command changes benchmarks culprit changes on the real-fault corpus
// (bench/faults/corpus.json): for each bug, GOOD is the fixed release
// B's tree and BAD the buggy release A's with B's regression test files
// over it, so that A fails B's regression tests and B passes. culprit
// changes looks for the minimal failure-inducing part of the change from
// B to A, a whole release's diff. The table reports, per bug, the size
// of that diff, the size of culprit's result, whether the result
// touches the lines the fix changed (the corpus's faults, A's lines),
// the tests run and the time.
//
//	go run ./bench/changes [-bugs ID,...] [-n N] [-jobs N] [-markdown]
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/culprit-go/culprit/bench/internal/proof"
)

// bug is what the benchmark needs of bench/faults's Bug.
type bug struct {
	ID           string   `json:"id"`
	Module       string   `json:"module"`
	Buggy        string   `json:"buggy"`
	Fixed        string   `json:"fixed"`
	Package      string   `json:"package"`
	TestFiles    []string `json:"test_files"`
	FailingTests []string `json:"failing_tests"`
	Faults       []struct {
		File  string `json:"file"`
		Lines []int  `json:"lines"`
	} `json:"faults"`
	GoFlags string `json:"goflags"`
	Set     string `json:"set"`
}

// result is culprit changes's -format json, the part read here.
type result struct {
	Failure string `json:"failure"`
	Changes []struct {
		File         string   `json:"file"`
		GoodLines    [][2]int `json:"good_lines"`
		BadLines     [][2]int `json:"bad_lines"`
		DeletedAfter []int    `json:"deleted_after"`
	} `json:"changes"`
	Isolated []struct {
		File string `json:"file"`
	} `json:"isolated"`
	Size struct {
		ChangeLines int `json:"change_lines"`
		ChangeHunks int `json:"change_hunks"`
		ResultLines int `json:"result_lines"`
	} `json:"size"`
	Tests       int     `json:"tests"`
	Unbuildable int     `json:"skipped_unbuildable"`
	Seconds     float64 `json:"seconds"`
	Diff        string  `json:"diff"`
}

type row struct {
	bug     *bug
	res     *result
	touches bool
	wall    float64
	err     string
}

func main() {
	corpus := flag.String("corpus", "bench/faults/corpus.json", "the corpus `file`")
	ids := flag.String("bugs", "", "comma-separated bug `ids` (default: all)")
	n := flag.Int("n", 0, "at most `N` bugs (0: all)")
	work := flag.String("work", "", "work `dir` (default: a temporary one, removed)")
	bin := flag.String("culprit", "", "culprit `binary` (default: built from this checkout)")
	jobs := flag.Int("jobs", 2, "culprit changes's -jobs")
	timeout := flag.Duration("timeout", 15*time.Minute, "time limit of one bug")
	markdown := flag.Bool("markdown", false, "print the table as Markdown")
	flag.Parse()

	bugs, err := load(*corpus, *ids)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	if *n > 0 && len(bugs) > *n {
		bugs = bugs[:*n]
	}
	dir, cleanup, err := proof.WorkDir(*work, "culprit-bench-changes-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer cleanup()
	culprit, err := proof.Culprit(dir, *bin)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var rows []row
	for _, b := range bugs {
		r := runBug(dir, culprit, b, *jobs, *timeout)
		rows = append(rows, r)
		status := "ok"
		if r.err != "" {
			status = r.err
		}
		fmt.Fprintf(os.Stderr, "%s: %s (%.0fs)\n", b.ID, status, r.wall)
	}
	report(os.Stdout, rows, *markdown)
}

func load(file, ids string) ([]*bug, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var c struct{ Bugs []*bug }
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if ids == "" {
		return c.Bugs, nil
	}
	var out []*bug
	for _, id := range strings.Split(ids, ",") {
		i := slices.IndexFunc(c.Bugs, func(b *bug) bool { return b.ID == strings.TrimSpace(id) })
		if i < 0 {
			return nil, fmt.Errorf("no bug %s in %s", id, file)
		}
		out = append(out, c.Bugs[i])
	}
	return out, nil
}

// runBug makes the bug's two trees and runs culprit changes on them.
func runBug(work, culprit string, b *bug, jobs int, timeout time.Duration) (r row) {
	r.bug = b
	start := time.Now()
	defer func() { r.wall = time.Since(start).Seconds() }()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	if b.GoFlags != "" {
		old := os.Getenv("GOFLAGS")
		os.Setenv("GOFLAGS", strings.TrimSpace(old+" "+b.GoFlags))
		defer os.Setenv("GOFLAGS", old)
	}
	dir := filepath.Join(work, b.ID)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		r.err = err.Error()
		return r
	}
	buggy, _, err := proof.DownloadAt(ctx, dir, b.Module, b.Buggy)
	if err != nil {
		r.err = "download: " + err.Error()
		return r
	}
	fixed, _, err := proof.DownloadAt(ctx, dir, b.Module, b.Fixed)
	if err != nil {
		r.err = "download: " + err.Error()
		return r
	}
	for _, f := range b.TestFiles {
		data, err := os.ReadFile(filepath.Join(fixed, filepath.FromSlash(f)))
		if err != nil {
			r.err = err.Error()
			return r
		}
		dst := filepath.Join(buggy, filepath.FromSlash(f))
		os.MkdirAll(filepath.Dir(dst), 0o755)
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			r.err = err.Error()
			return r
		}
	}
	// GOOD is B, BAD is A with B's tests; the package is named from
	// GOOD's root, and go test runs the regression tests, without vet
	// as bench/faults verified the bugs (vet of a newer Go rejects
	// some old releases' tests).
	cmd := exec.CommandContext(ctx, culprit, "changes", "-good", fixed, "-bad", buggy, "-format", "json",
		"-jobs", fmt.Sprint(jobs), "-v", b.Package, "--", "-vet=off", "-run", "^("+strings.Join(b.FailingTests, "|")+")$")
	cmd.Dir = fixed
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	os.WriteFile(filepath.Join(dir, "changes.log"), stderr.Bytes(), 0o644)
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if i := strings.LastIndex(msg, "\n"); i >= 0 {
			msg = msg[i+1:]
		}
		r.err = fmt.Sprintf("%v: %s", err, msg)
		return r
	}
	os.WriteFile(filepath.Join(dir, "changes.json"), stdout.Bytes(), 0o644)
	var res result
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
		r.err = err.Error()
		return r
	}
	r.res = &res
	r.touches = touches(b, &res, buggy)
	return r
}

// touches reports whether the result changes a fault line of A (BAD):
// an inserted line of A that is one, or deleted lines (B's) that stood
// next to it. A fault of a pure insertion is the line before it, or,
// when that line is blank, the nearest non-blank line above
// (corpus.json's convention), so a deletion point after A's line d
// touches the lines from the nearest non-blank line at or above d to
// d+1.
func touches(b *bug, res *result, buggy string) bool {
	for _, f := range b.Faults {
		var lines []string
		if data, err := os.ReadFile(filepath.Join(buggy, filepath.FromSlash(f.File))); err == nil {
			lines = strings.Split(string(data), "\n")
		}
		blank := func(l int) bool { return l >= 1 && l <= len(lines) && strings.TrimSpace(lines[l-1]) == "" }
		for _, c := range res.Changes {
			if c.File != f.File {
				continue
			}
			for _, l := range f.Lines {
				for _, rg := range c.BadLines {
					if l >= rg[0] && l <= rg[1] {
						return true
					}
				}
				for _, d := range c.DeletedAfter {
					from := d
					for from > 1 && blank(from) {
						from--
					}
					if l >= from && l <= d+1 {
						return true
					}
				}
			}
		}
	}
	return false
}

func report(w *os.File, rows []row, markdown bool) {
	table := [][]string{{"bug", "release diff (hunks / lines)", "result (lines)", "touches fix", "tests", "unbuildable", "time"}}
	var ok, touched, small int
	for _, r := range rows {
		if r.res == nil {
			table = append(table, []string{r.bug.ID, "-", "error: " + oneLine(r.err), "-", "-", "-", fmt.Sprintf("%.0fs", r.wall)})
			continue
		}
		ok++
		yes := "no"
		if r.touches {
			yes = "yes"
			touched++
		}
		if r.res.Size.ResultLines <= 10 {
			small++
		}
		table = append(table, []string{
			r.bug.ID,
			fmt.Sprintf("%d / %d", r.res.Size.ChangeHunks, r.res.Size.ChangeLines),
			fmt.Sprint(r.res.Size.ResultLines),
			yes,
			fmt.Sprint(r.res.Tests),
			fmt.Sprint(r.res.Unbuildable),
			fmt.Sprintf("%.0fs", r.res.Seconds),
		})
	}
	proof.WriteTable(w, table, markdown)
	pct := func(k, n int) string {
		if n == 0 {
			return "-"
		}
		return fmt.Sprintf("%d/%d (%.0f%%)", k, n, 100*float64(k)/float64(n))
	}
	fmt.Fprintf(w, "\nbugs: %d, measured: %d; result touches the fixed lines: %s of all; at most 10 changed lines: %s of all\n",
		len(rows), ok, pct(touched, len(rows)), pct(small, len(rows)))
	// The bugs whose release diff is larger than 10 lines, where a
	// small result is not given.
	var big, bigTouched, bigSmall int
	var diffs, results []int
	for _, r := range rows {
		if r.res == nil {
			continue
		}
		diffs = append(diffs, r.res.Size.ChangeLines)
		results = append(results, r.res.Size.ResultLines)
		if r.res.Size.ChangeLines > 10 {
			big++
			if r.touches {
				bigTouched++
			}
			if r.res.Size.ResultLines <= 10 {
				bigSmall++
			}
		}
	}
	fmt.Fprintf(w, "release diffs of more than 10 lines: %d bugs; result touches the fixed lines: %s; at most 10 lines: %s\n",
		big, pct(bigTouched, big), pct(bigSmall, big))
	fmt.Fprintf(w, "median release diff: %d lines; median result: %d lines\n", median(diffs), median(results))
}

func median(xs []int) int {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

func oneLine(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if len(s) > 80 {
		s = s[:80] + "..."
	}
	return s
}
