package rt

import (
	"sync/atomic"
	"unsafe"
)

// Statement and branch events are counters, as go test -cover keeps them:
// each instrumented package declares an array of Ctr, one per site of the
// package, and marks a site with a plain store of 1 at a constant index
// (an atomic store under -race). The compiler is told that these arrays
// are coverage counters, so the stores cost nothing in its inlining
// budget: instrumented functions are inlined as before.
//
// Counters are not per test. The runtime attributes them at test
// boundaries: each time a test starts, pauses (t.Parallel), resumes,
// returns or ends, the counters set since the previous boundary are
// added to the spectra of the tests running in between, and cleared.
// When one test runs at a time that is exact; when several run at once
// (parallel tests, goroutines a test left behind) each of them gets the
// sites executed while they overlapped, and is marked shared.

// ctrArray is one package's counters; its site IDs start at base.
type ctrArray struct {
	c    []Ctr
	base uint32
}

var ctrs []ctrArray // guarded by mu

// Counters registers a package's counter array; the instrumenter declares
// the package's array and calls it from a variable initializer.
func Counters(c []Ctr, base uint32) bool {
	mu.Lock()
	ctrs = append(ctrs, ctrArray{c, base})
	mu.Unlock()
	return true
}

// B records the outcome of a two-way decision in counters t (true) or f
// (false) and returns c.
func B(c bool, t, f *Ctr) bool {
	if c {
		set(t)
	} else {
		set(f)
	}
	return c
}

func set(p *Ctr) {
	if raceMode {
		atomic.StoreUint32((*uint32)(unsafe.Pointer(p)), 1)
		return
	}
	*p = 1
}

// flushLocked adds the counters set since the last flush to the spectra
// of the tests running now (test 0 when none) and clears them.
func flushLocked() {
	run := runningLocked()
	if len(run) == 0 {
		run = append(run, root)
	}
	if len(run) > 1 {
		for _, t := range run {
			t.shared = true
		}
	}
	for _, a := range ctrs {
		if raceMode {
			for i := range a.c {
				p := (*uint32)(unsafe.Pointer(&a.c[i]))
				if atomic.LoadUint32(p) != 0 {
					atomic.StoreUint32(p, 0)
					hit(run, a.base+uint32(i))
				}
			}
			continue
		}
		n := len(a.c)
		if n == 0 {
			continue
		}
		base := unsafe.Pointer(&a.c[0])
		i := 0
		for ; i+8 <= n; i += 8 {
			w := (*uint64)(unsafe.Add(base, i))
			if *w == 0 {
				continue
			}
			for j := 0; j < 8; j++ {
				if a.c[i+j] != 0 {
					a.c[i+j] = 0
					hit(run, a.base+uint32(i+j))
				}
			}
		}
		for ; i < n; i++ {
			if a.c[i] != 0 {
				a.c[i] = 0
				hit(run, a.base+uint32(i))
			}
		}
	}
}

func hit(run []*T, id uint32) {
	for _, t := range run {
		if id < uint32(len(t.hits)) {
			t.hits[id] = 1
		}
	}
}

// runningLocked returns the tests executing now: started, not paused in
// t.Parallel, not waiting in t.Run for a subtest, body not returned.
func runningLocked() []*T {
	var run []*T
	for _, t := range active.Load().([]*T) {
		if t.running && t.blocked == 0 {
			run = append(run, t)
		}
	}
	return run
}
