package invariant

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// op is one pattern of the library; docs/mine.md lists them with the
// formula of their chance of holding by accident.
type op uint8

const (
	opGT0      op = iota // x > 0
	opGE0                // x >= 0
	opLT0                // x < 0
	opLE0                // x <= 0
	opNE0                // x != 0
	opNonEmpty           // len(x) > 0 (s != "" for strings)
	opOneOf              // x == c, or x == c1 || x == c2 (|| x == c3)
	opNil                // x == nil
	opNonNil             // x != nil
	opRange              // lo <= x && x <= hi
	opEq                 // x == y
	opLT                 // x < y
	opLE                 // x <= y
	opGT                 // x > y
	opGE                 // x >= y
	opNE                 // x != y
	opSq                 // x == y*y
	opOff                // x == y + c
	opStrEq              // x == y (strings)
	opPrefix             // strings.HasPrefix(x, y)
	opSuffix             // strings.HasSuffix(x, y)
	opContains           // strings.Contains(x, y)
	opAdd                // x == y + z
	opSub                // x == y - z
	opMul                // x == y * z
	opDiv                // x == y / z
	opSum                // x == sum(s): s a slice of numbers recorded whole
	opSorted             // sorted(s): the elements in non-decreasing order
	opAllGT0             // all(s) > 0: every element
	opAllGE0             // all(s) >= 0
	opAllLT0             // all(s) < 0
	opAllLE0             // all(s) <= 0
	opAllNE0             // all(s) != 0
	opUser               // a user property
)

// MaxElems is how many elements of a slice the trace records (trace
// format 4): the aggregates sum(s), sorted(s) and all(s) are computed
// only over slices of at most MaxElems elements, whose elements are all
// recorded, and never over a truncated slice.
const MaxElems = 8

// aggregate reports whether o is a pattern over the elements of a slice,
// and which of the fact's variables is the slice.
func aggregate(o op) (slice int, ok bool) {
	switch o {
	case opSum:
		return 1, true
	case opSorted, opAllGT0, opAllGE0, opAllLT0, opAllLE0, opAllNE0:
		return 0, true
	}
	return 0, false
}

// Patterns are the property templates of the library, with the
// metavariables X, Y, Z and constants C; they are instantiated over every
// type-compatible combination of a function's variables.
var Patterns = []string{
	"X > 0", "X >= 0", "X < 0", "X <= 0", "X != 0", "len(X) > 0", `X != ""`,
	"X == C", "X == C1 || X == C2 || X == C3", "X == nil", "X != nil", "C1 <= X && X <= C2",
	"X == Y", "X < Y", "X <= Y", "X > Y", "X >= Y", "X != Y", "X == Y*Y", "X == Y + C",
	"strings.HasPrefix(X, Y)", "strings.HasSuffix(X, Y)", "strings.Contains(X, Y)",
	"X == Y + Z", "X == Y - Z", "X == Y * Z", "X == Y / Z", "X < Y && Y < Z (chains)",
	"X == sum(S)", "sorted(S)", "all(S) > 0", "all(S) >= 0", "all(S) < 0", "all(S) <= 0", "all(S) != 0",
}

// fact is a candidate invariant: a pattern over variables.
type fact struct {
	op     op
	v      [3]int // the variables, as many as the pattern takes
	n      int    // how many
	consts []cell // opOneOf: the values; opOff: the offset; opRange: min, max
	user   *Expr  // opUser: the instantiated property
	meta   []string
	elems  []int     // aggregates: the variables s[0], s[1]... of the slice
	whole  bool      // aggregates: every sample with the slice recorded its elements
	order  int       // among the candidates
	names  [3]string // meta's storage
	tally            // what the confidence formulas count, gathered while checking
}

// tally is what the chance of a fact holding by accident is computed
// from, gathered sample by sample while the fact holds (a fact that
// fails is dropped with it).
type tally struct {
	present    int      // samples where all the variables have a value
	slices     int      // aggregates: samples where the slice has a value
	limit      int      // tuples counted up to
	tuples     tupleSet // distinct tuples of the variables' values
	lo, hi     float64  // opNE0, opNE: the range of x (of x - y); sorted, all: of the elements
	rlo, rhi   int64    // opRange: the bounds atLo and atHi count
	atLo, atHi int      // opRange: samples at the minimum, at the maximum
	elemCount  int      // sorted, all: elements (adjacent pairs) of the distinct slices
}

// tupleSet is a set of tuples of values, by their hashes mixed into
// one word: a short list, then an open-addressing table.
type tupleSet struct {
	list  []uint64
	table []uint64 // 0: empty (a zero hash is stored as 1)
	n     int
}

func (t *tupleSet) len() int { return t.n }

// add adds the tuple of hashes k and reports whether it was new.
func (t *tupleSet) add(k [3]uint64) bool {
	h := (k[0]*0x9e3779b97f4a7c15 ^ k[1]) * 0xff51afd7ed558ccd
	h = (h ^ k[2] ^ h>>29) * 0xc4ceb9fe1a85ec53
	h ^= h >> 32
	if h == 0 {
		h = 1
	}
	if t.table == nil {
		for _, x := range t.list {
			if x == h {
				return false
			}
		}
		if len(t.list) < 16 {
			t.list = append(t.list, h)
			t.n++
			return true
		}
		t.table = make([]uint64, 64)
		for _, x := range t.list {
			t.insert(x)
		}
		t.list = nil
	}
	if !t.insert(h) {
		return false
	}
	t.n++
	if 2*t.n > len(t.table) {
		old := t.table
		t.table = make([]uint64, 2*len(old))
		for _, x := range old {
			if x != 0 {
				t.insert(x)
			}
		}
	}
	return true
}

// insert puts h in the table and reports whether it was not there.
func (t *tupleSet) insert(h uint64) bool {
	mask := uint64(len(t.table) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		switch t.table[i] {
		case h:
			return false
		case 0:
			t.table[i] = h
			return true
		}
	}
}

