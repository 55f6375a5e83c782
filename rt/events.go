package rt

import (
	"reflect"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"
)

// Stream events. Values reach rt as interface values the caller builds on
// its own stack: every entry point launders its arguments through
// noescape, so that recording a value never makes it escape to the heap
// (tests that count allocations see what they see uninstrumented). Values
// are encoded before the call returns and never kept.

// noescape hides a pointer from escape analysis, as the runtime's own
// noescape does; the pointee must not outlive the call. (It reads the
// pointer back from a uintptr's memory: nosplit, so the stack cannot move
// in between.)
//
//go:nosplit
func noescape(p unsafe.Pointer) unsafe.Pointer {
	x := uintptr(p)
	return *(*unsafe.Pointer)(unsafe.Pointer(&x))
}

// hide returns v, invisible to escape analysis.
func hide(v *interface{}) interface{} { return *(*interface{})(noescape(unsafe.Pointer(v))) }

// hideAll returns vs, invisible to escape analysis.
func hideAll(vs *[]interface{}) []interface{} {
	return *(*[]interface{})(noescape(unsafe.Pointer(vs)))
}

// quiet counts the allocation measurements running (Quietly): while one
// runs, no stream event is sampled (sample).
var quiet int32

// Quietly returns allocsPerRun (testing.AllocsPerRun, to which the
// instrumenter redirects the program's calls) such that no activation
// records stream events while it measures: the records' own allocations
// (values read through reflect, buffers growing) would count as the
// measured function's, and a test asserting that it allocates nothing
// would fail instrumented only. Statements and branches are still
// counted: counters allocate nothing. What the program runs meanwhile
// goes unrecorded, as a call not sampled does.
func Quietly(allocsPerRun func(int, func()) float64) func(int, func()) float64 {
	return func(runs int, f func()) float64 {
		atomic.AddInt32(&quiet, 1)
		defer atomic.AddInt32(&quiet, -1)
		return allocsPerRun(runs, f)
	}
}

// Enter records the entry of function site with its receiver and
// parameter values, and returns the caller's test state; key identifies
// the function for linking it to the call site that called it.
//
// Past callLimit calls of one function, only calls whose number is a
// power of two are recorded, so hot functions cannot flood the trace; the
// muted state returned then records no exit.
func Enter(site, key uint32, vals ...interface{}) *T {
	vals = hideAll(&vals)
	t := Cur()
	if traceDir == "" {
		return t
	}
	st := gs()
	from := st.claim(key)
	if t.Mute || !sample(site) {
		return t.muted
	}
	unclaimed := from == 0 && st.empty()
	mu.Lock()
	g := w.goroutine()
	if unclaimed {
		from = spawnedLocked(t, g, key)
	}
	w.shallow = !deepSite(site)
	w.encode(true, vals...)
	w.head('E', t, g, site)
	w.uv(from)
	w.scratch()
	w.maybeFlush()
	mu.Unlock()
	return t
}

// Exit records the exit of function site with its result values, then
// (when the function has parameters) the receiver's and parameters' final
// values; it runs deferred. A function left by a panic gets a 'J' record.
func (t *T) Exit(site uint32, vals ...interface{}) {
	if !t.Mute {
		t.exit(site, &vals)
	}
}

//go:noinline
func (t *T) exit(site uint32, vals *[]interface{}) { t.exitRecord(site, vals, false) }

// ExitAt records the exit of function site like Exit, with the values
// ptrs point to (the results, then the receiver's and parameters' final
// values; rt.Blank for one not recorded): it is deferred as it is,
// "defer t.ExitAt(site, &r0, &p)", so the function gets no literal.
func (t *T) ExitAt(site uint32, ptrs ...interface{}) {
	if !t.Mute {
		t.exitAt(site, &ptrs)
	}
}

//go:noinline
func (t *T) exitAt(site uint32, ptrs *[]interface{}) { t.exitRecord(site, ptrs, true) }

