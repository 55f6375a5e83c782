package instrument

import (
	"context"
	"os/exec"
	"sync/atomic"
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
	go watchCPU(cmd.Process.Pid, 100*time.Millisecond, 0, cancel, done)
	cmd.Wait()
	close(done)
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("the loop ran %s: not cut at 100ms of CPU time", took)
	}
	if used := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(); used < 100*time.Millisecond {
		t.Errorf("cut after %s of CPU time, before its limit", used)
	}
}

// TestWatchIdle cuts a process that waits, using no CPU time, once it
// has waited its idle limit, long before the wall-clock limit; and
// leaves alone one that keeps using CPU time.
func TestWatchIdle(t *testing.T) {
	for _, tt := range []struct {
		script string
		cut    bool
	}{
		{"sleep 20", true},
		{"i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done", false},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		cmd := exec.CommandContext(ctx, "sh", "-c", tt.script)
		if err := cmd.Start(); err != nil {
			cancel()
			t.Skip(err)
		}
		start := time.Now()
		done := make(chan struct{})
		var stopped atomic.Bool
		go watchCPU(cmd.Process.Pid, 0, 300*time.Millisecond, func() { stopped.Store(true); cancel() }, done)
		err := cmd.Wait()
		close(done)
		took := time.Since(start)
		cancel()
		cut := stopped.Load()
		switch {
		case tt.cut && (!cut || took > 10*time.Second):
			t.Errorf("%q: ran %s, cut %v: want it cut after its 300ms idle", tt.script, took, cut)
		case !tt.cut && (cut || err != nil):
			t.Errorf("%q: cut %v after %s (%v): it kept using CPU time", tt.script, cut, took, err)
		}
	}
}