// maxDistinct bounds the distinct tuples counted for x != 0 and x != y,
// whose chance formula counts them all: past it the count stays there,
// which only makes the chance of holding by accident look larger.
const maxDistinct = 1 << 14

// survivors generates the candidates and returns those that hold in
// every sample, counting for each what its chance formula needs. The
// candidates are instantiated from what the first samples' variables
// are; when later samples narrow that (a variable of numbers takes a
// string), the candidates the narrower variables would not have had
// are dropped at the end, so that the result is the one of
// instantiating over all the samples at once.
func (m *miner) survivors() []*fact { return m.finish(m.start()) }

// finish feeds every sample to the candidates of c and returns those
// that held.
func (m *miner) finish(c *checking) []*fact {
	m.eachFirst(c.feed, c.again)
	c.join()
	if c.left > 0 {
		m.eachLater(c.feed, c.again)
	}
	return c.result()
}

// checking is a miner's candidates being checked sample by sample.
// Facts are grouped by the variables they read, and a sample is shown
// only the groups whose variables all have a value in it (a fact says
// nothing of the others): later samples, whose values were recorded
// without their parts, skip the facts over parts at once. The groups
// of each shape of sample are remembered.
type checking struct {
	m        *miner
	all      []*fact
	groups   []*factGroup
	shown    map[varMask][]*factGroup
	left     int // facts alive
	stats    bool
	streamed bool
	// deferred are the candidates over a variable constant in the
	// first samples that reduce drops when it stays constant (constant,
	// by variable): they are checked, over every sample, only when the
	// variable's x == c is not among the results (deferConstants).
	deferred []*fact
	constant []bool
	// followers are the candidates over variables equal, cell for cell,
	// to others in every one of the first samples (shareEqual): they
	// are not checked on those samples, and join gives them the state
	// of the candidate over the first variables of their classes.
	followers []follower
	want      map[factKey]bool // wanted's
	// below: the candidates over the first below variables alone are
	// set aside (by pack) and the preconditions' survivors adopted.
	below int
	pre   map[uint32]*fact // the preconditions' candidates
	aside map[uint32]*fact
	// By name, when the preconditions' miner is not a view (nameKey).
	preNames   map[string]bool
	asideNames map[string]*fact
	adopted    []*fact
}

// start instantiates the candidates.
func (m *miner) start() *checking {
	c := &checking{m: m, streamed: len(m.rest) > 0, stats: m.conf < 1, shown: map[varMask][]*factGroup{}}
	m.loose = c.streamed
	c.all = m.candidates()
	m.loose = false
	for i, f := range c.all {
		f.order = i
		if c.stats {
			f.limit = m.limit(f)
			f.lo, f.hi = math.Inf(1), math.Inf(-1)
		}
	}
	live := c.all
	if m.lazy && c.stats && !noSavings {
		live = c.deferConstants()
	}
	switch {
	case m.pre != nil && m.preByName:
		// Another miner: its variables are matched by name.
		for c.below < len(m.vars) && !m.vars[c.below].result {
			c.below++
		}
		c.preNames = make(map[string]bool, len(m.pre.all))
		for _, f := range m.pre.all {
			if f.op != opUser {
				c.preNames[m.pre.m.nameKey(f, false)] = true
			}
		}
	case m.pre != nil:
		c.below, c.pre = len(m.pre.m.vars), make(map[uint32]*fact, len(m.pre.all))
		for _, f := range m.pre.all {
			if f.op != opUser {
				c.pre[pack(f.op, f.v)] = f
			}
		}
	}
	live, c.deferred = c.setAside(live), c.setAside(c.deferred)
	if !noSavings {
		live = c.shareEqual(live)
	}
	c.groups = groupFacts(live)
	c.left = len(live)
	return c
}

// noSavings turns deferConstants and shareEqual off, for the tests.
var noSavings bool

// pack packs a fact's pattern and variables into a word (seven bits a
// variable).
func pack(o op, v [3]int) uint32 {
	return uint32(o)<<21 | uint32(v[0])<<14 | uint32(v[1])<<7 | uint32(v[2])
}

// Facts over the parameters alone. The postconditions' miner has the
// preconditions' variables first (a prefix view shares its rows), so
// a candidate of its over those variables alone that the
// preconditions' miner has too (the same pattern, variables and
// elements) is checked on the same cells by both: when they are mined
// together (survivorsShared) the postconditions' miner sets it aside
// and adopts the preconditions' survivor, which reduce needs beside the
// facts over the results (x == c hides the facts of x; equalities pick
// leaders; orderings imply others). The candidates can differ where a
// parameter's part changed: old(s[0]) is no element of s by name, s[0]
// is. User properties are checked by both (their text names the
// variables as each miner does).

// noAdopt makes the postconditions' miner check every candidate, for
// the tests.
var noAdopt bool

// setAside takes the candidates over the first c.below variables alone
// that the preconditions' miner has too (in c.pre) out of facts, into
// c.aside.
func (c *checking) setAside(facts []*fact) []*fact {
	if c.pre == nil && c.preNames == nil {
		return facts
	}
	if c.aside == nil && c.pre != nil {
		c.aside = make(map[uint32]*fact, len(c.pre))
	}
	if c.asideNames == nil && c.preNames != nil {
		c.asideNames = make(map[string]*fact, len(c.preNames))
	}
	out := facts[:0:0]
	for _, f := range facts {
		if f.op != opUser && c.onlyBelow(f) {
			if c.pre != nil {
				if g := c.pre[pack(f.op, f.v)]; g != nil && slices.Equal(f.elems, g.elems) {
					c.aside[pack(f.op, f.v)] = f
					continue
				}
			} else if k := c.m.nameKey(f, true); c.preNames[k] {
				c.asideNames[k] = f
				continue
			}
		}
		out = append(out, f)
	}
	return out
}