// exitRecord writes an exit record (J when the function was left by a
// panic) with the values vals holds, or points to when byAddr.
func (t *T) exitRecord(site uint32, vals *[]interface{}, byAddr bool) {
	if traceDir == "" {
		return
	}
	tag := byte('X')
	if exitPanicking() {
		tag = 'J'
	}
	mu.Lock()
	w.shallow = !deepSite(site)
	if byAddr {
		w.encodeAt(hideAll(vals))
	} else {
		w.encode(true, hideAll(vals)...)
	}
	w.head(tag, t, w.goroutine(), site)
	w.scratch()
	w.maybeFlush()
	mu.Unlock()
}

// exitPanicking reports whether the deferred exit of the caller's caller
// runs because of a panic: whether runtime.gopanic called it, directly (a
// deferred method value) or through the function literal the
// instrumenter defers. A function that returns normally while a panic
// unwinds further up (in a deferred function) is not panicking.
func exitPanicking() bool {
	if panicCalibrated && panicWord() == 0 {
		return false // no panic on this goroutine: the common case, cheap
	}
	var pcs [8]uintptr
	n := runtime.Callers(4, pcs[:]) // above Callers, exitPanicking, exitRecord and exit
	lit := false
	for _, pc := range pcs[:n] {
		switch pcClass(pc) {
		case pcPanic:
			return true
		case pcRT:
			// Exit itself, called by a deferred method value.
		case pcLit:
			if lit {
				return false
			}
			lit = true
		default:
			return false
		}
	}
	return false
}

// panicCalibrated tells that panicWord reads the goroutine's panic in
// progress: zero outside panics, non-zero in a function deferred by one.
var panicCalibrated = calibratePanic()

func calibratePanic() (ok bool) {
	if !havePanicWord || panicWord() != 0 {
		return false
	}
	func() {
		defer func() {
			ok = panicWord() != 0
			recover()
		}()
		panic("calibrate")
	}()
	return ok && panicWord() == 0
}

// Classes of program counters, for exitPanicking.
const (
	pcOther = iota + 1
	pcPanic // in runtime.gopanic
	pcRT    // in rt
	pcLit   // in a function literal (rt's functions inlined into it aside)
)

var (
	exitMu    sync.Mutex
	exitClass = map[uintptr]uint8{} // guarded by exitMu
)

// pcClass classifies pc by the outermost function at it, once per pc, so
// that a recorded exit allocates nothing after the first of its kind.
func pcClass(pc uintptr) uint8 {
	exitMu.Lock()
	c, ok := exitClass[pc]
	exitMu.Unlock()
	if ok {
		return c
	}
	frames := runtime.CallersFrames([]uintptr{pc})
	var name string
	for {
		f, more := frames.Next()
		name = f.Function
		if !more {
			break
		}
	}
	switch {
	case name == "runtime.gopanic":
		c = pcPanic
	case strings.HasPrefix(name, rtPkg):
		c = pcRT
	case isFuncLit(name):
		c = pcLit
	default:
		c = pcOther
	}
	exitMu.Lock()
	exitClass[pc] = c
	exitMu.Unlock()
	return c
}

// rtPkg prefixes the names of rt's functions, as the runtime reports them.
var rtPkg = reflect.TypeOf(T{}).PkgPath() + "."

// isFuncLit reports whether a function name is a function literal's
// (pkg.F.func1, pkg.F.func1.2).
func isFuncLit(name string) bool {
	i := strings.LastIndex(name, ".func")
	if i < 0 {
		return false
	}
	for _, c := range name[i+len(".func"):] {
		if (c < '0' || c > '9') && c != '.' {
			return false
		}
	}
	return true
}

// head writes a stream record's tag, test, goroutine and site.
func (w *writer) head(tag byte, t *T, g uint64, site uint32) {
	w.byte(tag)
	w.uv(uint64(t.id))
	w.uv(g)
	w.uv(uint64(site))
	w.lastT, w.lastG = uint64(t.id), g
}

