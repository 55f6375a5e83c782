//go:build !unix

package main

import (
	"os"
	"os/exec"
)

// inGroup interrupts cmd at the limit.
func inGroup(cmd *exec.Cmd) (cleanup func()) {
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	return func() {}
}
