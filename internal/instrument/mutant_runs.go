package instrument

// This file runs the mutants' test binaries and compares their tests'
// outcomes and failure reports with the original's.

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"os/exec"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// testResult is a test's outcome and what it printed.
type testResult struct {
	outcome  string // "pass", "fail", "skip"; "" when it did not finish
	output   string
	reports  []string // its failure reports, normalized
	panicked bool
	// panicAt is where it panicked: the goroutine trace's first frame
	// outside the runtime and the testing package, "pkg.f(…) /a/b.go:12".
	panicAt string
	// unstable marks an original's failing test whose reports or
	// output differ from run to run (a map's keys listed in its
	// message, parallel tests' output interleaved): a mutant's run is
	// compared with it by outcome alone.
	unstable bool
	// words and reportWords are wordSet of output and of each report,
	// kept on the original's results (withWords): every mutant's run
	// is compared with them.
	words       string
	reportWords []string
	hasWords    bool
	// subtests are the names of its subtests at every level, sorted
	// (parseVerbose).
	subtests []string
}

// withWords keeps the word sets of the failing tests' results (theirs
// and their subtests') in res, the original's results, which every
// mutant's run is compared with (without them a diagnosis whose failing
// tests print much spent more time on them than on running its
// mutants: gorilla/mux's 60 failing subtests). The passing tests'
// results are compared by outcome only.
func withWords(res map[string]testResult, failing []string) {
	for _, t := range failing {
		for _, name := range family(res, t) {
			if r := res[name]; !r.hasWords {
				r.words, r.reportWords, r.hasWords = wordSet(r.output), wordSets(r.reports), true
				res[name] = r
			}
		}
	}
}

// outputWords is wordSet of r's output.
func outputWords(r testResult) string {
	if r.hasWords {
		return r.words
	}
	return wordSet(r.output)
}

var (
	durationRe = regexp.MustCompile(`\(\d+\.\d+s\)`)
	hexRe      = regexp.MustCompile(`0x[0-9a-f]{6,}|goroutine \d+`) // addresses, not a byte's value
	// A goroutine trace's frame, "pkg.f({0xc000012345, 0x4?}, ...)":
	// its arguments are whatever the registers and stack held, marked
	// "?" where the runtime is not sure, and differ from run to run
	// (jsonparser-v1.1.1's panic printed 0x4? in some runs of the same
	// binary and 0x0? in others, so that every mutant read as
	// changing the failure in one diagnosis and none in the next).
	frameRe = regexp.MustCompile(`^(\S+?)\((?:0x|\{).*\)$`)
)

// cpuSlack is the CPU time a mutant may use beyond three times the
// original's before it counts as looping forever. Looping mutants are
// common (a loop's condition or step mutated) and each costs its whole
// limit: with five times and 200 ms, jsonparser-v1.1.1's 26 looping
// mutants took 6.4 of the mutation step's 8 s of test runs, while no
// mutant that ended used over three times its original's CPU time plus
// 30 ms (fastjson-v1.5.1, jsonparser-v1.1.1, snappy: 0.1 s at most).
const cpuSlack = 50 * time.Millisecond

// runPattern is the -test.run pattern of tests: their top-level tests,
// or with alone the tests themselves (subtests, each level's names
// in an alternation of their own: a few siblings more may match).
func runPattern(tests []string, alone bool) string {
	var levels [][]string
	seen := map[string]bool{}
	for _, t := range tests {
		parts := []string{t}
		if alone {
			parts = strings.Split(t, "/")
		} else {
			parts[0], _, _ = strings.Cut(t, "/")
		}
		for i, p := range parts {
			if i == len(levels) {
				levels = append(levels, nil)
			}
			if k := fmt.Sprint(i, "/", p); !seen[k] {
				seen[k] = true
				levels[i] = append(levels[i], regexp.QuoteMeta(p))
			}
		}
	}
	out := make([]string, len(levels))
	for i, names := range levels {
		sort.Strings(names)
		out[i] = "^(" + strings.Join(names, "|") + ")$"
	}
	return strings.Join(out, "/")
}

