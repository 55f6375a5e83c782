package instrument

import (
	"bytes"
	"os"
	"strconv"
	"time"
)

// groupCPU returns the CPU time (user and system) the running processes
// of process group pgid have used so far, read from /proc, and false
// when none of them could be read.
func groupCPU(pgid int) (time.Duration, bool) {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return 0, false
	}
	var sum time.Duration
	found := false
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue // not a process
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue // it ended
		}
		f, ok := statFields(b)
		if !ok || len(f) < 13 {
			continue
		}
		if g, err := strconv.Atoi(string(f[2])); err != nil || g != pgid { // field 5
			continue
		}
		if cpu, ok := fieldsCPU(f); ok {
			sum += cpu
			found = true
		}
	}
	return sum, found
}

// statFields returns the fields of a /proc/PID/stat file after the
// command name, from field 3 (state): the name, in parentheses, may
// hold spaces.
func statFields(b []byte) ([][]byte, bool) {
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return nil, false
	}
	return bytes.Fields(b[i+1:]), true
}

// fieldsCPU reads utime and stime (fields 14 and 15) from statFields.
func fieldsCPU(f [][]byte) (time.Duration, bool) {
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

// procCPU returns the CPU time (user and system) a running process has
// used so far, from /proc/PID/stat, and false when it cannot be read.
func procCPU(pid int) (time.Duration, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	f, ok := statFields(b)
	if !ok {
		return 0, false
	}
	return fieldsCPU(f)
}
