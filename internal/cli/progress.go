package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// autoLimit is the analysis's time limit when -timeout is not given and
// culprit ran the tests: ten times the instrumented run plus a minute.
func autoLimit(run time.Duration) time.Duration { return 10*run + time.Minute }

// errStopped is returned by a budget's phase stopped by its time limit or
// by an interrupt; the budget has printed why.
var errStopped = errors.New("stopped")

// budget bounds an analysis command in time (-timeout) and shows, on a
// terminal, what it is doing: the phase, the time spent and the size of
// the trace it writes or reads. The analyses themselves take no context:
// a phase stopped by the limit is abandoned, and the command returns with
// what it has (the trace on disk) and a note saying how to go on.
type budget struct {
	e       *env
	cmd     string
	limit   time.Duration // -timeout; 0: autoLimit after a run, none with -trace; negative: none
	auto    bool          // limit is autoLimit's
	start   time.Time
	ctx     context.Context // the limit's, once known
	cancel  context.CancelFunc
	show    bool // progress lines on standard error
	traceAt string
}

// addTimeoutFlag declares -timeout on fs.
func addTimeoutFlag(fs *flag.FlagSet) *time.Duration {
	return fs.Duration("timeout", 0, "stop after `D` with what was computed so far and a note (default 0: the analysis may take ten times the instrumented test run plus a minute, no limit with -trace; negative: no limit)")
}

// newBudget starts the clock of a command. Progress shows when standard
// error is a terminal.
func newBudget(e *env, cmd string, limit time.Duration) *budget {
	b := &budget{e: e, cmd: cmd, limit: limit, start: time.Now(), show: charDevice(e.stderr)}
	b.ctx, b.cancel = e.ctx, func() {}
	if limit > 0 {
		b.ctx, b.cancel = context.WithTimeout(e.ctx, limit)
	}
	return b
}

// close releases the budget's timer.
func (b *budget) close() { b.cancel() }

// ran tells the budget the instrumented run took d and wrote the trace
// in dir: without -timeout, the analysis gets autoLimit(d) from now.
func (b *budget) ran(d time.Duration, dir string) {
	b.traceAt = dir
	if b.limit == 0 {
		b.cancel()
		b.limit, b.auto = autoLimit(d), true
		b.ctx, b.cancel = context.WithTimeout(b.e.ctx, b.limit)
	}
}

// run runs the instrumented tests (f, given the budget's context) with
// progress. The trace is expected in dir ("" where unknown) to show its
// size.
func (b *budget) run(dir string, f func(ctx context.Context) error) (time.Duration, error) {
	start := time.Now()
	stop := b.progress("running the tests instrumented", dir)
	err := f(b.ctx)
	stop()
	if err != nil && b.ctx.Err() != nil {
		b.stopped("running the tests instrumented (go test was stopped)", "")
		return 0, errStopped
	}
	return time.Since(start), err
}

// phase runs one analysis step with progress, and abandons it when the
// budget's time runs out or the command is interrupted: it then prints a
// note and returns errStopped.
func (b *budget) phase(what string, f func() error) error {
	if b.ctx.Err() != nil {
		b.stopped(what, b.traceAt)
		return errStopped
	}
	stop := b.progress(what, b.traceAt)
	defer stop()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-b.ctx.Done():
		stop()
		b.stopped(what, b.traceAt)
		return errStopped
	}
}

// stopped prints why and where the command stopped, and how to go on.
func (b *budget) stopped(what, dir string) {
	why := fmt.Sprintf("the time limit (-timeout %s)", roundTime(b.limit))
	if b.auto {
		why = fmt.Sprintf("the default time limit, %s (ten times the test run plus a minute; -timeout D sets another)", roundTime(b.limit))
	}
	if b.e.ctx.Err() != nil {
		why = "an interrupt"
	}
	fmt.Fprintf(b.e.stderr, "culprit: %s: note: stopped by %s after %s, while %s: nothing to show yet\n",
		b.cmd, why, roundTime(time.Since(b.start)), what)
	if dir != "" {
		fmt.Fprintf(b.e.stderr, "culprit: %s: note: the trace is kept in %s: culprit %s -trace %s -timeout D tries again with more time (-test NAME picks a shorter test)\n",
			b.cmd, dir, b.cmd, dir)
	}
}

// progress shows what on standard error every half second, with the
// time spent and the size of the trace in dir, until the returned
// function is called; it does nothing off a terminal.
func (b *budget) progress(what, dir string) (stop func()) {
	if !b.show {
		return func() {}
	}
	return startProgress(b.e.stderr, time.Second/2, func(elapsed time.Duration) string {
		line := fmt.Sprintf("culprit: %s: %s: %s", b.cmd, what, elapsed.Round(time.Second))
		if dir != "" {
			if n := dirSize(dir); n > 0 {
				line += ", trace " + byteSize(n)
			}
		}
		return line
	})
}

// startProgress rewrites one line of w every interval with line(elapsed)
// until the returned function is called, which erases it. It is safe to
// call the function more than once.
func startProgress(w io.Writer, interval time.Duration, line func(time.Duration) string) func() {
	start := time.Now()
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(interval)
		defer t.Stop()
		width := 0
		for {
			select {
			case <-done:
				if width > 0 {
					fmt.Fprintf(w, "\r%*s\r", width, "")
				}
				return
			case <-t.C:
				s := line(time.Since(start))
				pad := max(width-len(s), 0)
				fmt.Fprintf(w, "\r%s%*s", s, pad, "")
				width = len(s)
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			close(done)
			wg.Wait()
		})
	}
}

// roundTime rounds d to the second, or to the millisecond under a
// second, and keeps what is shorter.
func roundTime(d time.Duration) time.Duration {
	switch {
	case d < time.Millisecond:
		return d
	case d < time.Second:
		return d.Round(time.Millisecond)
	}
	return d.Round(time.Second)
}

// dirSize returns the total size of the regular files under dir.
func dirSize(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if info, err := d.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	return n
}

// byteSize formats n bytes for a person: 912 B, 4.2 MB, 1.3 GB.
func byteSize(n int64) string {
	const unit = 1000
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	f, units := float64(n)/unit, "kMGTP"
	i := 0
	for f >= unit && i < len(units)-1 {
		f /= unit
		i++
	}
	return fmt.Sprintf("%.1f %cB", f, units[i])
}

// traceGuess returns where an instrumented run writes its trace by
// default, .culprit at the module root, "" outside a module: the progress
// line shows its size while the tests run.
func traceGuess() string {
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	root := moduleRoot(wd)
	if root == "" {
		return ""
	}
	return filepath.Join(root, ".culprit")
}

// charDevice reports whether w is a terminal.
func charDevice(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