// nameKey identifies a candidate by its pattern and the names of its
// variables and elements, those of the postconditions' parameters
// (entry) named as the preconditions name them.
func (m *miner) nameKey(f *fact, entry bool) string {
	name := func(v int) string {
		if entry {
			return entryName(m.vars[v].name)
		}
		return m.vars[v].name
	}
	k := string(rune(f.op))
	for i := 0; i < f.n; i++ {
		k += "\x00" + name(f.v[i])
	}
	k += "\x01"
	for _, e := range f.elems {
		k += "\x00" + name(e)
	}
	return k
}

// onlyBelow reports whether f reads the first c.below variables only.
func (c *checking) onlyBelow(f *fact) bool {
	for i := 0; i < f.n; i++ {
		if f.v[i] >= c.below {
			return false
		}
	}
	for _, e := range f.elems {
		if e >= c.below {
			return false
		}
	}
	return true
}

// adopt takes the preconditions' surviving facts for the candidates
// set aside: their state (constants, what the formulas counted) is what
// checking these would have gathered.
func (c *checking) adopt(pre []*fact, from *miner) {
	for _, f := range pre {
		if f.op == opUser {
			continue
		}
		var g *fact
		if c.asideNames != nil {
			g = c.asideNames[from.nameKey(f, false)]
		} else {
			g = c.aside[pack(f.op, f.v)]
		}
		if g == nil {
			continue
		}
		g.consts = append([]cell(nil), f.consts...)
		g.tally = f.tally
		c.adopted = append(c.adopted, g)
	}
}

// follower is a candidate whose variables were equal to those of its
// leader in every first sample.
type follower struct{ f, leader *fact }

// shareEqual finds the classes of variables whose cells are the same in
// every one of the first samples (Daikon's equal variables) and sets
// aside the candidates that, with each variable replaced by the first
// of its class, are another candidate: on those samples they hold, fail
// and count exactly as it does (the same cells, the same pattern), so
// only it is checked and join copies its state. After the first
// samples every candidate is checked on its own: a class that later
// calls split costs nothing more. It returns the candidates to check
// now.
func (c *checking) shareEqual(live []*fact) []*fact {
	m := c.m
	if len(m.samples) < 2 || len(m.vars) < 2 {
		return live
	}
	// Columns by hash, then compared cell by cell.
	lead := make([]int, len(m.vars))
	byHash := map[uint64][]int{}
	shared := false
	for v := range m.vars {
		lead[v] = v
		h := uint64(14695981039346656037)
		for _, row := range m.samples {
			h = (h ^ row[v].hash(m.seed)) * 1099511628211
		}
		for _, u := range byHash[h] {
			if sameColumn(m.samples, u, v) {
				lead[v], shared = u, true
				break
			}
		}
		if lead[v] == v {
			byHash[h] = append(byHash[h], v)
		}
	}
	if !shared {
		return live
	}
	// Facts by pattern and variables (user properties and aggregates
	// are not looked up).
	index := make(map[uint32]*fact, len(live))
	for _, f := range live {
		if _, agg := aggregate(f.op); !agg && f.op != opUser {
			index[pack(f.op, f.v)] = f
		}
	}
	out := live[:0:0]
	for _, f := range live {
		if _, agg := aggregate(f.op); agg || f.op == opUser {
			out = append(out, f)
			continue
		}
		var k [3]int
		moved := false
		for i := 0; i < f.n; i++ {
			k[i] = lead[f.v[i]]
			moved = moved || k[i] != f.v[i]
		}
		if !moved {
			out = append(out, f)
			continue
		}
		if l := index[pack(f.op, k)]; l != nil && l != f {
			c.followers = append(c.followers, follower{f, l})
			continue
		}
		out = append(out, f)
	}
	return out
}

// sameColumn reports whether variables u and v have the same cell in
// every row.
func sameColumn(rows [][]cell, u, v int) bool {
	for _, row := range rows {
		if row[u] != row[v] {
			return false
		}
	}
	return true
}

// join ends the first samples: each follower whose leader is alive
// takes a copy of its state and is checked from now on.
func (c *checking) join() {
	if len(c.followers) == 0 {
		return
	}
	alive := map[*fact]bool{}
	var live []*fact
	for _, g := range c.groups {
		for _, f := range g.facts {
			alive[f] = true
			live = append(live, f)
		}
	}
	for _, fl := range c.followers {
		if !alive[fl.leader] {
			continue
		}
		f, l := fl.f, fl.leader
		f.consts = append([]cell(nil), l.consts...)
		f.tally = l.tally
		f.tuples.list = append([]uint64(nil), l.tuples.list...)
		f.tuples.table = append([]uint64(nil), l.tuples.table...)
		if l.tuples.list == nil {
			f.tuples.list = nil
		}
		if l.tuples.table == nil {
			f.tuples.table = nil
		}
		live = append(live, f)
	}
	c.followers = nil
	c.groups = groupFacts(live)
	c.shown = map[varMask][]*factGroup{}
	c.left = len(live)
}

// deferConstants sets aside the candidates that pair a variable
// constant over the first samples with others in a pattern reduce
// drops when one of its variables is a constant (x != y, x == y*y,
// x == y + c, the string containments, the ternary arithmetic), as
// Daikon does not instantiate them while the variable stays constant:
// when x == c is among the results they would be dropped, and when it
// is not (a later sample changed x, or x == c is not justified) result
// checks them over every sample, so the result is the same. It returns
// the candidates to check now.
func (c *checking) deferConstants() []*fact {
	m := c.m
	c.constant = make([]bool, len(m.vars))
	some := false
	for _, f := range c.all {
		if f.op != opOneOf {
			continue
		}
		x := f.v[0]
		var first cell
		n := 0
		for _, row := range m.samples {
			v := row[x]
			if v.k == kAbsent {
				continue
			}
			if n == 0 {
				if !v.hasLiteral() {
					n = -1
					break
				}
				first = v
			} else if !sameValue(first, v) {
				n = -1
				break
			}
			n++
		}
		// Only when x == c is likely to be justified: else it would be
		// checked twice.
		if n > 0 && math.Pow(0.5, float64(n)) < m.conf {
			c.constant[x], some = true, true
		}
	}
	if !some {
		return c.all
	}
	live := make([]*fact, 0, len(c.all))
	for _, f := range c.all {
		if deferrable(f.op) && c.mentionsConstant(f) {
			c.deferred = append(c.deferred, f)
			continue
		}
		live = append(live, f)
	}
	return live
}