// runLimits bound one run of a test binary against a mutant.
type runLimits struct {
	wall time.Duration // at least a second
	cpu  time.Duration // the CPU time it may use (0: no limit)
	// idle is how long it may use no CPU time at all (0: no limit): a
	// mutant that leaves a test waiting for ever (a client waiting for
	// an answer its mutated server never sends) is cut when it has
	// waited longer than the original's whole run took, twice, and
	// idleSlack, not at its wall-clock limit.
	idle time.Duration
}

// idleSlack is how long, beyond twice the original's run, a mutant's
// test binary may wait without using CPU time.
const idleSlack = 250 * time.Millisecond

// idleOf is the idle limit of a part of the tests whose run took wall
// on the original (0: not known, no limit).
func idleOf(wall time.Duration) time.Duration {
	if wall <= 0 {
		return 0
	}
	return 2*wall + idleSlack
}

// runMutant runs a test binary with mutant id enabled (0: the original)
// on the given tests (alone: not their top-level tests' other
// subtests), within lim (the CPU and idle limits where the system tells
// a running process's CPU time), and returns each test's result, the
// CPU time the binary used and its wall time.
func runMutant(ctx context.Context, bin, dir string, env []string, id int, tests []string, alone bool, lim runLimits) (map[string]testResult, time.Duration, time.Duration, error) {
	lim.wall = max(lim.wall, time.Second)
	c, cancel := context.WithTimeout(ctx, lim.wall)
	defer cancel()
	// One test at a time: parallel tests' output interleaves, and a
	// panic in one stops the others wherever the scheduler left them.
	cmd := exec.CommandContext(c, bin, "-test.v", "-test.run", runPattern(tests, alone), "-test.count=1", "-test.parallel=1")
	cmd.Dir = dir
	cmd.Env = append(append([]string(nil), env...), fmt.Sprintf("%s=%d", mutantEnv, id))
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return parseVerbose(""), 0, 0, err
	}
	done := make(chan struct{})
	if lim.cpu > 0 || lim.idle > 0 {
		go watchCPU(cmd.Process.Pid, lim.cpu, lim.idle, cancel, done)
	}
	err := cmd.Wait()
	wall := time.Since(start)
	close(done)
	var cpu time.Duration
	if ps := cmd.ProcessState; ps != nil {
		cpu = ps.UserTime() + ps.SystemTime()
	}
	return parseVerbose(out.String()), cpu, wall, err
}

// cpuWatch watches a running process's CPU time (or a process
// group's), read every so often.
type cpuWatch struct {
	read  func() (time.Duration, bool)
	every time.Duration
	limit time.Duration // CPU time after which it is stopped (0: none)
	idle  time.Duration // time without CPU time after which it is stopped (0: none)
}

// watchCPU calls stop when process pid has used limit of CPU time (if
// limit is not 0), or has used none for idle (if not 0), or returns when
// done is closed (or the process's CPU time cannot be read).
func watchCPU(pid int, limit, idle time.Duration, stop func(), done <-chan struct{}) {
	w := cpuWatch{read: func() (time.Duration, bool) { return procCPU(pid) }, every: 20 * time.Millisecond, limit: limit, idle: idle}
	w.run(stop, done)
}

// run calls stop when the CPU time read reaches the limit, or stays
// the same for idle, or returns when done is closed (or the CPU time
// cannot be read). CPU time is counted in the kernel's ticks (10 ms): a
// process that uses a tick of it in less than idle is not idle.
func (w cpuWatch) run(stop func(), done <-chan struct{}) {
	tick := time.NewTicker(w.every)
	defer tick.Stop()
	last, since := time.Duration(-1), time.Now()
	for {
		select {
		case <-done:
			return
		case now := <-tick.C:
			used, ok := w.read()
			if !ok {
				return
			}
			if w.limit > 0 && used >= w.limit {
				stop()
				return
			}
			if used != last {
				last, since = used, now
			} else if w.idle > 0 && now.Sub(since) >= w.idle {
				stop()
				return
			}
		}
	}
}

// reportRe matches the first line of what t.Log, t.Error and their
// kind print: "file.go:12: message", indented.
var reportRe = regexp.MustCompile(`^(\s*)[\w.+-]+\.go:\d+: `)

