//go:build unix

package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/culprit-go/culprit/bench/internal/proof"
)

// analysisNames are the analyses run on every module, in order.
var analysisNames = []string{"rank", "slice", "flow", "mine"}

// maxRSS is the peak memory past which an analysis fails: 8 GiB, in KiB.
const maxRSS = 8 << 20

// terminate asks the process group of pid to end (culprit, on SIGTERM,
// ends its own test runs' groups and exits), and kills what is left of
// it five seconds later.
func terminate(pid int) error {
	err := syscall.Kill(-pid, syscall.SIGTERM)
	if err == syscall.ESRCH {
		return nil
	}
	time.AfterFunc(5*time.Second, func() { syscall.Kill(-pid, syscall.SIGKILL) })
	return err
}

// analysis is one culprit command's run on a module's injected fault.
type analysis struct {
	Name     string
	Exit     int
	Wall     float64 // seconds
	RSS      int64   // KiB: culprit or its largest child (go, the compiler, the test binary)
	Crashed  bool    // panicked or died of a signal
	TimedOut bool    // killed at the limit
	// OverMemory says it was stopped when it, or a process it started,
	// went over 8 GiB (RSS is then that process's).
	OverMemory bool   `json:",omitempty"`
	Note       string // the end of its standard error when it failed
	// Unrecorded are the notes of its standard error that name what
	// culprit could not record or instrument, with the reason (cgo
	// files, assembly): issue 16 asks every analysis to say so.
	Unrecorded []string `json:",omitempty"`
	stderr     string
}

// failed says why the analysis failed, "" when it did not: a panic, a
// run killed at the limit, more than 8 GiB, or an exit status other than
// 0 (each command exits 0 when it wrote its result).
func (a analysis) failed() string {
	switch {
	case a.OverMemory:
		return fmt.Sprintf("stopped at %d MiB (over 8 GiB)", a.RSS>>10)
	case a.Crashed:
		return "crashed: " + a.Note
	case a.TimedOut:
		return fmt.Sprintf("killed after %.0f s", a.Wall)
	case a.RSS > maxRSS:
		return fmt.Sprintf("peak RSS %d MiB", a.RSS>>10)
	case a.Exit != 0:
		return fmt.Sprintf("exit %d: %s", a.Exit, a.Note)
	}
	return ""
}

// fault is a module's injected fault and the analyses run on it.
type fault struct {
	Mutant    string // file:line op: what changed
	Tried     int    // mutants tried until one failed a test
	Package   string // the mutated package, "./dir"
	Test      string // a test the mutant fails
	PlainWall float64
	PlainRSS  int64
	// PlainBuilt is the plain run after a change to the faulty file,
	// building the package's tests (-warm only; 0 otherwise).
	PlainBuilt float64
	Analyses   []analysis
	Err        string // no fault found, or the plain run failed
	Load       string // the machine's load average as the analyses started
}

// analyze injects a fault into the module copy in dir, a single-statement
// mutant that fails a test of its package that passed plain (as
// bench/slice does), and runs culprit rank, slice, flow -test and mine on
// that package, timing each against the package's plain go test.
func (h *harness) analyze(ctx context.Context, m entry, dir string, plain *run) *fault {
	f := &fault{}
	if err := h.inject(ctx, m, dir, plain, f); err != nil {
		f.Err = err.Error()
	}
	return f
}

