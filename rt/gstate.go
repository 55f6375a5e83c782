package rt

import (
	"sync"
	"sync/atomic"
	"unsafe"
)

// Per-goroutine state: the stack of pending call sites that links a call
// site to the entry of the function it calls. A goroutine finds its state
// without a lock, by its runtime descriptor's address (getg) in an
// open-addressed table; only that goroutine touches the state while it
// runs, and a goroutine that later reuses the descriptor inherits it,
// as the goroutine numbers of the trace already do.

// pending is a call site waiting for its callee's entry or its return:
// key is the function it calls (0: not known statically), claimed is set
// when that function's entry named the call site, rec when the call
// record was written (its return record is written then too). A go
// statement's call site (spawn) has no return: the entry that claims it
// removes it.
type pending struct {
	site, key           uint32
	claimed, rec, spawn bool
}

// gstate is one goroutine's state.
type gstate struct {
	g     uintptr
	stack []pending
}

const (
	gBits   = 14
	gProbes = 8
	// maxStack bounds a stack that panics left entries on (call sites
	// whose return never ran); the oldest half goes when it is reached.
	maxStack = 1 << 14
)

var gtab [1 << gBits]unsafe.Pointer // *gstate, set once under mu

var gextra = map[uintptr]*gstate{} // guarded by mu; when gtab's probes are full

// gs returns the running goroutine's state.
func gs() *gstate {
	g := getg()
	h := uint32((uint64(g) * 0x9E3779B97F4A7C15) >> (64 - gBits))
	for i := uint32(0); i < gProbes; i++ {
		p := (*gstate)(atomic.LoadPointer(&gtab[(h+i)&(1<<gBits-1)]))
		if p == nil {
			break
		}
		if p.g == g {
			return p
		}
	}
	return gsSlow(g, h)
}

func gsSlow(g uintptr, h uint32) *gstate {
	mu.Lock()
	defer mu.Unlock()
	for i := uint32(0); i < gProbes; i++ {
		slot := &gtab[(h+i)&(1<<gBits-1)]
		p := (*gstate)(atomic.LoadPointer(slot))
		if p == nil {
			s := &gstate{g: g}
			atomic.StorePointer(slot, unsafe.Pointer(s))
			return s
		}
		if p.g == g {
			return p
		}
	}
	s, ok := gextra[g]
	if !ok {
		s = &gstate{g: g}
		gextra[g] = s
	}
	return s
}

// gmu orders the operations on goroutine states under -race: a
// goroutine that reuses a dead one's descriptor inherits its state, with
// no synchronization the race detector would see otherwise.
var gmu sync.Mutex

// reset empties the stack: a goroutine starts.
func (s *gstate) reset() {
	if raceMode {
		gmu.Lock()
		defer gmu.Unlock()
	}
	s.stack = s.stack[:0]
}

// empty reports whether no call site is pending.
func (s *gstate) empty() bool {
	if raceMode {
		gmu.Lock()
		defer gmu.Unlock()
	}
	return len(s.stack) == 0
}

// push adds a call site to the stack.
func (s *gstate) push(p pending) {
	if raceMode {
		gmu.Lock()
		defer gmu.Unlock()
	}
	if len(s.stack) >= maxStack {
		n := copy(s.stack, s.stack[len(s.stack)/2:])
		s.stack = s.stack[:n]
	}
	s.stack = append(s.stack, p)
}

// claim is called by the entry of function key: when the innermost
// pending call site is unclaimed and calls key (or an unknown function),
// the entry claims it and gets its site + 1; otherwise 0.
func (s *gstate) claim(key uint32) uint64 {
	if raceMode {
		gmu.Lock()
		defer gmu.Unlock()
	}
	n := len(s.stack)
	if n == 0 {
		return 0
	}
	top := &s.stack[n-1]
	if top.claimed || top.key != 0 && top.key != key {
		return 0
	}
	site := top.site
	if top.spawn {
		s.stack = s.stack[:n-1]
	} else {
		top.claimed = true
	}
	return uint64(site) + 1
}

// pop removes the innermost pending call of site, and any above it (left
// by a panic), and reports whether its call record was written.
func (s *gstate) pop(site uint32) bool {
	if raceMode {
		gmu.Lock()
		defer gmu.Unlock()
	}
	for i := len(s.stack) - 1; i >= 0; i-- {
		if s.stack[i].site == site {
			rec := s.stack[i].rec
			s.stack = s.stack[:i]
			return rec
		}
	}
	return false
}
