//go:build unix

package instrument

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/culprit-go/culprit/internal/proctest"
	"github.com/culprit-go/culprit/trace"
)

// TestOwnGroup: a run stopped by its context leaves no test binary
// behind (killing go test alone orphans it until it next writes, which a
// quiet test does not do for a long time).
func TestOwnGroup(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a test binary")
	}
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	files := map[string]string{
		"go.mod":   "module example.com/quiet\n\ngo 1.21\n",
		"quiet.go": "package quiet\n\n// Sum adds.\nfunc Sum(a, b int) int { return a + b }\n",
		"quiet_test.go": `package quiet

import (
	"os"
	"strconv"
	"testing"
	"time"
)

func TestQuiet(t *testing.T) {
	// Written aside, then renamed: the run is stopped as soon as the
	// file shows, which must not be before its pid is in it.
	os.WriteFile(` + strconv.Quote(pidFile+".new") + `, []byte(strconv.Itoa(os.Getpid())), 0o644)
	os.Rename(` + strconv.Quote(pidFile+".new") + `, ` + strconv.Quote(pidFile) + `)
	time.Sleep(2 * time.Minute)
	if Sum(1, 2) != 3 {
		t.Fatal("sum")
	}
}
`,
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for ctx.Err() == nil {
			if _, err := os.Stat(pidFile); err == nil {
				cancel()
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	var out bytes.Buffer
	Run(ctx, Config{Dir: dir, Packages: []string{"."}, Events: trace.EventStmt, TraceDir: filepath.Join(dir, ".culprit"),
		Stdout: &out, Stderr: &out})
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatalf("the test never started: %v\n%s", err, out.Bytes())
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for proctest.Running(pid) {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("the test binary (pid %d) still runs after the run was stopped", pid)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