func (h *harness) inject(ctx context.Context, m entry, dir string, plain *run, f *fault) error {
	tested, err := testedDirs(ctx, dir, m.Patterns())
	if err != nil {
		return err
	}
	cands, err := proof.Candidates(dir)
	if err != nil {
		return err
	}
	for _, c := range proof.Order(cands, 1) {
		if f.Tried >= h.tries {
			break
		}
		pkg := "./" + path.Dir(c.File)
		if pkg == "./." {
			pkg = "."
		}
		if !tested[pkg] || (h.faultPkg != "" && pkg != h.faultPkg) {
			continue
		}
		f.Tried++
		file := filepath.Join(dir, filepath.FromSlash(c.File))
		src, err := os.ReadFile(file)
		if err != nil {
			return err
		}
		if err := os.WriteFile(file, c.Apply(src), 0o644); err != nil {
			return err
		}
		test, err := h.failingTest(ctx, dir, pkg, m.Flags, plain)
		if err == nil && test != "" && !h.failsAlone(ctx, dir, pkg, test, m.Flags, plain) {
			fmt.Fprintf(h.log, "%s: %s fails %s, not every time it runs alone: another fault\n", m.name(), c, test)
			test = ""
		}
		if err != nil || test == "" {
			os.WriteFile(file, src, 0o644)
			continue
		}
		fmt.Fprintf(h.log, "%s: %s fails %s\n", m.name(), c, test)
		f.Mutant, f.Package, f.Test = c.String(), pkg, test
		err = h.runAnalyses(ctx, dir, file, m, f, plain)
		os.WriteFile(file, src, 0o644)
		if errors.Is(err, errRunaway) {
			fmt.Fprintf(h.log, "%s: %s: %v\n", m.name(), c, err)
			f.Mutant, f.Package, f.Test = "", "", ""
			continue
		}
		return err
	}
	return fmt.Errorf("none of %d mutants tried fails a test that passes plain", f.Tried)
}

// testedDirs returns the packages the patterns match that have tests,
// as "./dir" relative to dir ("." for the root).
func testedDirs(ctx context.Context, dir string, patterns []string) (map[string]bool, error) {
	cmd := exec.CommandContext(ctx, "go", append([]string{"list", "-e", "-f", "{{.Dir}} {{len .TestGoFiles}} {{len .XTestGoFiles}}"}, patterns...)...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %w", err)
	}
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, err
	}
	tested := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		if len(fields) != 3 || (fields[1] == "0" && fields[2] == "0") {
			continue
		}
		rel, err := filepath.Rel(root, fields[0])
		if err != nil || strings.HasPrefix(rel, "..") {
			continue
		}
		if rel == "." {
			tested["."] = true
		} else {
			tested["./"+filepath.ToSlash(rel)] = true
		}
	}
	return tested, nil
}

// failingTest runs the package's tests (the mutant in place) and returns
// a leaf test that fails and passed plain, "" when none does, the
// package does not build or the mutant makes a test hang: its run may
// take three times the module's plain run and a minute, not go test's
// whole limit (a mutated loop bound in kong's tests ran for 20 minutes).
func (h *harness) failingTest(ctx context.Context, dir, pkg string, flags []string, plain *run) (string, error) {
	limit := min(h.timeout, time.Duration(3*plain.Wall*float64(time.Second))+time.Minute)
	ctx, cancel := context.WithTimeout(ctx, limit+time.Minute)
	defer cancel()
	r, err := h.goTest(ctx, dir, []string{pkg}, 0, append([]string{"-failfast"}, append(flags, "-timeout", limit.String())...)...)
	if err != nil || ctx.Err() != nil {
		return "", err
	}
	for _, tail := range r.Tails {
		if strings.Contains(tail, "test timed out") {
			return "", nil
		}
	}
	var failed []testKey
	for k, o := range r.Outcomes {
		if o == "fail" && k.Test != packageTest && plain.Outcomes[k] != "fail" {
			failed = append(failed, k)
		}
	}
	if strings.Contains(r.Output, "build failed") || strings.Contains(r.Output, "setup failed") {
		return "", nil
	}
	best := ""
	for _, k := range failed {
		leaf := true
		for _, o := range failed {
			if o.Package == k.Package && strings.HasPrefix(o.Test, k.Test+"/") {
				leaf = false
			}
		}
		if leaf && (best == "" || k.Test < best) {
			best = k.Test
		}
	}
	return best, nil
}

// failsAlone reports whether test fails each of twice when its
// top-level test runs alone, as slice and flow run it: a test whose
// failure depends on timing (labstack/echo's TestTimeoutDataRace failed
// once in the plain run and passed in culprit's) would measure chance,
// not culprit.
func (h *harness) failsAlone(ctx context.Context, dir, pkg, test string, flags []string, plain *run) bool {
	limit := min(h.timeout, time.Duration(3*plain.Wall*float64(time.Second))+time.Minute)
	top, _, _ := strings.Cut(test, "/")
	for range 2 {
		r, err := h.goTest(ctx, dir, []string{pkg}, 0, append([]string{"-run", "^" + regexp.QuoteMeta(top) + "$"}, append(flags, "-timeout", limit.String())...)...)
		if err != nil || ctx.Err() != nil {
			return false
		}
		failed := false
		for k, o := range r.Outcomes {
			failed = failed || k.Test == test && o == "fail"
		}
		if !failed {
			return false
		}
	}
	return true
}