// parseVerbose reads go test -v output: each test's outcome, the lines
// printed while it was the running test, and its failure reports (a
// report's continuation lines are those indented deeper than its first).
func parseVerbose(out string) map[string]testResult {
	res := map[string]testResult{}
	text := map[string]*strings.Builder{}
	cur := ""
	var report *strings.Builder
	indent := 0
	frame := "" // the goroutine trace's last frame line
	endReport := func() {
		if report != nil && cur != "" {
			r := res[cur]
			r.reports = append(r.reports, report.String())
			res[cur] = r
		}
		report = nil
	}
	for _, l := range strings.Split(out, "\n") {
		if l == "PASS" || l == "FAIL" {
			// The binary's verdict, after the last test's result: not
			// that test's output (whichever test ran last, as the cases
			// of a table kept in a map run in random order, would
			// otherwise differ from the original's run by this line).
			endReport()
			cur = ""
			continue
		}
		t := normalizeOutput(strings.TrimSpace(l))
		marker := false
		for _, p := range []string{"=== RUN   ", "=== CONT  ", "=== NAME  ", "=== PAUSE "} {
			if strings.HasPrefix(t, p) {
				endReport()
				marker = true
				if p != "=== PAUSE " {
					cur = strings.TrimSpace(t[len(p):])
				}
			}
		}
		for _, p := range []string{"--- PASS: ", "--- FAIL: ", "--- SKIP: "} {
			if strings.HasPrefix(t, p) {
				endReport()
				marker = true
				name, _, _ := strings.Cut(t[len(p):], " ")
				r := res[name]
				r.outcome = strings.ToLower(p[4:8])
				res[name] = r
				cur = name
			}
		}
		if cur == "" {
			continue
		}
		if !marker {
			t = oneSpace(t)
		}
		b := text[cur]
		if b == nil {
			b = &strings.Builder{}
			text[cur] = b
		}
		b.WriteString(t)
		b.WriteByte('\n')
		if marker {
			continue
		}
		lead := len(l) - len(strings.TrimLeft(l, " \t"))
		switch {
		case strings.Contains(l, ".go:") && reportRe.MatchString(l):
			endReport()
			report, indent = &strings.Builder{}, lead
			report.WriteString(t)
		case report != nil && t == "":
			// a blank line inside a report (testify's before its diff)
		case report != nil && lead > indent:
			report.WriteByte('\n')
			report.WriteString(t)
		default:
			endReport()
			if strings.HasPrefix(t, "panic: ") {
				r := res[cur]
				r.panicked = true
				r.reports = append(r.reports, t)
				res[cur] = r
			}
			if r := res[cur]; r.panicked && r.panicAt == "" {
				if at, ok := panicFrame(frame, t); ok {
					r.panicAt = at
					res[cur] = r
				}
				frame = t
			}
		}
	}
	endReport()
	for name, b := range text {
		r := res[name]
		r.output = b.String()
		res[name] = r
	}
	for _, name := range slices.Sorted(maps.Keys(res)) {
		for i := strings.LastIndexByte(name, '/'); i > 0; i = strings.LastIndexByte(name[:i], '/') {
			if r, ok := res[name[:i]]; ok {
				r.subtests = append(r.subtests, name)
				res[name[:i]] = r
			}
		}
	}
	return res
}

// panicFrame returns where a goroutine trace's frame is, given the
// frame's line and the line after it ("\t/a/b.go:12 +0x1d"), and
// whether it is a frame of the code under test: not the runtime's, the
// testing package's or panic's own.
func panicFrame(frame, loc string) (string, bool) {
	if !strings.HasPrefix(loc, "/") && !(len(loc) > 2 && loc[1] == ':') { // an absolute path (a drive on Windows)
		return "", false
	}
	if frame == "" || strings.HasPrefix(frame, "runtime.") || strings.HasPrefix(frame, "testing.") || strings.HasPrefix(frame, "panic(") {
		return "", false
	}
	loc, _, _ = strings.Cut(loc, " +0x")
	return frame + " " + loc, true
}

