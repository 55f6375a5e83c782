package instrument

import (
	"bytes"
	"os"
	"strconv"
	"time"
)

// procCPU returns the CPU time (user and system) a running process has
// used so far, from /proc/PID/stat, and false when it cannot be read.
func procCPU(pid int) (time.Duration, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	// The command name, in parentheses, may hold spaces: the fields
	// are counted after its closing parenthesis, from field 3 (state).
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, false
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 13 {
		return 0, false
	}
	utime, err1 := strconv.ParseInt(string(f[11]), 10, 64) // field 14
	stime, err2 := strconv.ParseInt(string(f[12]), 10, 64) // field 15
	if err1 != nil || err2 != nil {
		return 0, false
	}
	// Clock ticks: USER_HZ, 100 on every Linux architecture Go runs on.
	return time.Duration(utime+stime) * (time.Second / 100), true
}
