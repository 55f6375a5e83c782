//go:build !unix

// Package proctest holds what tests need to know of processes: whether
// one a test started, and expects stopped, still runs.
package proctest

import "os"

// Running reports whether process pid runs, as far as the system lets
// a process be found by its ID.
func Running(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	p.Release()
	return true
}
