//go:build unix

// Package proctest holds what tests need to know of processes: whether
// one a test started, and expects stopped, still runs.
package proctest

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// Running reports whether process pid runs: it exists and, where /proc
// tells, is not a zombie (a process killed after its parent waits there
// until the system's first process reaps it).
func Running(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return true
	}
	// "pid (comm) state ...": the state follows the last ')'.
	i := bytes.LastIndexByte(stat, ')')
	return i < 0 || i+2 >= len(stat) || stat[i+2] != 'Z'
}
