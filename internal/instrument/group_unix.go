//go:build unix

package instrument

import (
	"os/exec"
	"syscall"
)

// ownGroup makes go test the leader of a process group of its own, and
// its cancellation kill the whole group: killing go test alone leaves
// its test binary running, orphaned, until it next writes output. go
// test reads nothing from the terminal and writes only to culprit's
// pipes, so leaving the terminal's process group changes one thing: an
// interrupt from the terminal reaches culprit alone, which cancels the
// run.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		if err == syscall.ESRCH {
			return nil
		}
		return err
	}
}
