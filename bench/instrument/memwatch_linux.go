//go:build linux

package main

import (
	"os"
	"strconv"
	"strings"
	"time"
)

// watchMemory checks every second the resident memory of the process
// root and of its descendants (culprit's go test runs in process groups
// of their own, so a group is not enough), and calls over with the
// largest, in KiB, once one is over limit: the analyses of a mutant that
// makes a test allocate without end grew to 17 GiB on a 24 GiB machine
// before their time limit. stop ends the watch.
func watchMemory(root int, limit int64, over func(kib int64)) (stop func()) {
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
			}
			if kib := largestRSS(root); kib > limit {
				over(kib)
				return
			}
		}
	}()
	return func() { close(done) }
}

// largestRSS returns the largest resident set, in KiB, among root and
// its descendants, read from /proc.
func largestRSS(root int) int64 {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0
	}
	parent := map[int]int{}
	rss := map[int]int64{}
	page := int64(os.Getpagesize() / 1024)
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		data, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// The command's name is in parentheses and may hold spaces: the
		// fields counted after its closing one (state, ppid, ... rss is
		// the 24th field of the line, the 22nd after the name).
		s := string(data)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) < 22 {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		pages, _ := strconv.ParseInt(f[21], 10, 64)
		parent[pid], rss[pid] = ppid, pages*page
	}
	var largest int64
	for pid, kib := range rss {
		for p, hops := pid, 0; p > 1 && hops < 64; p, hops = parent[p], hops+1 {
			if p == root {
				largest = max(largest, kib)
				break
			}
		}
	}
	return largest
}