// short writes a step or decision record: the short form (tag + 32, the
// lower-case letter, and the site) when the test and goroutine are those
// of the previous stream record.
func (w *writer) short(tag byte, t *T, g uint64, site uint32) {
	if uint64(t.id) == w.lastT && g == w.lastG {
		w.byte(tag + 'a' - 'A')
		w.uv(uint64(site))
		return
	}
	w.head(tag, t, g, site)
}

// step writes a step or decision record at site, after on let it
// through.
//
//go:noinline
func (t *T) step(tag byte, site uint32) {
	if !sample(site) {
		return
	}
	mu.Lock()
	w.short(tag, t, w.goroutine(), site)
	w.maybeFlush()
	mu.Unlock()
}

// K records the execution of statement site and returns t.
func (t *T) K(site uint32) *T {
	if !t.Mute {
		if noInline && skipped(site) {
			return t
		}
		t.step('K', site)
	}
	return t
}

// D records the outcome of a two-way decision (site: true, site+1:
// false) and returns c.
func (t *T) D(site uint32, c bool) bool {
	if !c {
		site++
	}
	if !t.Mute {
		if noInline && skipped(site) {
			return c
		}
		t.step('D', site)
	}
	return c
}

// Dk records the decision outcome site (a case clause taken, a range
// iteration).
func (t *T) Dk(site uint32) {
	if !t.Mute {
		if noInline && skipped(site) {
			return
		}
		t.step('D', site)
	}
}

// rec writes a stream record with one value; the caller sampled it.
func (t *T) rec(tag byte, site uint32, x interface{}) {
	mu.Lock()
	w.encode(false, x)
	w.head(tag, t, w.goroutine(), site)
	w.scratch()
	if tag == 'R' || tag == 'W' {
		w.uv(locNone)
	}
	w.maybeFlush()
	mu.Unlock()
}

// Location kinds, as trace defines them.
const (
	locNone = 0
	locAddr = 1
	locElem = 2
	locKey  = 3
)

// loc is where a read or write happened.
type loc struct {
	kind        uint64
	addr, base  uintptr
	index, size uint64
}

// recAt writes a read or write record with one value and its location;
// the caller sampled it.
func (t *T) recAt(tag byte, site uint32, x interface{}, l loc, key interface{}) {
	mu.Lock()
	w.encode(false, x)
	if l.kind == locKey {
		// The key's type record must precede the record too.
		w.vals.uv(locKey)
		w.vals.uv(uint64(l.base))
		w.vals.value(key)
	}
	w.head(tag, t, w.goroutine(), site)
	w.scratch()
	switch l.kind {
	case locAddr:
		w.uv(locAddr)
		w.uv(uint64(l.addr))
	case locElem:
		w.uv(locElem)
		w.uv(uint64(l.base))
		w.uv(l.index)
		w.uv(l.size)
	}
	w.maybeFlush()
	mu.Unlock()
}

// integer is what indexes an array or slice.
type integer interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr
}

func addrOf(p unsafe.Pointer) uintptr { return uintptr(p) }

// elem returns the location of s[i], after the caller indexed it.
func elem[S ~[]E, E any, I integer](s S, i I) loc {
	var z E
	base := *(*uintptr)(unsafe.Pointer(&s))
	return loc{kind: locElem, base: base, index: uint64(i), size: uint64(unsafe.Sizeof(z))}
}

// The entry points below are small enough to be inlined: in a muted
// activation (a call of a hot function not sampled) an event costs one
// test of t.Mute; otherwise the slow path samples the site and boxes the
// value.
//
// Compiled without inlining (noInline: an analysis's build), each of them
// is a call, and so would be each of the slow path's: an event a sampled
// activation's site skips (see on) would cost three calls. So they skip
// it themselves, the generic ones with on's test written out (they are
// instantiated in the instrumented package, where no call is inlined),
// the others through skipped, inlined into them in rt's own compile.

