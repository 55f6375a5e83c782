//go:build unix

package main

import (
	"os"
	"syscall"
	"time"
)

// cpuTime returns the CPU time the process used, user and system: on a
// shared machine it measures the inference better than elapsed time.
func cpuTime() time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

// peakRSS returns the largest resident set of an ended process, in
// bytes (0 when not known).
func peakRSS(ps *os.ProcessState) int64 {
	if ps == nil {
		return 0
	}
	if u, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return u.Maxrss * 1024 // kilobytes on Linux
	}
	return 0
}
