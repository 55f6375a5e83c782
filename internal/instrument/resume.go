package instrument

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os/exec"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/culprit-go/culprit/trace"
)

// DefaultResumeLimit is how long the resumed runs (Config.Resume) take
// at most, together, after a first run that took first: twice that, and
// at least 10 s. They run tests no plain run reaches, the tests after a
// panic, and their records are evidence the plain run never had: a
// fault that makes test after test panic (go.etcd.io/bbolt's, with a
// comparison swapped) costs a go test per test, and one may leave a
// test waiting for ever (bbolt's TestCursor_QuickCheck, whose panic
// inside a transaction's commit left the database's mutex locked for
// the deferred Close to wait on), where go test's own limit is ten
// minutes.
func DefaultResumeLimit(first time.Duration) time.Duration {
	return max(2*first, 10*time.Second)
}

// DefaultResumeIdle is how long a resumed run's go test and test
// binary may use no CPU time at all (Config.ResumeIdle) before culprit
// stops them: bbolt's deadlocked test waited at 0% CPU. Tests that wait
// on timers for longer are rare, and in a resumed run stopping one
// costs its own records only (the tests after it run in another).
const DefaultResumeIdle = 5 * time.Second

// maxResumes bounds the test binaries Resume starts after the first: a
// package whose every test panics ends, resumed, after this many.
const maxResumes = 50

// goTest runs go test on pkgs, instrumented, with the user's flags (and
// culprit's build flags) and returns its exit status and peak memory. A
// non-zero exit is the tests' outcome, not an error. With idle not 0
// (where the system tells a process group's CPU time), go test and its
// test binary are stopped once they have used no CPU time for idle, and
// idled says so.
func (b *prepared) goTest(ctx context.Context, cfg Config, pkgs, flags []string, scan *outputScanner, trouble *troubleScanner, idle time.Duration) (code int, rss int64, idled bool, err error) {
	args := []string{"test", "-overlay", b.overlay}
	if !hasFlag(flags, "count") {
		// A cached result runs nothing and records nothing.
		args = append(args, "-count=1")
	}
	args = append(args, pkgs...)
	args = append(args, insertFlags(flags, b.gcflags)...)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", args...)
	// When ctx ends (a time limit, an interrupt culprit caught, the
	// diagnosis stopping a run whose trace it would not slice), the
	// test binary goes too.
	ownGroup(cmd)
	cmd.Dir = b.dir
	cmd.Env = b.env
	cmd.Stdout = io.MultiWriter(cfg.Stdout, scan, trouble.stream(0))
	cmd.Stderr = io.MultiWriter(cfg.Stderr, trouble.stream(1))
	if cfg.Stderr == cfg.Stdout {
		cmd.Stderr = cmd.Stdout // one pipe, as exec does for one writer
	}
	if err := cmd.Start(); err != nil {
		return 0, 0, false, fmt.Errorf("run go test: %w", err)
	}
	var stopped atomic.Bool
	done := make(chan struct{})
	if idle > 0 {
		pgid := cmd.Process.Pid // ownGroup: go test leads its group
		w := cpuWatch{read: func() (time.Duration, bool) { return groupCPU(pgid) }, every: 250 * time.Millisecond, idle: idle}
		go w.run(func() { stopped.Store(true); cancel() }, done)
	}
	err = cmd.Wait()
	close(done)
	rss = maxRSS(cmd.ProcessState)
	idled = stopped.Load()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0, rss, idled, nil
	case idled:
		return -1, rss, true, nil // stopped: the tests' outcome is not known
	case errors.As(err, &exit):
		return exit.ExitCode(), rss, false, nil
	default:
		return 0, rss, idled, fmt.Errorf("run go test: %w", err)
	}
}