// RA records the read of the storage at p and returns its value: a field
// (p.f becomes RA(t, site, &p.f)) or a dereference.
func RA[V any](t *T, site uint32, p *V) V {
	if !t.Mute {
		if noInline {
			if !raceMode && atomic.LoadInt32(&quiet) == 0 && site < uint32(len(calls)) && calls[site] != 0 {
				calls[site]--
				return *p
			}
		}
		atSlow(t, 'R', site, p)
	}
	return *p
}

//go:noinline
func atSlow[V any](t *T, tag byte, site uint32, p *V) {
	if !sample(site) {
		return
	}
	x := interface{}(*p)
	t.recAt(tag, site, hide(&x), loc{kind: locAddr, addr: addrOf(noescape(unsafe.Pointer(p)))}, nil)
}

// RE records the read of s[i] and returns it.
func RE[S ~[]E, E any, I integer](t *T, site uint32, s S, i I) E {
	if !t.Mute {
		if noInline {
			if !raceMode && atomic.LoadInt32(&quiet) == 0 && site < uint32(len(calls)) && calls[site] != 0 {
				calls[site]--
				return s[i]
			}
		}
		elemSlow(t, 'R', site, s, i)
	}
	return s[i]
}

//go:noinline
func elemSlow[S ~[]E, E any, I integer](t *T, tag byte, site uint32, s S, i I) {
	if !sample(site) {
		return
	}
	x := interface{}(s[i])
	t.recAt(tag, site, hide(&x), elem(s, i), nil)
}

// RK records the read of m[k] and returns it.
func RK[M ~map[K]V, K comparable, V any](t *T, site uint32, m M, k K) V {
	if !t.Mute {
		if noInline {
			if !raceMode && atomic.LoadInt32(&quiet) == 0 && site < uint32(len(calls)) && calls[site] != 0 {
				calls[site]--
				return m[k]
			}
		}
		keySlow(t, 'R', site, m, k)
	}
	return m[k]
}

//go:noinline
func keySlow[M ~map[K]V, K comparable, V any](t *T, tag byte, site uint32, m M, k K) {
	if !sample(site) {
		return
	}
	x, kx := interface{}(m[k]), interface{}(k)
	t.recAt(tag, site, hide(&x), loc{kind: locKey, base: *(*uintptr)(unsafe.Pointer(&m))}, hide(&kx))
}

// WA records the value written to the storage at p (a variable, a field,
// a dereference), after the statement that wrote it.
func WA[V any](t *T, site uint32, p *V) {
	if !t.Mute {
		if noInline {
			if !raceMode && atomic.LoadInt32(&quiet) == 0 && site < uint32(len(calls)) && calls[site] != 0 {
				calls[site]--
				return
			}
		}
		atSlow(t, 'W', site, p)
	}
}

// WE records the value written to s[i].
func WE[S ~[]E, E any, I integer](t *T, site uint32, s S, i I) {
	if !t.Mute {
		if noInline {
			if !raceMode && atomic.LoadInt32(&quiet) == 0 && site < uint32(len(calls)) && calls[site] != 0 {
				calls[site]--
				return
			}
		}
		elemSlow(t, 'W', site, s, i)
	}
}

// WK records the value written to m[k].
func WK[M ~map[K]V, K comparable, V any](t *T, site uint32, m M, k K) {
	if !t.Mute {
		if noInline {
			if !raceMode && atomic.LoadInt32(&quiet) == 0 && site < uint32(len(calls)) && calls[site] != 0 {
				calls[site]--
				return
			}
		}
		keySlow(t, 'W', site, m, k)
	}
}

// R records the read of a variable at site and returns its value.
func R[V any](t *T, site uint32, v V) V {
	if !t.Mute {
		if noInline {
			if !raceMode && atomic.LoadInt32(&quiet) == 0 && site < uint32(len(calls)) && calls[site] != 0 {
				calls[site]--
				return v
			}
		}
		valSlow(t, 'R', site, v)
	}
	return v
}

