package oracle

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/culprit-go/culprit/reduce"
)

// helperEnv makes the test binary act as a crashing program instead of
// running the tests: its value names the crash.
const helperEnv = "CULPRIT_ORACLE_HELPER"

func TestMain(m *testing.M) {
	if kind := os.Getenv(helperEnv); kind != "" {
		crash(kind)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

type point struct{ x int }

func (p *point) get() int { return p.x }

type parseError struct{ line int }

func (e parseError) Error() string { return fmt.Sprintf("parse error on line %d", e.line) }

//go:noinline
func index(s []int, i int) int { return s[i] }

// crash fails in the way kind names, as real Go programs do.
func crash(kind string) {
	switch kind {
	case "user":
		panic("Invalid input")
	case "error":
		panic(parseError{7})
	case "index":
		fmt.Println(index(make([]int, 3), 5))
	case "nil":
		var p *point
		fmt.Println(p.get())
	case "closure":
		func() { panic("in a closure") }()
	case "deadlock":
		ch := make(chan int)
		<-ch
	case "exit3":
		fmt.Fprintln(os.Stderr, "something went wrong")
		os.Exit(3)
	case "ok":
	}
}

// helper runs the test binary as a crashing program and returns its run.
func helper(t *testing.T, kind string) Run {
	t.Helper()
	c := &Command{
		Args:           []string{os.Args[0]},
		InCandidateDir: true,
		Env:            append(os.Environ(), helperEnv+"="+kind, "GORACE=atexit_sleep_ms=0"),
		Timeout:        10 * time.Second,
	}
	r, err := c.Run(context.Background(), filepath.Join(t.TempDir(), "in"))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestParsePanicRealOutput(t *testing.T) {
	const pkg = "github.com/culprit-go/culprit/reduce/oracle."
	tests := []struct {
		kind, msg, frame string
		reason           string
	}{
		{"user", "panic: Invalid input", pkg + "crash", "a user panic compares exactly"},
		{"error", "panic: parse error on line 7", pkg + "crash", "an error value prints its message, digits kept"},
		{"index", "panic: runtime error: index out of range [N] with length N", pkg + "index", "runtime errors lose their numbers"},
		{"nil", "panic: runtime error: invalid memory address or nil pointer dereference", pkg + "(*point).get", "a method frame keeps its receiver"},
		{"closure", "panic: in a closure", pkg + "crash.func1", "a closure is its own function"},
		{"deadlock", "fatal error: all goroutines are asleep - deadlock!", pkg + "crash", "fatal errors count as panics"},
		{"exit3", "", "", "no panic at all"},
	}
	for _, tt := range tests {
		t.Run(tt.kind, func(t *testing.T) {
			r := helper(t, tt.kind)
			if r.Exit.TimedOut && tt.kind == "deadlock" {
				t.Skip("no deadlock detection in this build (the race detector keeps goroutines running)")
			}
			msg, frame := ParsePanic(r.Stderr)
			if msg != tt.msg || frame != tt.frame {
				t.Errorf("ParsePanic = %q, %q; want %q, %q (%s)\nstderr:\n%s", msg, frame, tt.msg, tt.frame, tt.reason, r.Stderr)
			}
		})
	}
}

func TestParsePanicText(t *testing.T) {
	tests := []struct {
		name, stderr, msg, frame string
	}{
		{
			name:   "output before the panic",
			stderr: "reading input\npanic: bad\n\ngoroutine 1 [running]:\nmain.parse(...)\n\t/x/main.go:9\nmain.main()\n\t/x/main.go:3 +0x1d\n",
			msg:    "panic: bad", frame: "main.parse",
		},
		{
			name:   "runtime frames are skipped",
			stderr: "panic: runtime error: slice bounds out of range [:12] with capacity 4\n\ngoroutine 1 [running]:\npanic({0x4a, 0x5})\n\t/go/src/runtime/panic.go:785\nruntime.goPanicSliceAcap(0xc, 0x4)\n\t/go/src/runtime/panic.go:141\nmain.cut(...)\n\t/x/main.go:9\n",
			msg:    "panic: runtime error: slice bounds out of range [:N] with capacity N", frame: "main.cut",
		},
		{
			name:   "internal runtime frames are skipped",
			stderr: "fatal error: concurrent map writes\n\ngoroutine 7 [running]:\ninternal/runtime/maps.fatal({0x4b, 0x15})\n\t/go/src/runtime/panic.go:1058\nmain.worker(0x0?)\n\t/x/main.go:12 +0x4f\ncreated by main.main in goroutine 1\n\t/x/main.go:8 +0x25\n",
			msg:    "fatal error: concurrent map writes", frame: "main.worker",
		},
		{
			name:   "user messages keep their digits",
			stderr: "panic: line 12: unexpected '}'\n\ngoroutine 1 [running]:\nmain.main()\n\t/x/main.go:3\n",
			msg:    "panic: line 12: unexpected '}'", frame: "main.main",
		},
		{
			name:   "no trace",
			stderr: "panic: alone\n",
			msg:    "panic: alone", frame: "",
		},
		{
			name:   "not a panic",
			stderr: "error: panic: quoted\nexit status 1\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			msg, frame := ParsePanic([]byte(tt.stderr))
			if msg != tt.msg || frame != tt.frame {
				t.Errorf("ParsePanic = %q, %q; want %q, %q", msg, frame, tt.msg, tt.frame)
			}
		})
	}
}

func TestClassify(t *testing.T) {
	panicIn := func(msg, fn string, code int) Run {
		return Run{Exit: Exit{Code: code}, Stderr: []byte("panic: " + msg + "\n\ngoroutine 1 [running]:\n" + fn + "()\n\t/x.go:1\n")}
	}
	exit := func(code int, out string) Run {
		return Run{Exit: Exit{Code: code}, Stdout: []byte(out), Output: []byte(out)}
	}
	timeout := Run{Exit: Exit{Code: -1, TimedOut: true}}
	signal := Run{Exit: Exit{Code: -1, Signal: "segmentation fault"}}
	tests := []struct {
		name   string
		judge  Judge
		golden Run
		run    Run
		want   reduce.Outcome
	}{
		{"same panic", Judge{Rule: GoPanic}, panicIn("boom", "main.f", 2), panicIn("boom", "main.f", 2), reduce.Fail},
		{"other message", Judge{Rule: GoPanic}, panicIn("boom", "main.f", 2), panicIn("bang", "main.f", 2), reduce.Unresolved},
		{"same message, other function", Judge{Rule: GoPanic}, panicIn("boom", "main.f", 2), panicIn("boom", "main.g", 2), reduce.Unresolved},
		{"runtime error numbers", Judge{Rule: GoPanic}, panicIn("runtime error: index out of range [5] with length 3", "main.f", 2), panicIn("runtime error: index out of range [7] with length 1", "main.f", 2), reduce.Fail},
		{"exit 0 passes", Judge{Rule: GoPanic}, panicIn("boom", "main.f", 2), exit(0, ""), reduce.Pass},
		{"other exit status", Judge{Rule: GoPanic}, exit(1, ""), exit(3, ""), reduce.Unresolved},
		{"same exit status, no panic", Judge{Rule: GoPanic}, exit(1, "a"), exit(1, "b"), reduce.Fail},
		{"timeout is not a failure", Judge{Rule: GoPanic}, exit(1, ""), timeout, reduce.Unresolved},
		{"timeout as the failure", Judge{Rule: GoPanic}, timeout, timeout, reduce.Fail},
		{"signal", Judge{Rule: GoPanic}, signal, signal, reduce.Fail},
		{"signal is not an exit status", Judge{Rule: ExitStatus}, exit(1, ""), signal, reduce.Unresolved},
		{"exit status alone", Judge{Rule: ExitStatus}, panicIn("boom", "main.f", 2), panicIn("bang", "main.g", 2), reduce.Fail},
		{"match", Judge{Rule: Match, Regexp: regexp.MustCompile(`ERR \d`)}, exit(0, "ERR 1"), exit(0, "x ERR 2"), reduce.Fail},
		{"match, no match", Judge{Rule: Match, Regexp: regexp.MustCompile(`ERR \d`)}, exit(0, "ERR 1"), exit(0, "fine"), reduce.Pass},
		{"match, other status", Judge{Rule: Match, Regexp: regexp.MustCompile(`ERR \d`)}, exit(0, "ERR 1"), exit(1, "ERR 1"), reduce.Unresolved},
		{"interesting", Judge{Rule: Interesting}, exit(0, ""), exit(0, ""), reduce.Fail},
		{"not interesting", Judge{Rule: Interesting}, exit(0, ""), exit(1, ""), reduce.Pass},
		{"script timeout", Judge{Rule: Interesting}, exit(0, ""), timeout, reduce.Unresolved},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j := tt.judge
			if err := j.Learn(tt.golden); err != nil {
				t.Fatal(err)
			}
			if got := j.Classify(tt.run); got != tt.want {
				t.Errorf("Classify = %v, want %v (signature %v, want %v)", got, tt.want, j.Signature(tt.run), j.Want)
			}
		})
	}
}

