// Package rt is culprit's runtime support: culprit test compiles it into
// the program under test and the instrumented code calls it. It imports
// only the standard library, and as little of it as it can: nothing it
// imports can be instrumented.
//
// Statement and branch events are counters in per-package arrays
// (counters.go), attributed to tests at test boundaries. Stream events
// (function entries and exits, reads, writes, calls, panics, goroutines,
// channel operations; events.go) go to one buffered stream, attributed to
// tests by goroutine. Everything is written, in the format the trace
// package specifies, to one events file per process: when a test ends
// (its spectrum), when the buffer fills, and at exit, including after a
// test panics, before a test timeout fires and in os.Exit calls the
// instrumenter redirected here.
//
// The names below are called from generated code; they are not an API.
package rt

import (
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"
)

// TB is what rt needs of *testing.T, *testing.B and *testing.F.
type TB interface {
	Name() string
	Failed() bool
	Skipped() bool
	Cleanup(func())
}

// T is one test's recording state.
type T struct {
	id    uint32
	name  string
	tb    TB
	lbl   unsafe.Pointer
	hits  []uint8 // one byte per site, 1 when executed
	ended atomic.Bool
	muted *T   // its Exit records nothing (a call not sampled)
	Mute  bool // this is a muted twin (instrumented code tests it, noInline)

	// Attribution of counters (guarded by mu).
	running bool // started, not paused in t.Parallel, body not returned
	blocked int  // subtests it waits for in t.Run
	parent  *T   // the test that waits in t.Run for this one, until it pauses or ends
	shared  bool // other tests ran at the same time for part of it
	top     bool // a top-level test or example
}

// newT returns a test state with its spectrum and muted twin.
func newT(id uint32, name string) *T {
	t := &T{id: id, name: name, hits: make([]uint8, numSites)}
	t.muted = &T{id: id, name: name, Mute: true}
	return t
}

// Test kinds and outcomes, as trace defines them.
const (
	kindTest    = 0
	kindExample = 3

	outRunning = 0
	outPass    = 1
	outFail    = 2
	outSkip    = 3
	outPanic   = 4
	outUnknown = 5
)

var (
	root    = &T{}       // test 0: code no test runs
	active  atomic.Value // []*T, copied on write
	byLabel sync.Map     // label pointer -> *T, for tests no longer active
	byTB    sync.Map     // TB -> *T
	nextID  atomic.Uint32
)

func init() {
	root = newT(0, "")
	calls = make([]uint32, numSites)
	nums = make([]uint64, numSites)
	active.Store([]*T(nil))
}

// Cur returns the recording state of the test the running goroutine
// belongs to. Instrumented functions start with L(P()), the same thing
// inlined.
func Cur() *T { return L(getProfLabel()) }

// L returns the recording state of the test whose label pointer is p.
func L(p unsafe.Pointer) *T {
	if t := (*T)(atomic.LoadPointer(&last)); t != nil && t.lbl == p {
		return t
	}
	return lookup(p)
}

// last is the test L found last: most calls come from the same test.
var last unsafe.Pointer

func lookup(p unsafe.Pointer) *T {
	if p == nil {
		atomic.StorePointer(&last, unsafe.Pointer(root))
		return root
	}
	for _, t := range active.Load().([]*T) {
		if t.lbl == p {
			atomic.StorePointer(&last, unsafe.Pointer(t))
			return t
		}
	}
	if t, ok := byLabel.Load(p); ok {
		return t.(*T)
	}
	return root
}

// Test registers the test tb on the running goroutine, unless tb is
// already running (a helper taking t, a subtest calling a helper with its
// parent's t). It returns the test's state, nil when it registered nothing.
func Test(tb TB) *T {
	if traceDir == "" {
		return nil
	}
	if _, ok := byTB.Load(tb); ok {
		return nil
	}
	cur := Cur()
	t := start(tb.Name(), kindTest, cur)
	t.tb = tb
	byTB.Store(tb, t)
	tb.Cleanup(func() { t.finish() })
	return t
}

// Done runs deferred at the top of a test function registered by Test:
// the test's body returned; its parallel subtests and cleanups may still
// run. The parent stays blocked: t.Run returns only after t's cleanups,
// and finish, the last of them, unblocks it. (A test that called
// t.Parallel unblocked its parent there.)
func Done(t *T) {
	if t == nil {
		return
	}
	mu.Lock()
	flushLocked()
	t.running = false
	mu.Unlock()
}

// unblockLocked tells t's parent that t.Run returned or will soon.
func (t *T) unblockLocked() {
	if p := t.parent; p != nil {
		p.blocked--
		t.parent = nil
	}
}

// Parallel replaces t.Parallel() in instrumented code: the test pauses
// until its parent's body returns, and its parent goes on meanwhile.
func Parallel(tb interface{ Parallel() }) {
	v, ok := byTB.Load(tb)
	if !ok || traceDir == "" {
		tb.Parallel()
		return
	}
	t := v.(*T)
	mu.Lock()
	flushLocked()
	t.running = false
	t.unblockLocked()
	mu.Unlock()
	tb.Parallel()
	mu.Lock()
	flushLocked()
	t.running = true
	mu.Unlock()
}

// Example registers the example name on the running goroutine.
func Example(name string) *T {
	if traceDir == "" {
		return nil
	}
	return start(name, kindExample, Cur())
}