// errRunaway is a mutant whose package's plain run does not end by itself
// within three times the module's plain run and a minute, or needs more
// than 8 GiB: its analyses would time the runaway, not culprit.
var errRunaway = errors.New("the package's plain run with the fault runs away")

// runAnalyses times the package's plain run with the fault in place, then
// runs each analysis on it. A fault that makes the run hang or grow past
// 8 GiB (a test that failed fast in failingTest, others then loop) is
// errRunaway: another mutant is tried.
func (h *harness) runAnalyses(ctx context.Context, dir, file string, m entry, f *fault, modPlain *run) error {
	goFlags := append([]string{"-vet=off"}, m.Flags...)
	bound := min(h.timeout, time.Duration(3*modPlain.Wall*float64(time.Second))+time.Minute)
	plainArgs := append(append([]string{"test", "-count=1", "-timeout", (bound + time.Minute).String()}, goFlags...), f.Package)
	plainRun := func() (analysis, error) {
		plain, err := h.command(ctx, dir, bound, "go", plainArgs...)
		if err != nil {
			return plain, fmt.Errorf("plain run of %s: %w", f.Package, err)
		}
		if plain.TimedOut || plain.RSS > maxRSS {
			return plain, fmt.Errorf("%w (%.0f s, %d MiB)", errRunaway, plain.Wall, plain.RSS>>10)
		}
		return plain, nil
	}
	if h.warm {
		// A runaway fault first: warming the analyses on it would take
		// their whole limit, their memory growing all the while.
		if _, err := plainRun(); err != nil {
			return err
		}
		limit := max(10*bound, h.floor)
		for _, cmd := range h.analysisArgs(f, goFlags) {
			h.command(ctx, dir, limit, h.culprit, cmd...) // untimed: the builds it leaves cached
		}
		if err := appendComment(file); err != nil {
			return err
		}
		built, err := h.command(ctx, dir, bound, "go", plainArgs...)
		if err != nil {
			return fmt.Errorf("plain run of %s after the change: %w", f.Package, err)
		}
		f.PlainBuilt = built.Wall
	}
	plain, err := plainRun()
	if err != nil {
		return err
	}
	f.PlainWall, f.PlainRSS = plain.Wall, plain.RSS
	f.Load = loadAverage()
	limit := max(time.Duration(10*plain.Wall*float64(time.Second)), h.floor)
	for i, cmd := range h.analysisArgs(f, goFlags) {
		name := analysisNames[i]
		fmt.Fprintf(h.log, "%s: culprit %s\n", m.name(), strings.Join(cmd, " "))
		a, err := h.command(ctx, dir, limit, h.culprit, cmd...)
		if err != nil {
			return fmt.Errorf("culprit %s: %w", name, err)
		}
		a.Name = name
		a.Unrecorded = unrecordedNotes(a.stderr)
		h.keepStderr(m, a)
		f.Analyses = append(f.Analyses, a)
	}
	return nil
}

// analysisArgs are the culprit command lines of the analyses on fault
// f, in analysisNames's order.
func (h *harness) analysisArgs(f *fault, goFlags []string) [][]string {
	top, _, _ := strings.Cut(f.Test, "/")
	run := "^" + regexp.QuoteMeta(top) + "$"
	after := append([]string{"--"}, goFlags...)
	var lim []string
	if h.limit != 0 {
		lim = []string{"-timeout", h.limit.String()}
	}
	args := map[string][]string{
		"rank":  {f.Package},
		"slice": {"-test", f.Test, "-run", run, f.Package},
		"flow":  {"-test", f.Test, "-run", run, f.Package},
		"mine":  {f.Package},
	}
	out := make([][]string, len(analysisNames))
	for i, name := range analysisNames {
		out[i] = append(append(append([]string{name}, lim...), args[name]...), after...)
	}
	return out
}

