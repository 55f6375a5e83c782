package proctest

import (
	"os"
	"os/exec"
	"runtime"
	"testing"
)

// TestRunning: this process runs; a child that has exited and been
// waited for does not.
func TestRunning(t *testing.T) {
	if !Running(os.Getpid()) {
		t.Error("this process is not running")
	}
	if runtime.GOOS == "windows" {
		t.Skip("no exited child to look for")
	}
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip(err)
	}
	if Running(cmd.Process.Pid) {
		t.Errorf("exited child %d still runs", cmd.Process.Pid)
	}
}