func TestLearnNotFailing(t *testing.T) {
	tests := []struct {
		judge  Judge
		golden Run
		want   string
	}{
		{Judge{Rule: GoPanic}, Run{Stderr: []byte("\nall good\n")}, `the original does not fail: exit status 0, stderr: "all good"`},
		{Judge{Rule: ExitStatus}, Run{}, "the original does not fail: exit status 0"},
		{Judge{Rule: Match, Regexp: regexp.MustCompile("x")}, Run{Exit: Exit{Code: 1}}, `the original does not fail: its output does not match "x" (exit status 1)`},
		{Judge{Rule: Interesting}, Run{Exit: Exit{Code: 1}}, "the original does not fail: the test script says it is not interesting (exit status 1)"},
	}
	for _, tt := range tests {
		err := tt.judge.Learn(tt.golden)
		if !errors.Is(err, ErrNotFailing) || err.Error() != tt.want {
			t.Errorf("Learn = %v, want %q", err, tt.want)
		}
	}
}

func TestPathInMessage(t *testing.T) {
	// The candidate's path changes from run to run; a message quoting it
	// must still compare equal.
	j := Judge{Rule: GoPanic}
	mk := func(path string) Run {
		return Run{Exit: Exit{Code: 2}, Path: path, Stderr: []byte("panic: open " + path + ": bad\n")}
	}
	if err := j.Learn(mk("/tmp/a/1/in.json")); err != nil {
		t.Fatal(err)
	}
	if got := j.Classify(mk("/tmp/a/2/in.json")); got != reduce.Fail {
		t.Errorf("Classify = %v, want FAIL", got)
	}
}

