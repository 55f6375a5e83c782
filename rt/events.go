package rt

import (
	"reflect"
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

// sampled reports whether the event of site is to be recorded: past
// callLimit events of one site, only those numbered by powers of two.
func sampled(site uint32) bool {
	if callLimit == 0 || int(site) >= len(calls) {
		return true
	}
	n := atomic.AddUint32(&calls[site], 1)
	return n <= callLimit || n&(n-1) == 0
}

// calls counts each site's events, for sampling.
var calls []uint32

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
	if !sampled(site) {
		mu.Lock()
		popCallLocked(key)
		mu.Unlock()
		return t.muted
	}
	mu.Lock()
	g := w.goroutine()
	from := popCallLocked(key)
	if from == 0 {
		from = spawnedLocked(t, g, key)
	}
	w.encode(true, vals...)
	w.head('E', t, g, site)
	w.uv(from)
	w.scratch()
	w.maybeFlush()
	mu.Unlock()
	return t
}

// Exit records the exit of function site with its result values; it runs
// deferred.
func (t *T) Exit(site uint32, vals ...interface{}) {
	vals = hideAll(&vals)
	if t.mute || traceDir == "" {
		return
	}
	mu.Lock()
	w.encode(true, vals...)
	w.head('X', t, w.goroutine(), site)
	w.scratch()
	w.maybeFlush()
	mu.Unlock()
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

// step writes a step or decision record at site.
func (t *T) step(tag byte, site uint32) {
	if traceDir == "" || !sampled(site) {
		return
	}
	mu.Lock()
	w.short(tag, t, w.goroutine(), site)
	w.maybeFlush()
	mu.Unlock()
}

// K records the execution of statement site and returns t:
// t.K(site).Pass(cond) records an "else if" before its condition runs.
func (t *T) K(site uint32) *T {
	t.step('K', site)
	return t
}

// Pass returns c.
func (t *T) Pass(c bool) bool { return c }

// D records the outcome of a two-way decision (site: true, site+1:
// false) and returns c.
func (t *T) D(site uint32, c bool) bool {
	if c {
		t.step('D', site)
	} else {
		t.step('D', site+1)
	}
	return c
}

// Dk records the decision outcome site (a case clause taken, a range
// iteration).
func (t *T) Dk(site uint32) { t.step('D', site) }

// rec writes a stream record with one value.
func (t *T) rec(tag byte, site uint32, x interface{}) {
	if traceDir == "" || !sampled(site) {
		return
	}
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

// recAt writes a read or write record with one value and its location.
func (t *T) recAt(tag byte, site uint32, x interface{}, l loc, key interface{}) {
	if traceDir == "" || !sampled(site) {
		return
	}
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

// RA records the read of the storage at p and returns its value: a field
// (p.f becomes RA(t, site, &p.f)) or a dereference.
func RA[V any](t *T, site uint32, p *V) V {
	v := *p
	x := interface{}(v)
	t.recAt('R', site, hide(&x), loc{kind: locAddr, addr: addrOf(noescape(unsafe.Pointer(p)))}, nil)
	return v
}

// RE records the read of s[i] and returns it.
func RE[S ~[]E, E any, I integer](t *T, site uint32, s S, i I) E {
	v := s[i]
	x := interface{}(v)
	t.recAt('R', site, hide(&x), elem(s, i), nil)
	return v
}

// RK records the read of m[k] and returns it.
func RK[M ~map[K]V, K comparable, V any](t *T, site uint32, m M, k K) V {
	v := m[k]
	x, kx := interface{}(v), interface{}(k)
	t.recAt('R', site, hide(&x), loc{kind: locKey, base: *(*uintptr)(unsafe.Pointer(&m))}, hide(&kx))
	return v
}

// WA records the value written to the storage at p (a variable, a field,
// a dereference), after the statement that wrote it.
func WA[V any](t *T, site uint32, p *V) {
	x := interface{}(*p)
	t.recAt('W', site, hide(&x), loc{kind: locAddr, addr: addrOf(noescape(unsafe.Pointer(p)))}, nil)
}

// WE records the value written to s[i].
func WE[S ~[]E, E any, I integer](t *T, site uint32, s S, i I) {
	x := interface{}(s[i])
	t.recAt('W', site, hide(&x), elem(s, i), nil)
}

// WK records the value written to m[k].
func WK[M ~map[K]V, K comparable, V any](t *T, site uint32, m M, k K) {
	x, kx := interface{}(m[k]), interface{}(k)
	t.recAt('W', site, hide(&x), loc{kind: locKey, base: *(*uintptr)(unsafe.Pointer(&m))}, hide(&kx))
}

// R records the read of a variable at site and returns its value.
func R[V any](t *T, site uint32, v V) V {
	x := interface{}(v)
	t.rec('R', site, hide(&x))
	return v
}

// W records the value written at site and returns it.
func W[V any](t *T, site uint32, v V) V {
	x := interface{}(v)
	t.rec('W', site, hide(&x))
	return v
}

// Wv records the value written at site (a statement after the write).
func (t *T) Wv(site uint32, v interface{}) { t.rec('W', site, hide(&v)) }

// Panic records a panic call's value and returns it for the panic.
func Panic[V any](t *T, site uint32, v V) V {
	x := interface{}(v)
	t.rec('P', site, hide(&x))
	return v
}

// Recovered records what a recover call returned, and returns it: the
// recover call itself stays in the deferred function.
func (t *T) Recovered(site uint32, v interface{}) interface{} {
	t.rec('Q', site, v)
	return v
}

// Call stacks: a call site pushes its site and the function it calls
// (key, 0 when dynamic); the callee's Enter pops the top entry when it
// names the callee (or no callee) and records the call site; the call
// site's return record pops its own entry when the callee did not.
type pending struct {
	site, key uint32
}

var stacks = map[uint64][]pending{} // guarded by mu

func popCallLocked(key uint32) uint64 {
	g := w.goroutine()
	st := stacks[g]
	if len(st) == 0 {
		return 0
	}
	top := st[len(st)-1]
	if top.key != 0 && top.key != key {
		return 0
	}
	stacks[g] = st[:len(st)-1]
	return uint64(top.site) + 1
}

// C records a call at site to the function key (0: not known statically)
// before its arguments are evaluated.
func (t *T) C(site, key uint32) *T {
	if traceDir == "" {
		return t
	}
	mu.Lock()
	g := w.goroutine()
	stacks[g] = append(stacks[g], pending{site, key})
	if sampled(site) {
		w.head('C', t, g, site)
		w.maybeFlush()
	}
	mu.Unlock()
	return t
}

// returned records the return of the call at site.
func (t *T) returned(site uint32, vals []interface{}) {
	mu.Lock()
	g := w.goroutine()
	if st := stacks[g]; len(st) > 0 && st[len(st)-1].site == site {
		stacks[g] = st[:len(st)-1]
	}
	if calls == nil || int(site) >= len(calls) || callLimit == 0 || atomic.LoadUint32(&calls[site]) <= callLimit || isPow2(atomic.LoadUint32(&calls[site])) {
		w.encode(true, vals...)
		w.head('V', t, g, site)
		w.scratch()
		w.maybeFlush()
	}
	mu.Unlock()
}

func isPow2(n uint32) bool { return n&(n-1) == 0 }

// Ret records the return of the call at site with its result, and returns
// the result: Ret(t.C(site, key), site, f(x)).
func Ret[V any](t *T, site uint32, v V) V {
	if traceDir != "" {
		x := []interface{}{v}
		t.returned(site, hideAll(&x))
	}
	return v
}

// V records the return of the call at site, after the statement that made
// it, with the values it assigned.
func (t *T) V(site uint32, vals ...interface{}) {
	vals = hideAll(&vals)
	if traceDir != "" {
		t.returned(site, vals)
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
	mu.Lock()
	g := w.goroutine()
	w.head('H', t, g, site)
	w.uv(n)
	if call > 0 {
		stacks[g] = append(stacks[g][:0], pending{call - 1, 0})
	}
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

// spawnedLocked is called by an entry of key no call site claimed: when a
// go statement started key and its goroutine has not started yet, this is
// it. It records the start and returns the go statement's call site + 1.
func spawnedLocked(t *T, g uint64, key uint32) uint64 {
	if key == 0 || len(stacks[g]) > 0 {
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
	if traceDir == "" || !sampled(site) {
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