//go:noinline
func valSlow[V any](t *T, tag byte, site uint32, v V) {
	if !sample(site) {
		return
	}
	x := interface{}(v)
	t.rec(tag, site, hide(&x))
}

// W records the value written at site and returns it.
func W[V any](t *T, site uint32, v V) V {
	if !t.Mute {
		if noInline {
			if !raceMode && atomic.LoadInt32(&quiet) == 0 && site < uint32(len(calls)) && calls[site] != 0 {
				calls[site]--
				return v
			}
		}
		valSlow(t, 'W', site, v)
	}
	return v
}

// Wv records the value written at site (a statement after the write).
func (t *T) Wv(site uint32, v interface{}) {
	if !t.Mute {
		t.wv(site, v)
	}
}

//go:noinline
func (t *T) wv(site uint32, v interface{}) {
	if sample(site) {
		t.rec('W', site, hide(&v))
	}
}

// Panic records a panic call's value and returns it for the panic.
func Panic[V any](t *T, site uint32, v V) V {
	if !t.Mute {
		valSlow(t, 'P', site, v)
	}
	return v
}

// Recovered records what a recover call returned, and returns it: the
// recover call itself stays in the deferred function.
func (t *T) Recovered(site uint32, v interface{}) interface{} {
	if !t.Mute {
		// A recovery is always recorded: a panic recorded without it
		// would look like the test's failure.
		if v != nil || sample(site) {
			t.rec('Q', site, v)
		}
	}
	return v
}

// Call stacks (gstate.go): a call site pushes its site and the function
// it calls; the callee's entry claims it when it names the callee (or no
// callee) and records the call site; the call site's return pops it and
// records the return when the call was recorded.

// C records a call at site to the function key (0: not known statically)
// before its arguments are evaluated.
func (t *T) C(site, key uint32) *T {
	if !t.Mute {
		t.call(site, key)
	}
	return t
}

//go:noinline
func (t *T) call(site, key uint32) {
	if traceDir == "" {
		return
	}
	rec := sample(site)
	gs().push(pending{site: site, key: key, rec: rec})
	if rec {
		mu.Lock()
		w.head('C', t, w.goroutine(), site)
		w.maybeFlush()
		mu.Unlock()
	}
}

// returned records the return of the call at site, when its call record
// was written.
func (t *T) returned(site uint32, vals []interface{}) {
	if traceDir == "" || !gs().pop(site) {
		return
	}
	t.writeReturn(site, vals)
}

// writeReturn writes the return record of the call at site.
func (t *T) writeReturn(site uint32, vals []interface{}) {
	mu.Lock()
	w.shallow = !deepSite(site)
	w.encode(true, vals...)
	w.head('V', t, w.goroutine(), site)
	w.scratch()
	w.maybeFlush()
	mu.Unlock()
}

//go:noinline
func (t *T) returnedAll(site uint32, vals *[]interface{}) { t.returned(site, hideAll(vals)) }

// Ret records the return of the call at site with its result, and returns
// the result: Ret(t.C(site, key), site, f(x)).
func Ret[V any](t *T, site uint32, v V) V {
	if !t.Mute {
		retSlow(t, site, v)
	}
	return v
}

//go:noinline
func retSlow[V any](t *T, site uint32, v V) {
	if traceDir == "" || !gs().pop(site) {
		return
	}
	x := []interface{}{v}
	t.writeReturn(site, hideAll(&x))
}

// V records the return of the call at site, after the statement that made
// it, with the values it assigned.
func (t *T) V(site uint32, vals ...interface{}) {
	if !t.Mute {
		t.returnedAll(site, &vals)
	}
}

var spawns uint64 // guarded by mu

// Go records a go statement at site and returns the spawn number the new
// goroutine announces with Started.
func (t *T) Go(site uint32) uint64 {
	if traceDir == "" {
		return 0
	}
	mu.Lock()
	spawns++
	n := spawns
	w.head('G', t, w.goroutine(), site)
	w.uv(n)
	w.maybeFlush()
	mu.Unlock()
	return n
}