// deferrable reports whether reduce drops the facts of pattern o over a
// constant variable.
func deferrable(o op) bool {
	switch o {
	case opNE, opSq, opOff, opPrefix, opSuffix, opContains, opAdd, opSub, opMul, opDiv:
		return true
	}
	return false
}

func (c *checking) mentionsConstant(f *fact) bool {
	for i := 0; i < f.n; i++ {
		if c.constant[f.v[i]] {
			return true
		}
	}
	return false
}

// undefer returns the deferred candidates whose variables constant over
// the first samples all lost their x == c in alive (the survivors,
// filtered as result filters them), checked over every sample.
func (c *checking) undefer(alive []*fact) []*fact {
	m := c.m
	if len(c.deferred) == 0 {
		return nil
	}
	kept := make([]bool, len(m.vars))
	for _, f := range m.justified(append([]*fact(nil), alive...)) {
		if f.op == opOneOf && len(f.consts) == 1 {
			kept[f.v[0]] = true
		}
	}
	var redo []*fact
	for _, f := range c.deferred {
		hidden := false
		for i := 0; i < f.n; i++ {
			hidden = hidden || kept[f.v[i]]
		}
		if !hidden {
			redo = append(redo, f)
		}
	}
	if len(redo) == 0 {
		return nil
	}
	r := &checking{m: m, all: redo, stats: c.stats, streamed: c.streamed, shown: map[varMask][]*factGroup{}}
	r.groups = groupFacts(redo)
	r.left = len(redo)
	m.each(r.feed, r.again)
	var out []*fact
	for _, g := range r.groups {
		out = append(out, g.facts...)
	}
	return out
}

// feed checks the facts alive on one sample and reports whether any is
// left.
func (c *checking) feed(row []cell) bool {
	m := c.m
	m.stamp++
	for _, g := range c.shownFor(row) {
		k := 0
		for _, f := range g.facts {
			if m.observe(f, row, c.stats) {
				g.facts[k] = f
				k++
			}
		}
		c.left -= len(g.facts) - k
		g.facts = g.facts[:k]
	}
	return c.left > 0
}

// shownFor returns the groups whose variables all have a value in row.
func (c *checking) shownFor(row []cell) []*factGroup {
	mask := presence(row)
	gs, ok := c.shown[mask]
	if !ok {
		for _, g := range c.groups {
			if g.mask.within(mask) {
				gs = append(gs, g)
			}
		}
		if len(c.shown) < maxShapes {
			c.shown[mask] = gs
		}
	}
	return gs
}

// result returns the facts that held in every sample fed, in the
// candidates' order, without those the variables' final kinds exclude.
func (c *checking) result() []*fact {
	alive := c.all[:0]
	for _, g := range c.groups {
		alive = append(alive, g.facts...)
	}
	alive = append(alive, c.adopted...)
	sort.Slice(alive, func(i, j int) bool { return alive[i].order < alive[j].order })
	alive = c.wanted(alive)
	if more := c.wanted(c.undefer(alive)); len(more) > 0 {
		alive = append(alive, more...)
		sort.Slice(alive, func(i, j int) bool { return alive[i].order < alive[j].order })
	}
	return alive
}

// wanted drops from alive the facts that the variables' final kinds
// exclude (when later samples narrowed them).
func (c *checking) wanted(alive []*fact) []*fact {
	m := c.m
	if !c.streamed || len(alive) == 0 {
		return alive
	}
	if c.want == nil {
		c.want = map[factKey]bool{}
		for _, f := range m.candidates() {
			c.want[f.key()] = true
		}
	}
	k := 0
	for _, f := range alive {
		if c.want[f.key()] {
			alive[k] = f
			k++
		}
	}
	return alive[:k]
}

// survivorsShared is survivors of the postconditions' miner post and
// of pre, a prefix view of it (prefix), building each later call's row
// once for both.
func survivorsShared(post, pre *miner) (postFacts, preFacts []*fact) {
	cq := pre.start()
	if !noAdopt {
		post.pre = cq
	}
	cp := post.start()
	post.pre = nil
	post.eachFirst(cp.feed, cp.again)
	pre.eachFirst(cq.feed, cq.again)
	cp.join()
	cq.join()
	row := make([]cell, post.b.width)
	k := len(pre.vars)
	var last *Call // the call row holds
	n := 0         // the times it came again since
	again := func() {
		if n > 0 {
			cp.again(row, n)
			cq.again(row[:k], n)
			n = 0
		}
	}
	for _, c := range post.rest {
		if cp.left == 0 && cq.left == 0 {
			break
		}
		if !post.takes(c) {
			continue
		}
		if last != nil && !noRepeats && post.b.same(c, last) {
			n++
			continue
		}
		again()
		last = c
		clear(row)
		row = post.b.fill(c, row)
		post.update(row) // pre's variables are post's first k
		if pre.own {
			pre.update(row[:k])
		}
		if cp.left > 0 {
			cp.feed(row)
		}
		if cq.left > 0 {
			cq.feed(row[:k])
		}
	}
	again()
	preFacts = cq.result()
	cp.adopt(preFacts, pre)
	return cp.result(), preFacts
}

// varMask is a set of variables by position (a function has at most
// maxVars variables and as many lengths).
type varMask [2]uint64

const _ = uint(128 - 2*maxVars) // a varMask holds them all, and seven bits one (shareEqual)

func (a varMask) within(b varMask) bool { return a[0]&^b[0] == 0 && a[1]&^b[1] == 0 }

func (a *varMask) add(v int) { a[v>>6] |= 1 << (v & 63) }

// presence returns the variables that have a value in row.
func presence(row []cell) varMask {
	var m varMask
	for i := range row {
		if row[i].k != kAbsent {
			m.add(i)
		}
	}
	return m
}

