package instrument

import (
	"context"
	"os/exec"
	"testing"
	"time"
)

// TestWatchCPU cuts a process looping forever once it has used its CPU
// time, long before the wall-clock limit, and reads the CPU time of a
// running process.
func TestWatchCPU(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", "while :; do :; done")
	if err := cmd.Start(); err != nil {
		t.Skip(err)
	}
	if _, ok := procCPU(cmd.Process.Pid); !ok {
		t.Fatal("procCPU: the running process's CPU time not read")
	}
	start := time.Now()
	done := make(chan struct{})
	go watchCPU(cmd.Process.Pid, 100*time.Millisecond, cancel, done)
	cmd.Wait()
	close(done)
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("the loop ran %s: not cut at 100ms of CPU time", took)
	}
	if used := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(); used < 100*time.Millisecond {
		t.Errorf("cut after %s of CPU time, before its limit", used)
	}
}