// panicSite is where test t, or the first of its subtests that
// panicked, panicked ("" when none did or the trace was not read).
func panicSite(res map[string]testResult, t string) string {
	for _, name := range family(res, t) {
		if at := res[name].panicAt; at != "" {
			return at
		}
	}
	return ""
}

// sameFailure reports whether two runs of a failing test, each of which
// failed with the same reports, failed alike: where the original
// panicked and so did the other, at the same place in the code (what
// the test printed before, the cases of its table that had run, is not
// its failure); otherwise, printing the same words.
func sameFailure(base, got map[string]testResult, t string) bool {
	b, g := base[t], got[t]
	if at := panicSite(base, t); at != "" {
		if gat := panicSite(got, t); gat != "" {
			return at == gat
		}
	}
	return g.output == b.output || outputWords(g) == outputWords(b)
}

// normalizeOutput blanks what changes from run to run in a line of
// test output: durations, addresses, goroutine numbers and the
// arguments of a goroutine trace's frames.
func normalizeOutput(t string) string {
	// The regular expressions only where they can match: a mutant's
	// run can print thousands of lines, each parsed here.
	if strings.Contains(t, "s)") {
		t = durationRe.ReplaceAllString(t, "")
	}
	if strings.Contains(t, "0x") || strings.Contains(t, "goroutine ") {
		t = hexRe.ReplaceAllString(frameRe.ReplaceAllString(t, "$1(…)"), "X")
	}
	return t
}

// oneSpace replaces each run of white space (ASCII's and the no-break
// space) by one space: go-cmp's reports (cmp.Diff) choose between spaces
// and no-break spaces at random, run by run, so that nobody depends on
// their form. Without a regular expression (`[\s\x{00a0}]+`, which the
// tests check it against): every line of every mutant's output passes
// here, and a test printing text in other scripts (uniseg's) spent more
// time in it than in any other part of reading the runs.
func oneSpace(t string) string {
	i := 0
	for ; i < len(t); i++ {
		if c := t[i]; c >= utf8.RuneSelf || c == '\t' || c == '\n' || c == '\f' || c == '\r' || c == ' ' && i+1 < len(t) && t[i+1] == ' ' {
			break
		}
	}
	if i == len(t) {
		return t
	}
	var b strings.Builder
	b.Grow(len(t))
	b.WriteString(t[:i])
	space := i > 0 && t[i-1] == ' ' // a run begun before i
	for i < len(t) {
		c, n := rune(t[i]), 1
		if c >= utf8.RuneSelf {
			c, n = utf8.DecodeRuneInString(t[i:])
		}
		switch c {
		case ' ', '\t', '\n', '\f', '\r', '\u00a0':
			if !space {
				b.WriteByte(' ')
			}
			space = true
		default:
			b.WriteString(t[i : i+n])
			space = false
		}
		i += n
	}
	return b.String()
}