// maxShapes bounds the shapes of samples whose groups survivors
// remembers.
const maxShapes = 1024

// factGroup is the candidates that read the same variables.
type factGroup struct {
	mask  varMask
	facts []*fact
}

// groupFacts groups facts by the variables whose values they need: an
// aggregate needs its slice (its elements, and a sum's number, are
// checked on the sample).
func groupFacts(facts []*fact) []*factGroup {
	var out []*factGroup
	index := make(map[varMask]*factGroup, len(facts)/4)
	var last *factGroup // the candidates over a tuple of variables come together
	for _, f := range facts {
		var m varMask
		if si, ok := aggregate(f.op); ok {
			m.add(f.v[si])
		} else {
			for i := 0; i < f.n; i++ {
				m.add(f.v[i])
			}
		}
		g := last
		if g == nil || g.mask != m {
			g = index[m]
		}
		last = g
		if g == nil {
			g = &factGroup{mask: m}
			index[m] = g
			out = append(out, g)
			last = g
		}
		g.facts = append(g.facts, f)
	}
	return out
}

// factKey identifies a candidate: its pattern and variables.
type factKey struct {
	op   op
	v    [3]int
	user string
}

func (f *fact) key() factKey {
	k := factKey{op: f.op, v: f.v}
	if f.user != nil {
		k.user = f.user.src
	}
	return k
}

// observe checks f on one sample and, when it holds, counts the sample.
func (m *miner) observe(f *fact, row []cell, stats bool) bool {
	if si, ok := aggregate(f.op); ok && row[f.v[si]].k != kAbsent {
		f.slices++
	}
	if absent(f, row) {
		return true // nothing to say where a variable has no value
	}
	if !m.check(f, row) {
		return false
	}
	f.present++
	if stats {
		m.count(f, row)
	}
	return true
}

// violated returns the facts that do not hold in some sample of m (the
// facts are another miner's over the same variables, matched by name).
func (m *miner) violated(facts []*fact) []*fact {
	var out, gs []*fact
	var of []int
	for i, f := range facts {
		if g := m.translate(f); g != nil {
			gs, of = append(gs, g), append(of, i)
		}
	}
	broken := make([]bool, len(gs))
	left := len(gs)
	m.each(func(row []cell) bool { // a row that comes again breaks nothing more
		for i, g := range gs {
			if !broken[i] && !m.holds(g, row) {
				broken[i] = true
				left--
			}
		}
		return left > 0
	}, nil)
	j := 0
	for i, f := range facts {
		if j < len(of) && of[j] == i {
			if broken[j] {
				out = append(out, f)
			}
			j++
			continue
		}
		out = append(out, f)
	}
	return out
}

// translate maps a fact of another miner (of the same function) onto m's
// variables, by name; nil when m lacks one.
func (m *miner) translate(f *fact) *fact {
	g := *f
	g.consts = append([]cell(nil), f.consts...)
	for i := 0; i < f.n; i++ {
		g.v[i] = -1
		for j, v := range m.vars {
			if v.name == f.meta[i] {
				g.v[i] = j
			}
		}
		if g.v[i] < 0 {
			return nil
		}
	}
	if si, ok := aggregate(g.op); ok {
		g.elems = nil
		for j := range f.elems {
			e := -1
			for k, v := range m.vars {
				if v.name == f.meta[si]+"["+itoa(j)+"]" {
					e = k
				}
			}
			if e < 0 {
				break
			}
			g.elems = append(g.elems, e)
		}
	}
	if g.op == opOneOf || g.op == opRange {
		g.op = opUser // compare through the rendered expression
		e, err := Parse(renderFact(nil, f))
		if err != nil {
			return nil
		}
		g.user = e
		g.meta = f.meta
	}
	return &g
}

func (m *miner) newFact(o op, vs ...int) *fact {
	var f *fact
	if m.arena != nil {
		f = m.arena.fact()
	} else {
		f = &fact{}
	}
	f.op, f.n = o, len(vs)
	f.meta = f.names[:0]
	copy(f.v[:], vs)
	for _, v := range vs {
		f.meta = append(f.meta, m.vars[v].name)
	}
	return f
}

// maxTernary bounds the numeric variables combined three at a time.
const maxTernary = 12

// candidates instantiates the library over the variables.
func (m *miner) candidates() []*fact {
	var out []*fact
	vs := m.vars
	var nums []int
	for i, v := range vs {
		if v.broken {
			continue
		}
		switch {
		case v.length:
			out = append(out, m.newFact(opNonEmpty, i))
			if !v.str {
				out = append(out, m.newFact(opOneOf, i), m.newFact(opRange, i))
			}
			nums = append(nums, i)
		case v.num:
			out = append(out, m.newFact(opGT0, i), m.newFact(opOneOf, i))
			if !v.uint || m.loose {
				out = append(out, m.newFact(opGE0, i), m.newFact(opLT0, i), m.newFact(opLE0, i))
			}
			out = append(out, m.newFact(opNE0, i))
			if v.ints {
				out = append(out, m.newFact(opRange, i))
			}
			nums = append(nums, i)
		case v.strs, v.bools:
			out = append(out, m.newFact(opOneOf, i))
		case v.nilable:
			out = append(out, m.newFact(opNil, i), m.newFact(opNonNil, i))
		}
	}
	for a := 0; a < len(nums); a++ {
		for b := a + 1; b < len(nums); b++ {
			x, y := nums[a], nums[b]
			if vs[x].length && vs[y].length && vs[x].base == vs[y].base || !comparable(vs[x], vs[y]) {
				continue
			}
			for _, o := range []op{opEq, opLT, opLE, opGT, opGE, opNE} {
				out = append(out, m.newFact(o, x, y))
			}
			out = append(out, m.newFact(opSq, x, y), m.newFact(opSq, y, x))
			if vs[x].ints && vs[y].ints {
				out = append(out, m.newFact(opOff, y, x))
			}
		}
	}
	for a, x := range vs {
		for b, y := range vs {
			if a == b || !x.strs || !y.strs {
				continue
			}
			if a < b {
				out = append(out, m.newFact(opStrEq, a, b))
			}
			out = append(out, m.newFact(opPrefix, a, b), m.newFact(opSuffix, a, b), m.newFact(opContains, a, b))
		}
	}
	if len(nums) <= maxTernary {
		for a := 0; a < len(nums); a++ {
			for b := a + 1; b < len(nums); b++ {
				for c := b + 1; c < len(nums); c++ {
					x, y, z := nums[a], nums[b], nums[c]
					if !comparable(vs[x], vs[y]) || !comparable(vs[x], vs[z]) || !comparable(vs[y], vs[z]) {
						continue
					}
					// z, the last (a result when there is one), is
					// computed from the other two.
					out = append(out, m.newFact(opAdd, z, x, y), m.newFact(opMul, z, x, y),
						m.newFact(opSub, z, x, y), m.newFact(opSub, z, y, x),
						m.newFact(opDiv, z, x, y), m.newFact(opDiv, z, y, x))
				}
			}
		}
	}
	out = append(out, m.aggregates(nums)...)
	for _, p := range m.props {
		out = append(out, m.instantiate(p)...)
	}
	return out
}

