//go:build linux

package main

import (
	"os"
	"os/exec"
	"testing"
	"time"
)

// TestWatchMemory checks that the watch reads a descendant's resident
// memory (a child's, started here) and calls over past the limit.
func TestWatchMemory(t *testing.T) {
	child := exec.Command("sleep", "5")
	if err := child.Start(); err != nil {
		t.Skip("no sleep command:", err)
	}
	defer child.Process.Kill()
	self := largestRSS(os.Getpid())
	if self <= 0 {
		t.Fatalf("largestRSS of this process = %d KiB", self)
	}
	got := make(chan int64, 1)
	stop := watchMemory(os.Getpid(), 1, func(kib int64) { got <- kib })
	defer stop()
	select {
	case kib := <-got:
		if kib < self/2 {
			t.Errorf("over(%d KiB), this process has %d KiB", kib, self)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the watch never saw a process over 1 KiB")
	}
	// A limit no process reaches: no call.
	quiet := make(chan int64, 1)
	stop2 := watchMemory(os.Getpid(), 1<<40, func(kib int64) { quiet <- kib })
	defer stop2()
	select {
	case kib := <-quiet:
		t.Errorf("over(%d KiB) under a limit of 1 PiB", kib)
	case <-time.After(1500 * time.Millisecond):
	}
}
