package rt

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// Sampling, at two levels. A function's activations are sampled at its
// entry (Enter): an activation not sampled gets the test's muted state,
// and every event in it costs one inlined test of t.Mute (compiled
// without inlining, a call, or the instrumented code's own test of the
// flag where the record stands as a statement). In the activations
// sampled, each event passes through on: for an event that is not
// recorded it is a load, a decrement and a store, no lock, no atomic
// instruction (skipped, written out in the probes under noInline). calls holds, per site, how many of its next events
// to skip; the slow path (pick) runs for the events recorded and sets the
// next gap: none for the first callLimit events of a site, then up to the
// next event numbered by a power of two, so that a site's records grow
// with the logarithm of its events.
//
// The trace as a whole is bounded too: once eventBudget events have been
// recorded (since the run began, or since the sampled test started under
// samplePerTest), every site's limit falls to afterBudget, so that a run
// with many hot sites (a compressor's: 30,000 sites, 109M events and a
// 1 GB trace for one test at 10,000 events a site) records some
// eventBudget plus a few hundred events a site. The first time it does,
// the process writes its budget file (trace.BudgetPrefix), which the
// analyses name in a note.
//
// Outside -race the counters are plain memory shared by all goroutines:
// two goroutines racing on one site can lose a decrement, which shifts
// which of that site's events are recorded and nothing else. Under -race
// they are atomic.

// calls holds each site's count of events to skip before the next one
// recorded (0: record the next).
var calls []uint32

// nums holds each site's number of the last event pick planned for;
// guarded by numMu under -race, racy like calls otherwise.
var nums []uint64

var numMu sync.Mutex // guards nums under -race

// recorded counts the events pick let through, against eventBudget.
var recorded atomic.Uint64

// afterBudget is every site's limit once the trace holds eventBudget
// events.
const afterBudget = 100

// on reports whether the running event of site might be recorded: it
// skips the events the site's counter says to skip. The caller then
// calls pick (through its slow path), which decides.
func on(site uint32) bool {
	if raceMode {
		return onAtomic(site)
	}
	return !skip(site)
}

// skip is on's test outside -race: whether the site's counter skips its
// running event, counting it skipped.
func skip(site uint32) bool {
	if site < uint32(len(calls)) {
		if n := calls[site]; n != 0 {
			calls[site] = n - 1
			return true
		}
	}
	return false
}

// skipped reports whether the running event of site is one the site's
// counter skips, and counts it skipped: on's fast path, which sample
// would take, for the entry points that test it before their slow path
// (noInline). Under -race it leaves every event to sample.
func skipped(site uint32) bool {
	return !raceMode && atomic.LoadInt32(&quiet) == 0 && skip(site)
}

func onAtomic(site uint32) bool {
	if site >= uint32(len(calls)) {
		return true
	}
	for {
		n := atomic.LoadUint32(&calls[site])
		if n == 0 {
			return true
		}
		if atomic.CompareAndSwapUint32(&calls[site], n, n-1) {
			return false
		}
	}
}

// sample reports whether the running event of site is recorded: none
// is while an allocation measurement runs (Quietly).
func sample(site uint32) bool { return atomic.LoadInt32(&quiet) == 0 && on(site) && pick(site) }

// pick decides whether the event of site that on let through is recorded
// (it is, unless nothing is traced) and sets how many of the site's
// events to skip next.
func pick(site uint32) bool {
	if traceDir == "" {
		return false
	}
	if callLimit == 0 || site >= uint32(len(calls)) || site >= uint32(len(nums)) {
		return true
	}
	if raceMode {
		numMu.Lock()
		defer numMu.Unlock()
	}
	limit := uint64(callLimit)
	if eventBudget > 0 {
		if r := recorded.Add(1); r > eventBudget {
			if limit > afterBudget {
				limit = afterBudget
			}
			if r == eventBudget+1 {
				budgetReached()
			}
		}
	}
	n := nums[site] + 1 // this event's number
	next := n + 1
	if next > limit && next&(next-1) != 0 {
		next = 1
		for next <= n {
			next <<= 1
		}
	}
	gap := next - n - 1
	if gap > math.MaxUint32 {
		gap = math.MaxUint32
	}
	nums[site] = next - 1
	if raceMode {
		atomic.StoreUint32(&calls[site], uint32(gap))
	} else {
		calls[site] = uint32(gap)
	}
	return true
}

// restartSampling makes every site's next events count from one again
// as test name starts, so that it records the first callLimit events of
// each site (samplePerTest: culprit slice, whose failing test may come
// late in a binary's run; only for sampleTest when it names one). Another test running in parallel has its counters
// restarted too; that shifts which of its events are recorded, and
// nothing else. The caller holds mu.
func restartSampling(name string) {
	if !samplePerTest || callLimit == 0 || sampleTest != "" && name != sampleTest {
		return
	}
	if raceMode {
		numMu.Lock()
		defer numMu.Unlock()
		for i := range calls {
			atomic.StoreUint32(&calls[i], 0)
		}
	} else {
		for i := range calls {
			calls[i] = 0
		}
	}
	for i := range nums {
		nums[i] = 0
	}
	recorded.Store(0)
}

// budgetReached writes the process's budget file: the trace of this
// process reached eventBudget events and sampled harder from then on.
//
//go:noinline
func budgetReached() {
	name := strings.NewReplacer("/", "_", "\\", "_", ":", "_").Replace(module)
	path := filepath.Join(traceDir, "budget-"+name+"-"+strconv.Itoa(os.Getpid()))
	if err := os.WriteFile(path, []byte(strconv.FormatUint(eventBudget, 10)+"\n"), 0o644); err != nil {
		os.Stderr.WriteString("culprit: cannot write trace: " + err.Error() + "\n")
	}
}