// aggregates instantiates the patterns over the elements of slices of
// numbers: sum(s) equal to a number, sorted(s), all(s) compared with 0.
// A slice qualifies when its elements s[0], s[1]... are variables of
// numbers and some sample has all its elements recorded (at most
// MaxElems): an aggregate is never computed over a truncated slice.
func (m *miner) aggregates(nums []int) []*fact {
	index := map[string]int{}
	for i, v := range m.vars {
		index[v.name] = i
	}
	var out []*fact
	for i, v := range m.vars {
		if !v.nilable || v.length {
			continue
		}
		if _, old := isOld(v.name); old {
			continue // old(s)'s elements are named old(s[i]) or s[i]: left out
		}
		var elems []int
		for j := 0; j < MaxElems; j++ {
			e, ok := index[v.name+"["+itoa(j)+"]"]
			if !ok || !m.vars[e].num {
				break
			}
			elems = append(elems, e)
		}
		if len(elems) == 0 {
			continue
		}
		long, pairs := false, false
		for _, row := range m.samples {
			if es, ok := elemCells(row, i, elems); ok {
				long = long || len(es) > 0
				pairs = pairs || len(es) > 1
			}
		}
		if !long {
			continue
		}
		mk := func(o op, vs ...int) {
			f := m.newFact(o, vs...)
			f.elems = elems
			out = append(out, f)
		}
		for _, o := range []op{opAllGT0, opAllGE0, opAllLT0, opAllLE0, opAllNE0} {
			mk(o, i)
		}
		if pairs {
			mk(opSorted, i)
		}
		for _, x := range nums {
			xv := m.vars[x]
			if xv.length || strings.HasPrefix(xv.name, v.name+"[") {
				continue
			}
			mk(opSum, x, i)
		}
	}
	return out
}

// elemCells returns the elements of the slice variable s in row when
// they were all recorded and are numbers (a nil slice has none).
func elemCells(row []cell, s int, elems []int) ([]cell, bool) {
	c := row[s]
	if c.k == kNil {
		return nil, true
	}
	if c.k != kRef || !c.hasLen || c.n > len(elems) {
		return nil, false
	}
	out := make([]cell, c.n)
	for j := 0; j < c.n; j++ {
		e := row[elems[j]]
		if e.k != kNum {
			return nil, false
		}
		out[j] = e
	}
	return out, true
}

// wholeElems reports whether elemCells would return the elements.
func wholeElems(row []cell, s int, elems []int) bool {
	c := row[s]
	if c.k == kNil {
		return true
	}
	if c.k != kRef || !c.hasLen || c.n > len(elems) {
		return false
	}
	for j := 0; j < c.n; j++ {
		if row[elems[j]].k != kNum {
			return false
		}
	}
	return true
}

// sumCells adds numbers: integer arithmetic when all are integers.
func sumCells(es []cell) cell {
	s := intCell(0)
	for _, e := range es {
		s, _ = arith(token.ADD, s, e)
	}
	return s
}

// allHold reports whether every element satisfies the comparison of an
// all(s) pattern with 0.
func allHold(o op, es []cell) bool {
	for _, e := range es {
		var ok bool
		switch o {
		case opAllGT0:
			ok = e.f > 0 || (e.isInt && e.i > 0)
		case opAllGE0:
			ok = e.f >= 0
		case opAllLT0:
			ok = e.f < 0
		case opAllLE0:
			ok = e.f <= 0
		case opAllNE0:
			ok = e.f != 0
		}
		if !ok {
			return false
		}
	}
	return true
}

// isSorted reports whether numbers are in non-decreasing order.
func isSorted(es []cell) bool {
	for j := 1; j < len(es); j++ {
		if numCmp(es[j-1], es[j]) > 0 {
			return false
		}
	}
	return true
}

func itoa(n int) string { return strconv.Itoa(n) }

// comparable reports whether two numeric variables are worth relating,
// a crude form of Daikon's comparability: a length is compared with
// lengths and with whole parameters and results (i < len(s), result ==
// len(s)), not with the numbers inside other values (s.items[3] >
// len(s.name) holds by accident of the data).
func comparable(x, y variable) bool {
	if lastOf(x, y) || lastOf(y, x) {
		return false
	}
	if x.length == y.length {
		return true
	}
	if x.length {
		x, y = y, x
	}
	return !x.part
}

// lastOf reports whether x is s[len(s)-1] and y an element s[i] of the
// same slice: both have values only when len(s) == i+1, where they are
// the same element.
func lastOf(x, y variable) bool {
	i := strings.LastIndex(x.name, "[len(")
	if i < 0 || !strings.HasSuffix(x.name, ")-1]") {
		return false
	}
	return strings.HasPrefix(y.name, x.name[:i]+"[") && !strings.Contains(y.name[i:], ".")
}