func start(name string, kind uint8, parent *T) *T {
	startTimeout()
	t := newT(nextID.Add(1), name)
	// A test the slice does not read records no stream events: its
	// activations are muted, as calls not sampled are, and take nothing
	// of the sites' sampling budgets.
	t.Mute = onlyRelated && !related(name, sampleTest)
	t.lbl = setTestLabel(name)
	byLabel.Store(t.lbl, t)
	mu.Lock()
	flushLocked()
	restartSampling(name)
	t.running = true
	if parent != root && parent.running && !parent.ended.Load() {
		// The parent waits in t.Run until t ends or pauses.
		parent.blocked++
		t.parent = parent
	}
	old := active.Load().([]*T)
	next := make([]*T, len(old), len(old)+1)
	copy(next, old)
	next = append(next, t)
	active.Store(next)
	w.byte('T')
	w.uv(uint64(t.id))
	w.uv(uint64(parent.id))
	w.uv(uint64(kind))
	w.str(name)
	if parent == root {
		// A top-level test's start and end reach the file at once: a
		// fatal error (a stack overflow, a concurrent map write) ends
		// the process with no deferred call, and what the trace then
		// holds says which tests ended and which one was running, so
		// that culprit can run the tests after it (instrument's resume).
		t.top = true
		w.flush()
	}
	mu.Unlock()
	return t
}

// related reports whether test name is the test want, one of its
// parents or one of its subtests: the tests whose events a slice of want
// (or of its first failing subtest) replays, with package
// initialization's. Every test is related to want "".
func related(name, want string) bool {
	return want == "" || name == want || strings.HasPrefix(want, name+"/") || strings.HasPrefix(name, want+"/")
}

// End runs deferred at the top of an example registered by Example.
// An example whose goroutine panics ends here, and the trace is flushed:
// the testing package will crash the process.
func End(t *T) {
	if t == nil {
		return
	}
	mu.Lock()
	flushLocked()
	t.running = false
	if panicking() {
		t.endLocked(outPanic)
		snapshotLocked()
		w.flush()
	} else {
		t.endLocked(outUnknown)
	}
	mu.Unlock()
	clearLabel()
}

// GoEnd runs deferred at the top of a function literal started by a go
// statement: when the goroutine panics, the process is about to die, and
// the trace is flushed first.
func GoEnd() {
	if traceDir == "" || !panicking() {
		return
	}
	mu.Lock()
	snapshotLocked()
	w.flush()
	mu.Unlock()
}

// finish records a test's outcome after it and its subtests are done;
// it runs as the test's last cleanup. When the test's goroutine panicked,
// testing runs the cleanups while panicking (before marking the test
// failed), then crashes the process: the trace is flushed here.
func (t *T) finish() {
	out := uint64(outPass)
	panicked := panicking()
	switch {
	case panicked:
		out = outPanic
	case t.tb.Failed():
		out = outFail
	case t.tb.Skipped():
		out = outSkip
	}
	mu.Lock()
	// What ran since the last boundary (the test's cleanups) is the
	// test's, and that of any test running alongside.
	t.running, t.blocked = true, 0
	flushLocked()
	t.running = false
	t.unblockLocked()
	t.endLocked(out)
	if panicked {
		snapshotLocked()
		w.flush()
	}
	mu.Unlock()
	byTB.Delete(t.tb)
}

// endLocked writes t's end record with its spectrum and retires it.
func (t *T) endLocked(out uint64) {
	if t.ended.Swap(true) {
		return
	}
	t.writeHitsLocked(out)
	old := active.Load().([]*T)
	next := make([]*T, 0, len(old))
	for _, a := range old {
		if a != t {
			next = append(next, a)
		}
	}
	active.Store(next)
	if t.top {
		w.flush()
	} else {
		w.maybeFlush()
	}
}

func (t *T) writeHitsLocked(out uint64) {
	n := 0
	for _, h := range t.hits {
		if h != 0 {
			n++
		}
	}
	w.byte('O')
	w.uv(uint64(t.id))
	w.uv(out)
	flags := uint64(0)
	if t.shared {
		flags |= 1
	}
	w.uv(flags)
	w.uv(uint64(n))
	prev := uint64(0)
	for i, h := range t.hits {
		if h != 0 {
			w.uv(uint64(i) - prev)
			prev = uint64(i)
		}
	}
}

// snapshotLocked writes what the tests still running have recorded, with
// outcome running, and what code outside tests recorded.
func snapshotLocked() {
	flushLocked()
	for _, t := range active.Load().([]*T) {
		if !t.ended.Load() {
			t.writeHitsLocked(outRunning)
		}
	}
	root.writeHitsLocked(outRunning)
}

// Main runs the tests (m is a *testing.M), writes the trace and exits: it
// is the TestMain culprit adds to packages that have none.
func Main(m interface{ Run() int }) {
	code := m.Run()
	Exit(code)
}

// Close writes the trace; it runs deferred at the top of a user's TestMain.
func Close() { closeTrace(-1) }

// Exit writes the trace and exits; the instrumenter redirects os.Exit here.
// A program run (culprit flow's "main") still running ends here: pass
// with status 0, fail otherwise.
func Exit(code int) {
	if traceDir != "" {
		out := uint64(outPass)
		if code != 0 {
			out = outFail
		}
		mu.Lock()
		flushLocked()
		for _, t := range active.Load().([]*T) {
			if t.name == programRun && !t.ended.Load() {
				t.endLocked(out)
			}
		}
		mu.Unlock()
	}
	closeTrace(int64(code))
	os.Exit(code)
}

// programRun names the run of a whole program (instrument.ProgramRun): no
// test can have this name.
const programRun = "main"

func closeTrace(code int64) {
	if traceDir == "" {
		return
	}
	mu.Lock()
	defer mu.Unlock()
	snapshotLocked()
	w.byte('Z')
	w.sv(code)
	w.flush()
}

// Package names the package under test, for the events file name.
func Package(path string) {
	mu.Lock()
	module = path
	mu.Unlock()
}