// resume runs again the tests a panic kept from running (Config.Resume):
// while an events file of the trace ends without its end record because
// a test panicked (or another goroutine did, or a fatal error such as a
// stack overflow stopped the binary), its package's tests run once more,
// skipping the top-level tests that ended, panicked or were running when
// it stopped, there and in the earlier runs.
func (b *prepared) resume(ctx context.Context, cfg Config, limit time.Duration, scan *outputScanner, trouble *troubleScanner) error {
	res := b.res
	deadline := time.Now().Add(limit)
	userTimeout, _ := time.ParseDuration(flagValue(cfg.GoFlags, "timeout"))
	if hasFlag(cfg.GoFlags, "failfast") {
		return nil // the user asked for the first failure only
	}
	userSkip := flagValue(cfg.GoFlags, "skip")
	if strings.Contains(userSkip, "/") {
		res.Notes = append(res.Notes, "a test panicked and stopped its test binary; the tests after it did not run: -skip names subtests, so culprit cannot add the tests to skip to it")
		return nil
	}
	read := map[string]bool{} // events files examined
	skip := map[string]map[string]bool{}
	idled := map[string]time.Duration{} // packages whose resumed run was stopped idle, not yet noted
	for round := 0; round < maxResumes; round++ {
		crashed, err := crashedProcesses(res.TraceDir, read, trouble.timedOutPackages())
		if err != nil {
			return err
		}
		var pkgs []string
		for _, c := range crashed {
			s := skip[c.pkg]
			if s == nil {
				s = map[string]bool{}
				skip[c.pkg] = s
			}
			grew := false
			for _, t := range c.done {
				if !s[t] {
					s[t], grew = true, true
				}
			}
			idle, noted := idled[c.pkg]
			if noted {
				delete(idled, c.pkg)
				res.Resumed = append(res.Resumed, idleNote(c.pkg, slices.Concat(c.panicked, c.stopped), idle, grew))
			}
			if !grew {
				continue // nothing ran before the crash: it would crash again
			}
			if len(c.panicked) > 0 && !noted {
				res.Resumed = append(res.Resumed, fmt.Sprintf("%s: %s panicked and stopped the test binary; the tests not yet run ran in another", c.pkg, strings.Join(c.panicked, ", ")))
			} else if !noted {
				res.Resumed = append(res.Resumed, fmt.Sprintf("%s: the test binary stopped while %s ran (another goroutine's panic or a fatal error); the tests not yet run ran in another", c.pkg, strings.Join(c.stopped, ", ")))
			}
			pkgs = append(pkgs, c.pkg)
		}
		// A stopped run whose trace names no running test.
		for _, pkg := range slices.Sorted(maps.Keys(idled)) {
			res.Resumed = append(res.Resumed, idleNote(pkg, nil, idled[pkg], false))
			delete(idled, pkg)
		}
		if len(pkgs) == 0 {
			return nil
		}
		// One go test per package: each skips its own tests.
		for _, pkg := range pkgs {
			flags := withoutFlag(cfg.GoFlags, "skip")
			pattern := "^(" + strings.Join(slices.Sorted(maps.Keys(skip[pkg])), "|") + ")$"
			if userSkip != "" {
				pattern = userSkip + "|" + pattern
			}
			flags = insertFlags(flags, []string{"-skip", pattern})
			left := time.Until(deadline).Round(time.Second)
			if left < time.Second {
				res.Resumed = append(res.Resumed, fmt.Sprintf("%s: the tests not yet run did not run again: culprit's limit for tests a panic kept from running (%s) was spent", pkg, limit.Round(time.Second)))
				continue
			}
			ours := userTimeout <= 0 || userTimeout > left
			if ours {
				flags = insertFlags(withoutFlag(flags, "timeout"), []string{"-timeout", left.String()})
				trouble.limit = limit.Round(time.Second).String()
			}
			idle := cfg.ResumeIdle
			if idle <= 0 {
				idle = DefaultResumeIdle
			}
			_, rss, cut, err := b.goTest(ctx, cfg, []string{pkg}, flags, scan, trouble, idle)
			trouble.limit = ""
			if err != nil {
				return err
			}
			if cut {
				idled[pkg] = idle
			}
			res.Resumed = append(res.Resumed, trouble.takeCut()...)
			res.MaxRSS = max(res.MaxRSS, rss)
			if ctx.Err() != nil {
				return nil
			}
		}
		trouble.report(res)
	}
	return nil
}