// metavars returns the metavariables of a user property: its upper-case
// single-letter identifiers, in order.
func metavars(e *Expr) []string {
	var out []string
	for _, v := range e.Vars() {
		if len(v) == 1 && v[0] >= 'A' && v[0] <= 'Z' {
			out = append(out, v)
		}
	}
	return out
}

// instantiate returns a user property over every permutation of distinct
// base variables.
func (m *miner) instantiate(p *Expr) []*fact {
	mv := metavars(p)
	if len(mv) == 0 || len(mv) > 3 {
		return nil
	}
	var base []int
	for i, v := range m.vars {
		if !v.length {
			base = append(base, i)
		}
	}
	var out []*fact
	var pick func(chosen []int)
	pick = func(chosen []int) {
		if len(chosen) == len(mv) {
			names := map[string]string{}
			for i, c := range chosen {
				names[mv[i]] = m.vars[c].name
			}
			src, err := rename(p.src, names)
			if err != nil {
				return
			}
			e, err := Parse(src)
			if err != nil {
				return
			}
			f := m.newFact(opUser, chosen...)
			f.user = e
			out = append(out, f)
			return
		}
		for _, b := range base {
			used := false
			for _, c := range chosen {
				used = used || c == b
			}
			if !used {
				pick(append(chosen, b))
			}
		}
	}
	pick(nil)
	return out
}

// rename replaces identifiers in a Go expression.
func rename(src string, names map[string]string) (string, error) {
	n, err := parser.ParseExpr(src)
	if err != nil {
		return "", err
	}
	ast.Inspect(n, func(x ast.Node) bool {
		if sel, ok := x.(*ast.SelectorExpr); ok {
			ast.Inspect(sel.X, func(y ast.Node) bool { return true })
			return false
		}
		if id, ok := x.(*ast.Ident); ok {
			if to, ok := names[id.Name]; ok {
				id.Name = to
			}
		}
		return true
	})
	var b bytes.Buffer
	if err := printer.Fprint(&b, token.NewFileSet(), n); err != nil {
		return "", err
	}
	return b.String(), nil
}

// holds evaluates a fact on one sample. Aggregating facts (one-of,
// offsets, ranges) update their constants.
func (m *miner) holds(f *fact, row []cell) bool {
	if absent(f, row) {
		return true // nothing to say where a variable has no value
	}
	return m.check(f, row)
}

// check evaluates a fact on a sample where its variables have values.
func (m *miner) check(f *fact, row []cell) bool {
	x := row[f.v[0]]
	if si, ok := aggregate(f.op); ok {
		es, _ := elemCells(row, f.v[si], f.elems)
		switch f.op {
		case opSum:
			return x.k == kNum && numEq(x, sumCells(es))
		case opSorted:
			return isSorted(es)
		}
		return allHold(f.op, es)
	}
	switch f.op {
	case opGT0, opGE0, opLT0, opLE0, opNE0, opNonEmpty:
		if x.k != kNum {
			return false
		}
		switch f.op {
		case opGT0, opNonEmpty:
			return x.f > 0 || (x.isInt && x.i > 0)
		case opGE0:
			return x.f >= 0
		case opLT0:
			return x.f < 0
		case opLE0:
			return x.f <= 0
		}
		return x.f != 0
	case opOneOf:
		if !x.hasLiteral() {
			return false
		}
		for _, c := range f.consts {
			if sameValue(c, x) {
				return true
			}
		}
		if len(f.consts) == 3 || (x.k == kBool && len(f.consts) == 1) {
			return false
		}
		f.consts = append(f.consts, x)
		return true
	case opNil:
		return x.k == kNil
	case opNonNil:
		return x.k == kRef
	case opRange:
		if x.k != kNum || !x.isInt {
			return false
		}
		if len(f.consts) == 0 {
			f.consts = []cell{x, x}
		}
		if x.i < f.consts[0].i {
			f.consts[0] = x
		}
		if x.i > f.consts[1].i {
			f.consts[1] = x
		}
		return true
	case opUser:
		env := func(name string) (cell, bool) {
			for i, n := range f.meta {
				if n == name {
					return row[f.v[i]], true
				}
			}
			return cell{}, false
		}
		ok, err := f.user.holds(env)
		return err == nil && ok
	}
	y := row[f.v[1]]
	switch f.op {
	case opStrEq, opPrefix, opSuffix, opContains:
		if x.k != kStr || y.k != kStr || !x.full || !y.full {
			return false
		}
		switch f.op {
		case opStrEq:
			return x.s == y.s
		case opPrefix:
			return strings.HasPrefix(x.s, y.s)
		case opSuffix:
			return strings.HasSuffix(x.s, y.s)
		}
		return strings.Contains(x.s, y.s)
	}
	if x.k != kNum || y.k != kNum {
		return false
	}
	switch f.op {
	case opEq:
		return numEq(x, y)
	case opLT:
		return numCmp(x, y) < 0
	case opLE:
		return numCmp(x, y) <= 0
	case opGT:
		return numCmp(x, y) > 0
	case opGE:
		return numCmp(x, y) >= 0
	case opNE:
		return !numEq(x, y)
	case opSq:
		sq, err := arith(token.MUL, y, y)
		return err == nil && numEq(x, sq)
	case opOff:
		if !x.isInt || !y.isInt {
			return false
		}
		d := x.i - y.i
		if len(f.consts) == 0 {
			if d == 0 {
				return false
			}
			f.consts = []cell{intCell(d)}
		}
		return f.consts[0].i == d
	}
	z := row[f.v[2]]
	if z.k != kNum {
		return false
	}
	var t token.Token
	switch f.op {
	case opAdd:
		t = token.ADD
	case opSub:
		t = token.SUB
	case opMul:
		t = token.MUL
	case opDiv:
		t = token.QUO
	}
	r, err := arith(t, y, z)
	return err == nil && numEq(x, r)
}

