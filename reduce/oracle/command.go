package oracle

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Placeholder stands, in a Command's arguments, for the candidate's path.
const Placeholder = "{}"

// waitDelay bounds how long Run waits for the output pipes to close after
// the command exited or was killed: an orphan that still holds them open
// must not hang the reduction.
const waitDelay = 200 * time.Millisecond

// Output capture limits: the head of the output and its tail are kept,
// since a Go panic sits at the end of a possibly long stderr.
const (
	headLimit = 64 << 10
	tailLimit = 1 << 20
)

// A Command is a program run on one candidate input.
type Command struct {
	// Args is the program and its arguments. Unless InCandidateDir is
	// set, every Placeholder in them is replaced by the candidate's
	// absolute path, which is appended when no argument contains one.
	Args []string
	// InCandidateDir runs the program, C-Reduce style, with the
	// directory holding the candidate as its working directory and the
	// arguments unchanged.
	InCandidateDir bool
	// Dir is the working directory when InCandidateDir is false; empty
	// means the current one.
	Dir string
	// Env is the environment; nil means the current process's.
	Env []string
	// Timeout bounds each run; zero means no limit. A run that exceeds
	// it is killed, together with its whole process group.
	Timeout time.Duration
	// Before, if set, is called with the candidate's path before each
	// run, to prepare what the program needs besides the candidate (go
	// test's -overlay file); its error is Run's.
	Before func(path string) error
}

// Exit says how a process ended.
type Exit struct {
	Code     int    // exit code; -1 when killed by a signal or timed out
	Signal   string // the signal that killed it, if any
	TimedOut bool   // killed because it exceeded the timeout
}

// OK reports whether the process exited normally with status 0.
func (x Exit) OK() bool { return x.Code == 0 && !x.TimedOut && x.Signal == "" }

func (x Exit) String() string {
	switch {
	case x.TimedOut:
		return "timed out"
	case x.Signal != "":
		return "killed by signal " + x.Signal
	default:
		return fmt.Sprintf("exit status %d", x.Code)
	}
}

// A Run is what one execution of a Command did.
type Run struct {
	Exit     Exit
	Stdout   []byte        // captured standard output (head and tail if long)
	Stderr   []byte        // captured standard error (head and tail if long)
	Output   []byte        // both streams, interleaved as written
	Path     string        // the candidate's absolute path
	Duration time.Duration // wall-clock time of the run
}

// Describe tells in a few words what the run did: its exit status and the
// first line of its standard error, if any.
func (r Run) Describe() string {
	s := r.Exit.String()
	if line := firstLine(r.Stderr); line != "" {
		s += fmt.Sprintf(", stderr: %q", line)
	}
	return s
}

func firstLine(b []byte) string {
	for _, line := range strings.Split(string(b), "\n") {
		if line = strings.TrimSpace(line); line != "" {
			if len(line) > 200 {
				line = line[:200] + "..."
			}
			return line
		}
	}
	return ""
}

// argv returns the program's arguments and working directory for a
// candidate at path.
func (c *Command) argv(path string) (args []string, dir string) {
	if c.InCandidateDir {
		return append([]string(nil), c.Args...), filepath.Dir(path)
	}
	found := false
	for _, a := range c.Args {
		if strings.Contains(a, Placeholder) {
			found = true
			a = strings.ReplaceAll(a, Placeholder, path)
		}
		args = append(args, a)
	}
	if !found {
		args = append(args, path)
	}
	return args, c.Dir
}

// Run runs the command on the candidate at path, which must be absolute.
// It returns an error when the program cannot be started or when ctx is
// cancelled; a timeout is not an error but a Run whose Exit says so. When
// Run returns, the command's whole process group has been killed, so no
// child or grandchild of it survives.
func (c *Command) Run(ctx context.Context, path string) (Run, error) {
	if len(c.Args) == 0 {
		return Run{}, errors.New("empty command")
	}
	if c.Before != nil {
		if err := c.Before(path); err != nil {
			return Run{}, err
		}
	}
	args, dir := c.argv(path)
	runCtx := ctx
	if c.Timeout > 0 {
		var cancel context.CancelFunc
		runCtx, cancel = context.WithTimeout(ctx, c.Timeout)
		defer cancel()
	}
	cmd := exec.CommandContext(runCtx, args[0], args[1:]...)
	cmd.Dir = dir
	cmd.Env = c.Env
	var out, stdout, stderr capture
	cmd.Stdout = teeWriter{&stdout, &out}
	cmd.Stderr = teeWriter{&stderr, &out}
	var (
		mu     sync.Mutex
		killed bool
	)
	ownGroup(cmd)
	cmd.Cancel = func() error {
		mu.Lock()
		killed = true
		mu.Unlock()
		return killGroup(cmd)
	}
	cmd.WaitDelay = waitDelay
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return Run{}, fmt.Errorf("start %s: %w", args[0], err)
	}
	err := cmd.Wait()
	dur := time.Since(start)
	// The leader is gone; its group may still hold orphans.
	_ = killGroup(cmd)
	r := Run{
		Stdout:   stdout.bytes(),
		Stderr:   stderr.bytes(),
		Output:   out.bytes(),
		Path:     path,
		Duration: dur,
	}
	if ctx.Err() != nil {
		return r, ctx.Err()
	}
	mu.Lock()
	timedOut := killed
	mu.Unlock()
	switch {
	case timedOut:
		r.Exit = Exit{Code: -1, TimedOut: true}
	case cmd.ProcessState == nil:
		return r, fmt.Errorf("run %s: %w", args[0], err)
	default:
		r.Exit = exitOf(cmd.ProcessState)
	}
	return r, nil
}

// exitOf reads the exit status of a finished process.
func exitOf(ps interface {
	ExitCode() int
	Sys() any
}) Exit {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return Exit{Code: -1, Signal: ws.Signal().String()}
	}
	return Exit{Code: ps.ExitCode()}
}

// capture is a concurrency-safe writer that keeps the head and the tail
// of what is written to it.
type capture struct {
	mu        sync.Mutex
	head      []byte
	tail      []byte // ring contents in order once full, kept simple
	truncated bool
}

func (c *capture) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := len(p)
	if room := headLimit - len(c.head); room > 0 {
		k := min(room, len(p))
		c.head = append(c.head, p[:k]...)
		p = p[k:]
	}
	if len(p) == 0 {
		return n, nil
	}
	c.tail = append(c.tail, p...)
	if len(c.tail) > 2*tailLimit {
		c.tail = append(c.tail[:0], c.tail[len(c.tail)-tailLimit:]...)
		c.truncated = true
	}
	return n, nil
}

func (c *capture) bytes() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	tail := c.tail
	if len(tail) > tailLimit {
		tail = tail[len(tail)-tailLimit:]
		c.truncated = true
	}
	b := append([]byte(nil), c.head...)
	if c.truncated {
		b = append(b, "\n...\n"...)
	}
	return append(b, tail...)
}

// teeWriter writes to two captures.
type teeWriter struct{ a, b *capture }

func (t teeWriter) Write(p []byte) (int, error) {
	t.a.Write(p)
	return t.b.Write(p)
}