// Started records that the goroutine started by the go statement at site
// with spawn number n runs; call (> 0) is the go statement's call site + 1,
// which the function literal's entry then names.
func Started(site uint32, n uint64, call uint32) {
	if traceDir == "" {
		return
	}
	t := Cur()
	st := gs()
	st.reset()
	if call > 0 {
		st.push(pending{site: call - 1, spawn: true})
	}
	mu.Lock()
	w.head('H', t, w.goroutine(), site)
	w.uv(n)
	w.maybeFlush()
	mu.Unlock()
}

// spawn is a go statement calling a named function whose goroutine has
// not entered it yet.
type spawn struct {
	n          uint64
	site, call uint32
	key        uint32
}

var spawnq []spawn // guarded by mu; oldest first, at most maxSpawns

const maxSpawns = 256

// GoF records a go statement at site calling the function key (known
// statically) through the call site call: the first entry of key that no
// call site claims records the child's start and names call.
func (t *T) GoF(site, call, key uint32) {
	if traceDir == "" {
		return
	}
	mu.Lock()
	spawns++
	n := spawns
	w.head('G', t, w.goroutine(), site)
	w.uv(n)
	if len(spawnq) == maxSpawns {
		spawnq = spawnq[1:]
	}
	spawnq = append(spawnq, spawn{n, site, call, key})
	w.maybeFlush()
	mu.Unlock()
}

// spawnedLocked is called by an entry of key no call site claimed, on a
// goroutine with no pending call sites: when a go statement started key
// and its goroutine has not started yet, this is it. It records the start
// and returns the go statement's call site + 1.
func spawnedLocked(t *T, g uint64, key uint32) uint64 {
	if key == 0 {
		return 0
	}
	for i, s := range spawnq {
		if s.key == key {
			spawnq = append(spawnq[:i], spawnq[i+1:]...)
			w.head('H', t, g, s.site)
			w.uv(s.n)
			return uint64(s.call) + 1
		}
	}
	return 0
}

var chanIDs = map[uintptr]uint64{} // guarded by mu

// chanRecLocked writes a send or receive record.
func (t *T) chanRec(tag byte, site uint32, ch interface{}, x interface{}) {
	if t.Mute || !sample(site) {
		return
	}
	var addr uintptr
	if v := reflect.ValueOf(ch); v.Kind() == reflect.Chan {
		addr = v.Pointer()
	}
	mu.Lock()
	id, ok := chanIDs[addr]
	if !ok {
		id = uint64(len(chanIDs) + 1)
		chanIDs[addr] = id
	}
	w.encode(false, x)
	w.head(tag, t, w.goroutine(), site)
	w.uv(id)
	w.scratch()
	w.maybeFlush()
	mu.Unlock()
}

// Send records the value sent on ch at site and returns it.
func Send[C, V any](t *T, site uint32, ch C, v V) V {
	c, x := interface{}(ch), interface{}(v)
	t.chanRec('S', site, hide(&c), hide(&x))
	return v
}

// Recv records the value received from ch at site and returns it.
func Recv[C, V any](t *T, site uint32, ch C, v V) V {
	c, x := interface{}(ch), interface{}(v)
	t.chanRec('U', site, hide(&c), hide(&x))
	return v
}

// Sent records a send of v on ch at site, before the send statement
// (a constant or converted value) or at the start of the select case
// that sent it.
func (t *T) Sent(site uint32, ch, v interface{}) {
	t.chanRec('S', site, hide(&ch), hide(&v))
}

// Recvd records a receive from ch at site, after the statement that made
// it (comma-ok receives, select cases, range over a channel).
func (t *T) Recvd(site uint32, ch, v interface{}) {
	t.chanRec('U', site, hide(&ch), hide(&v))
}

// blank stands for a value not recorded (an operand _): it is encoded as
// unknown.
type blank struct{}

// Blank is passed where an assigned operand is _.
var Blank interface{} = blank{}
