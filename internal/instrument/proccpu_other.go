//go:build !linux

package instrument

import "time"

// procCPU cannot read a running process's CPU time here.
func procCPU(pid int) (time.Duration, bool) { return 0, false }

// groupCPU cannot read a process group's CPU time here.
func groupCPU(pgid int) (time.Duration, bool) { return 0, false }
