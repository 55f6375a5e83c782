//go:build !linux

package instrument

import "time"

// procCPU cannot read a running process's CPU time here.
func procCPU(pid int) (time.Duration, bool) { return 0, false }
