//go:build unix

package main

import (
	"os/exec"
	"syscall"
)

// inGroup runs cmd in a process group of its own: at the limit the whole
// group is interrupted, and whatever is left of it afterwards (C-Vise's
// worker processes, their interestingness scripts) is killed, so that
// nothing of one tool's run competes with the next.
func inGroup(cmd *exec.Cmd) (cleanup func()) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGINT) }
	return func() {
		if cmd.Process != nil {
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		}
	}
}