// family returns test t and its subtests in res, in order.
func family(res map[string]testResult, t string) []string {
	if r, ok := res[t]; ok {
		return append([]string{t}, r.subtests...)
	}
	names := make([]string, 0, 1)
	for name := range res {
		if name == t || strings.HasPrefix(name, t+"/") {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
}

// reportsOf returns the failure reports of test t and of its subtests
// in res, and whether any of them panicked or did not finish.
func reportsOf(res map[string]testResult, t string) (reports []string, crashed bool) {
	names := family(res, t)
	for _, name := range names {
		r := res[name]
		reports = append(reports, r.reports...)
		crashed = crashed || r.panicked || r.outcome == ""
	}
	if len(names) == 0 {
		crashed = true // it never started: the binary died before it
	}
	return reports, crashed
}

// reportWordsOf is reportsOf's reports as word sets (wordSet).
func reportWordsOf(res map[string]testResult, t string) []string {
	var words []string
	for _, name := range family(res, t) {
		if r := res[name]; r.hasWords {
			words = append(words, r.reportWords...)
		} else {
			words = append(words, wordSets(r.reports)...)
		}
	}
	return words
}

// compareOutcomes adds what a mutant's run changed to o.
func compareOutcomes(o *MutantOutcome, base, got map[string]testResult, failing, passing []string) {
	for _, t := range failing {
		b := base[t]
		if b.outcome != "fail" {
			continue // not failing on the original here: not evidence
		}
		o.Failing++
		g := got[t]
		was, _ := reportsOf(base, t)
		wasWords := reportWordsOf(base, t)
		if len(was) == 0 {
			// An example's got and want, a bare failure: all it
			// printed is its report.
			was, wasWords = []string{b.output}, []string{outputWords(b)}
		}
		o.Reports += len(was)
		now, crashed := reportsOf(got, t)
		var lost, added int
		crash := false
		switch {
		case crashed && !b.panicked && g.outcome != "pass":
			o.Crashed++
			crash = true
		case g.outcome == "pass":
			lost = len(was)
		case b.unstable:
			// Its reports differ run to run: not evidence.
		default:
			if len(now) == 0 {
				now = []string{g.output}
			}
			// The same reports have the same words; others may too.
			if lost, added = multisetDiff(was, now); lost+added > 0 {
				lost, added = multisetDiff(wasWords, wordSets(now))
			}
		}
		o.Lost += lost
		o.Added += max(0, added-lost)
		if g.outcome != "fail" || crash || !b.unstable && (lost+added > 0 || !sameFailure(base, got, t)) {
			o.Changed++
			if g.outcome == "pass" {
				o.Fixed++
			}
		}
	}
	for _, t := range passing {
		if base[t].outcome != "pass" {
			continue
		}
		o.Passing++
		if got[t].outcome != "pass" {
			o.Broke++
		}
	}
}

// multisetDiff returns how many of a are not in b and how many of b are
// not in a, counting repeats.
func multisetDiff(a, b []string) (onlyA, onlyB int) {
	n := map[string]int{}
	for _, x := range a {
		n[x]++
	}
	for _, x := range b {
		n[x]--
	}
	for _, c := range n {
		if c > 0 {
			onlyA += c
		} else {
			onlyB -= c
		}
	}
	return onlyA, onlyB
}

// wordSet is a report's words in sorted order: two reports that list
// the same things in another order (a map's keys or entries, printed
// in Go's random iteration order) read alike, so that neither the
// original's run nor a mutant's differs from itself run to run. A word
// is a run of letters, digits, '_' and '.', or any other character but
// ASCII white space (as the regular expression
// `[\pL\pN_.]+|[^\s\pL\pN_.]` would find them, without its cost: the
// words of every mutant's reports are read).
func wordSet(r string) string {
	var w []string
	for i := 0; i < len(r); {
		c, n := rune(r[i]), 1
		if c >= utf8.RuneSelf {
			c, n = utf8.DecodeRuneInString(r[i:])
		}
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r':
			i += n
		case wordRune(c):
			j := i + n
			for j < len(r) {
				c, n := rune(r[j]), 1
				if c >= utf8.RuneSelf {
					c, n = utf8.DecodeRuneInString(r[j:])
				}
				if !wordRune(c) {
					break
				}
				j += n
			}
			w = append(w, r[i:j])
			i = j
		default:
			w = append(w, r[i:i+n])
			i += n
		}
	}
	sort.Strings(w)
	return strings.Join(w, " ")
}

// wordRune reports whether c belongs in a word: a letter, a digit, '_'
// or '.'.
func wordRune(c rune) bool {
	if c < utf8.RuneSelf {
		return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '.'
	}
	return unicode.IsLetter(c) || unicode.IsNumber(c)
}

func wordSets(rs []string) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = wordSet(r)
	}
	return out
}

// markUnstable marks the failing tests of base whose reports or output
// differ in again, another run of the original: they are compared by
// outcome alone.
func markUnstable(base, again map[string]testResult, failing []string) {
	for _, t := range failing {
		b, a := base[t], again[t]
		was, _ := reportsOf(base, t)
		now, _ := reportsOf(again, t)
		lost, added := multisetDiff(wordSets(was), wordSets(now))
		if b.outcome != a.outcome || lost+added > 0 || !sameFailure(base, again, t) {
			b.unstable = true
			base[t] = b
		}
	}
}