func TestRunArgs(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"echo", "{}"}, "P\n"},
		{[]string{"echo", "--in={}", "x"}, "--in=P x\n"},
		{[]string{"echo", "a"}, "a P\n"},
	}
	for _, tt := range tests {
		c := &Command{Args: tt.args}
		r, err := c.Run(context.Background(), "/some/path")
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.ReplaceAll(string(r.Stdout), "/some/path", "P"); got != tt.want {
			t.Errorf("%q: stdout %q, want %q", tt.args, got, tt.want)
		}
	}
	// C-Reduce style: the working directory is the candidate's.
	dir := t.TempDir()
	c := &Command{Args: []string{"pwd"}, InCandidateDir: true}
	r, err := c.Run(context.Background(), filepath.Join(dir, "in.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(r.Stdout)); got != dir {
		t.Errorf("pwd = %q, want %q", got, dir)
	}
}

func TestRunExit(t *testing.T) {
	tests := []struct {
		script string
		want   Exit
	}{
		{"exit 0", Exit{}},
		{"exit 7", Exit{Code: 7}},
		{"kill -SEGV $$", Exit{Code: -1, Signal: "segmentation fault"}},
	}
	for _, tt := range tests {
		c := &Command{Args: []string{"sh", "-c", tt.script}}
		r, err := c.Run(context.Background(), "x")
		if err != nil {
			t.Fatal(err)
		}
		if r.Exit != tt.want {
			t.Errorf("%s: exit %+v, want %+v", tt.script, r.Exit, tt.want)
		}
	}
}

