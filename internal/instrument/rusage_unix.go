//go:build unix

package instrument

import (
	"os"
	"syscall"
)

// maxRSS returns the peak resident set size, in KiB, of a finished
// process and the processes it waited for (for go test: the compiler, the
// linker and the test binaries), or 0 when the system does not say.
func maxRSS(ps *os.ProcessState) int64 {
	if ps == nil {
		return 0
	}
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return int64(ru.Maxrss)
	}
	return 0
}