// appendComment adds a comment line at the end of file: its package's
// build is no longer cached, and no line moves.
func appendComment(file string) error {
	fh, err := os.OpenFile(file, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(fh, "\n// changed by bench/instrument at %s so that its build is not cached\n", time.Now().UTC().Format(time.RFC3339Nano))
	if cerr := fh.Close(); err == nil {
		err = cerr
	}
	return err
}

// command runs name with args in dir, in a process group of its own
// killed whole at the limit, and measures it.
func (h *harness) command(ctx context.Context, dir string, limit time.Duration, name string, args ...string) (analysis, error) {
	var a analysis
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	// SIGTERM first: culprit then ends its test runs, each in a process
	// group of its own, which killing culprit's group would leave
	// running, orphaned; WaitDelay kills what is left.
	cmd.Cancel = func() error { return terminate(cmd.Process.Pid) }
	cmd.WaitDelay = 10 * time.Second
	var stderr bytes.Buffer
	cmd.Stdout = &bytes.Buffer{}
	cmd.Stderr = &stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return a, err
	}
	var over atomic.Int64
	stop := watchMemory(cmd.Process.Pid, maxRSS, func(kib int64) {
		over.Store(kib)
		terminate(cmd.Process.Pid)
	})
	err := cmd.Wait()
	stop()
	a.Wall = time.Since(start).Seconds()
	if cmd.ProcessState == nil {
		return a, err
	}
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) && !errors.Is(err, exec.ErrWaitDelay) {
		return a, err
	}
	a.Exit = cmd.ProcessState.ExitCode()
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		a.RSS = int64(ru.Maxrss)
	}
	a.TimedOut = ctx.Err() != nil
	if kib := over.Load(); kib > 0 {
		a.OverMemory, a.RSS = true, max(a.RSS, kib)
	}
	ws, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)
	se := stderr.String()
	a.stderr = se
	// A Go panic exits with status 2 and a stack; culprit's own has
	// culprit's frames in it.
	a.Crashed = (ws.Signaled() && !a.TimedOut && !a.OverMemory) || (a.Exit == 2 && strings.Contains(se, "panic: ") && strings.Contains(se, "github.com/culprit-go/culprit/"))
	if a.Exit != 0 || a.Crashed {
		a.Note = lastLines(se, 3)
	}
	return a, nil
}

// maxUnrecorded bounds the notes of what was not recorded kept per
// analysis (a package of many assembly files names each).
const maxUnrecorded = 20

// unrecordedNotes returns the lines of an analysis's standard error that
// name what culprit did not record or instrument, each once, in order,
// at most maxUnrecorded (then a count of the rest).
func unrecordedNotes(stderr string) []string {
	var out []string
	seen := map[string]bool{}
	more := 0
	for _, line := range strings.Split(stderr, "\n") {
		line = strings.TrimSpace(line)
		if (!strings.Contains(line, ": not recorded: ") && !strings.Contains(line, ": not instrumented: ")) || seen[line] {
			continue
		}
		seen[line] = true
		if len(out) == maxUnrecorded {
			more++
			continue
		}
		out = append(out, line)
	}
	if more > 0 {
		out = append(out, fmt.Sprintf("and %d more", more))
	}
	return out
}

// keepStderr writes the analysis's standard error to the work directory,
// analyses/MODULE.NAME.stderr, for its notes and failures to be read
// after the run (the JSON keeps only their ends); a failure to write it
// is logged, not fatal.
func (h *harness) keepStderr(m entry, a analysis) {
	dir := filepath.Join(h.work, "analyses")
	name := strings.NewReplacer("/", "_", " ", "_", "(", "", ")", "").Replace(m.name()) + "." + a.Name + ".stderr"
	err := os.MkdirAll(dir, 0o755)
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, name), []byte(a.stderr), 0o644)
	}
	if err != nil {
		fmt.Fprintf(h.log, "%s: keeping culprit %s's standard error: %v\n", m.name(), a.Name, err)
	}
}