// TestTimeoutKillsGroup checks that a timeout kills the command and its
// grandchild: no orphan survives.
func TestTimeoutKillsGroup(t *testing.T) {
	pidfile := filepath.Join(t.TempDir(), "pid")
	c := &Command{
		Args:    []string{"sh", "-c", `sleep 300 & echo $! > "$0"; wait`, pidfile},
		Timeout: 200 * time.Millisecond,
	}
	start := time.Now()
	r, err := c.Run(context.Background(), "unused")
	if err != nil {
		t.Fatal(err)
	}
	if !r.Exit.TimedOut {
		t.Errorf("exit %v, want a timeout", r.Exit)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("Run took %v after a 200ms timeout", d)
	}
	checkDead(t, pidfile)
}

// TestOrphanHoldingOutput checks that a grandchild that outlives the
// command and holds its stdout neither hangs Run nor survives it.
func TestOrphanHoldingOutput(t *testing.T) {
	pidfile := filepath.Join(t.TempDir(), "pid")
	c := &Command{Args: []string{"sh", "-c", `sleep 300 & echo $! > "$0"; exit 4`, pidfile}}
	start := time.Now()
	r, err := c.Run(context.Background(), "unused")
	if err != nil {
		t.Fatal(err)
	}
	if r.Exit.Code != 4 {
		t.Errorf("exit %v, want exit status 4", r.Exit)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("Run took %v", d)
	}
	checkDead(t, pidfile)
}

func TestRunCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		time.Sleep(100 * time.Millisecond)
		cancel()
	}()
	c := &Command{Args: []string{"sleep", "300"}, InCandidateDir: true}
	_, err := c.Run(ctx, "x")
	wg.Wait()
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Run = %v, want context.Canceled", err)
	}
}

func TestRunNotFound(t *testing.T) {
	c := &Command{Args: []string{"./no-such-program-here"}}
	if _, err := c.Run(context.Background(), "x"); err == nil || !strings.HasPrefix(err.Error(), "start ./no-such-program-here:") {
		t.Errorf("Run = %v, want a start error", err)
	}
}

func TestCaptureKeepsHeadAndTail(t *testing.T) {
	var c capture
	c.Write([]byte("HEAD"))
	big := strings.Repeat("x", headLimit+3*tailLimit)
	c.Write([]byte(big))
	c.Write([]byte("panic: at the end\n"))
	b := string(c.bytes())
	if !strings.HasPrefix(b, "HEAD") || !strings.HasSuffix(b, "panic: at the end\n") || len(b) > headLimit+tailLimit+10 {
		t.Errorf("capture kept %d bytes, head %q, tail %q", len(b), b[:4], b[len(b)-18:])
	}
}

// checkDead fails the test if the process whose pid is in pidfile runs.
func checkDead(t *testing.T, pidfile string) {
	t.Helper()
	var pid int
	for i := 0; ; i++ {
		b, err := os.ReadFile(pidfile)
		if pid, _ = strconv.Atoi(strings.TrimSpace(string(b))); err == nil && pid > 0 {
			break
		}
		if i > 50 {
			t.Fatalf("no pid in %s", pidfile)
		}
		time.Sleep(10 * time.Millisecond)
	}
	// A killed orphan may linger briefly as a zombie until reaped.
	for i := 0; i < 100; i++ {
		if !running(pid) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Errorf("process %d survived", pid)
	syscall.Kill(pid, syscall.SIGKILL)
}

// running reports whether a process exists and is not a zombie.
func running(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	out, err := exec.Command("ps", "-o", "stat=", "-p", strconv.Itoa(pid)).Output()
	return err != nil || !strings.HasPrefix(strings.TrimSpace(string(out)), "Z")
}