// absent reports whether one of f's variables has no value in row, or,
// for a pattern over a slice's elements, whether they were not all
// recorded.
func absent(f *fact, row []cell) bool {
	for i := 0; i < f.n; i++ {
		if row[f.v[i]].k == kAbsent {
			return true
		}
	}
	if si, ok := aggregate(f.op); ok {
		return !wholeElems(row, f.v[si], f.elems)
	}
	return false
}

// sameValue reports whether two literal cells are the same value.
func sameValue(a, b cell) bool {
	if a.k != b.k {
		return false
	}
	switch a.k {
	case kNum:
		if a.isInt && b.isInt {
			return a.i == b.i
		}
		return a.f == b.f
	case kStr:
		return a.s == b.s && a.n == b.n
	case kBool:
		return a.full == b.full
	}
	return true
}

// class is how likely one sample satisfies a pattern by chance, under
// the null hypothesis of unrelated values: 1/2 for an ordering or sign,
// 1/4 for an equality, a containment or an arithmetic relation.
func class(o op) float64 {
	switch o {
	case opEq, opSq, opOff, opStrEq, opPrefix, opSuffix, opContains, opAdd, opSub, opMul, opDiv, opSum:
		return 0.25
	}
	return 0.5
}

// justified returns the facts whose chance of holding by accident is
// below the confidence limit.
func (m *miner) justified(facts []*fact) []*fact {
	for _, f := range facts {
		if _, ok := aggregate(f.op); ok {
			f.whole = f.slices == f.present
		}
	}
	if m.conf >= 1 {
		return facts
	}
	var out []*fact
	for _, f := range facts {
		if m.chance(f) < m.conf {
			out = append(out, f)
		}
	}
	return out
}

// limit is how many distinct tuples of f's variables its chance formula
// needs counted: for a pattern whose samples each hold by chance with
// probability p, enough for p^d to fall below the confidence limit.
func (m *miner) limit(f *fact) int {
	switch f.op {
	case opNE0, opNE:
		return maxDistinct
	case opOneOf, opNil, opNonNil, opRange, opSorted, opAllGT0, opAllGE0, opAllLT0, opAllLE0, opAllNE0:
		return 0
	}
	return int(math.Ceil(math.Log(m.conf)/math.Log(class(f.op)))) + 1
}

// count adds a sample where f holds to what its chance formula counts.
func (m *miner) count(f *fact, row []cell) {
	switch f.op {
	case opOneOf, opNil, opNonNil:
		return // the samples (present) and the constants
	case opRange:
		x := row[f.v[0]].i
		if lo := f.consts[0].i; f.atLo == 0 || lo != f.rlo {
			f.rlo, f.atLo = lo, 0
		}
		if hi := f.consts[1].i; f.atHi == 0 || hi != f.rhi {
			f.rhi, f.atHi = hi, 0
		}
		if x == f.rlo {
			f.atLo++
		}
		if x == f.rhi {
			f.atHi++
		}
		return
	case opSorted, opAllGT0, opAllGE0, opAllLT0, opAllLE0, opAllNE0:
		// Per element (all) or adjacent pair (sorted) of the distinct
		// slices recorded whole.
		if !f.tuples.add([3]uint64{m.sliceHash(row, f.v[0], f.elems)}) {
			return
		}
		es, _ := elemCells(row, f.v[0], f.elems)
		f.elemCount += len(es)
		if f.op == opSorted && len(es) > 0 {
			f.elemCount--
		}
		for _, e := range es {
			f.lo, f.hi = math.Min(f.lo, e.f), math.Max(f.hi, e.f)
		}
		return
	case opNE0, opNE:
		d := row[f.v[0]].f
		if f.op == opNE {
			d -= row[f.v[1]].f
		}
		f.lo, f.hi = math.Min(f.lo, d), math.Max(f.hi, d)
	case opPrefix, opSuffix, opContains:
		if row[f.v[1]].s == "" {
			return // only tuples with a non-empty needle count
		}
	}
	if f.tuples.len() >= f.limit {
		return
	}
	var k [3]uint64
	for i := 0; i < f.n; i++ {
		k[i] = m.hash(row, f.v[i])
	}
	if si, ok := aggregate(f.op); ok {
		k[si] = m.sliceHash(row, f.v[si], f.elems)
	}
	f.tuples.add(k)
}

// chance is the probability that f held in the samples by accident
// (docs/mine.md gives the formulas), from what count counted. Tuples
// are told apart by hashes (a collision undercounts, which only makes
// the chance of holding by accident look larger).
func (m *miner) chance(f *fact) float64 {
	n := f.present
	switch f.op {
	case opSorted, opAllGT0, opAllGE0, opAllLT0, opAllLE0, opAllNE0:
		p := 0.5
		if f.op == opAllNE0 && f.elemCount > 0 {
			p = 1 - 1/(f.hi-f.lo+2)
		}
		return math.Pow(p, float64(f.elemCount))
	case opOneOf:
		k := float64(len(f.consts))
		return math.Pow(k/(k+1), float64(n))
	case opNil, opNonNil:
		return math.Pow(0.5, float64(n))
	case opRange:
		return math.Pow(0.5, float64(min(f.atLo, f.atHi)))
	case opNE0, opNE:
		p := 1 - 1/(f.hi-f.lo+2)
		return math.Pow(p, float64(f.tuples.len()))
	}
	return math.Pow(class(f.op), float64(f.tuples.len()))
}

// sliceHash hashes a slice recorded whole by its elements (a slice's
// own cell hashes its type and length only).
func (m *miner) sliceHash(row []cell, s int, elems []int) uint64 {
	h := m.hash(row, s)
	es, _ := elemCells(row, s, elems)
	for _, e := range es {
		h = (h^e.hash(m.seed))*0x100000001b3 + 0x9e3779b97f4a7c15
	}
	return h
}

// sortFacts orders facts by pattern and variables, for determinism.
func sortFacts(fs []*fact) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if a.op != b.op {
			return a.op < b.op
		}
		return a.v[0]*1000000+a.v[1]*1000+a.v[2] < b.v[0]*1000000+b.v[1]*1000+b.v[2]
	})
}