// idleNote says that culprit stopped pkg's resumed test binary after it
// used no CPU time for idle, while tests ran (when the trace names
// them), and whether the tests after them ran in another.
func idleNote(pkg string, tests []string, idle time.Duration, more bool) string {
	msg := pkg + ": culprit stopped the test binary of the tests a panic kept from running"
	if len(tests) > 0 {
		msg += " while " + strings.Join(tests, ", ") + " ran"
	}
	msg += fmt.Sprintf(": it had used no CPU time for %s (a test this code leaves waiting for ever?)", idle)
	if more {
		msg += "; the tests not yet run ran in another"
	}
	return msg
}

// crashed is a test binary a test's panic, or a panic or fatal error
// of another goroutine, stopped.
type crashed struct {
	pkg      string
	done     []string // top-level tests that ended or panicked
	panicked []string // the tests that panicked
	stopped  []string // or, where none did, the top-level tests running when it stopped
}

// crashedProcesses reads the events files of dir not yet in read (and
// adds them) and returns the processes that ended without their end
// record (a panic, a fatal error), leaving out the packages -timeout
// stopped.
func crashedProcesses(dir string, read map[string]bool, timedOut map[string]bool) ([]crashed, error) {
	d, err := trace.OpenDir(dir)
	if err != nil {
		return nil, fmt.Errorf("resume: %w", err)
	}
	var out []crashed
	for _, name := range d.Events {
		if read[name] {
			continue
		}
		read[name] = true
		p, err := d.ReadTests(name)
		if err != nil {
			return nil, fmt.Errorf("resume: %w", err)
		}
		if !p.Truncated || p.Package == "" || timedOut[p.Package] {
			continue
		}
		c := crashed{pkg: p.Package}
		top := func(t *trace.Test) *trace.Test {
			for t.Parent != 0 {
				up := p.Test(t.Parent)
				if up == nil {
					break
				}
				t = up
			}
			return t
		}
		done := map[string]bool{}
		for _, t := range p.Tests {
			if t.Outcome == trace.OutcomePanic {
				done[top(t).Name] = true
				c.panicked = append(c.panicked, t.Name)
			}
		}
		for _, t := range p.Tests {
			if t.Parent != 0 || t.Name == "" {
				continue // a subtest, or test 0 (code no test ran: package initialization, TestMain), which has no start record
			}
			switch {
			case t.Ended && t.Outcome != trace.OutcomeRunning:
				done[t.Name] = true
			case len(c.panicked) == 0:
				// No test's own goroutine panicked: another goroutine
				// did, or the runtime stopped the binary (a stack
				// overflow, a concurrent map write) while the tests
				// not ended ran. They would stop it again: they count
				// as done, paused parallel tests with them (which of
				// them stopped it is not known).
				done[t.Name] = true
				c.stopped = append(c.stopped, t.Name)
			}
			// Otherwise the snapshot at the panic ended the tests then
			// running (OutcomeRunning): those paused by t.Parallel run
			// again.
		}
		if len(c.panicked) == 0 && len(c.stopped) == 0 {
			continue // it stopped between tests
		}
		c.done = slices.Sorted(maps.Keys(done))
		out = append(out, c)
	}
	return out, nil
}

// flagValue returns the value of go test flag name in flags ("" when
// not set).
func flagValue(flags []string, name string) string {
	v := ""
	for i := 0; i < len(flags); i++ {
		f := flags[i]
		if f == "--" || f == "-args" || f == "--args" {
			break
		}
		n := strings.TrimLeft(f, "-")
		switch {
		case n == name && i+1 < len(flags):
			v = flags[i+1]
			i++
		case strings.HasPrefix(n, name+"="):
			v = n[len(name)+1:]
		}
	}
	return v
}

// withoutFlag returns flags without go test flag name and its value.
func withoutFlag(flags []string, name string) []string {
	var out []string
	for i := 0; i < len(flags); i++ {
		f := flags[i]
		if f == "--" || f == "-args" || f == "--args" {
			return append(out, flags[i:]...)
		}
		n := strings.TrimLeft(f, "-")
		switch {
		case n == name && i+1 < len(flags):
			i++
		case strings.HasPrefix(n, name+"="):
		default:
			out = append(out, f)
		}
	}
	return out
}
