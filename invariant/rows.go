package invariant

// Rows: the cells of one call's variables, in the order of the miner's
// variables. newMiner learns the variables from the first calls; the
// later calls are made into rows one at a time, into one reused slice,
// and checked against the candidates that survived (each).

// rowBuilder puts the cells of a call's variables (parameters, results
// and their parts, lengths) into a row.
type rowBuilder struct {
	f       *Function
	post    bool
	changed map[string]bool // parts of parameters named old(x) at entry, x at exit
	index   map[string]int  // variable positions by name
	nm      names
	// grow makes a new variable and returns its position; nil when the
	// variables are fixed (names not among them are left out).
	grow func(name string, result bool) (int, bool)
	// Calls mostly have the shapes of the call before: seq remembers
	// the order of the names put in the previous call (names come from
	// the cache, so comparing them is cheap), and the index map is asked
	// only where the order differs.
	seq []slot
	at  int
	row []cell
	// direct: the parameters and results are variables of their own
	// names (no name repeats, no parameter changed), at pp and rp, so
	// plain values go straight in.
	direct bool
	pp, rp []int
	lens   [][2]int // once placed: the positions of x and of len(x)
	placed bool
	width  int
	// Plans of the values of the call before, by kind and position
	// (plan.go); slot is where the last put went (-1: nowhere).
	plans   [planKinds][]plan
	scratch shape
	slot    int
}

type slot struct {
	name string
	j    int
}

func newRowBuilder(f *Function, post bool, changed map[string]bool) *rowBuilder {
	return &rowBuilder{f: f, post: post, changed: changed, index: map[string]int{}, nm: names{}}
}

// put sets the variable name of the current row, making it when it is
// new and grow allows.
func (b *rowBuilder) put(name string, result bool, c cell) {
	if b.at < len(b.seq) && b.seq[b.at].name == name {
		b.slot = b.seq[b.at].j
		b.set(b.slot, c)
		b.at++
		return
	}
	j, ok := b.index[name]
	if ok {
		if b.at < len(b.seq) {
			b.seq[b.at] = slot{name, j}
			b.seq = b.seq[:b.at+1]
		} else {
			b.seq = append(b.seq, slot{name, j})
		}
		b.at++
	}
	if !ok {
		if b.grow == nil {
			return
		}
		if j, ok = b.grow(name, result); !ok {
			return
		}
		b.index[name] = j
	}
	b.slot = j
	b.set(j, c)
}

// set sets the cell of variable j in the current row, extending a row
// made before the variable.
func (b *rowBuilder) set(j int, c cell) {
	if b.row == nil {
		return
	}
	if j >= len(b.row) {
		b.row = widen(b.row, j+1)
	}
	b.row[j] = c
}

// widen returns row with n cells, the new ones absent.
func widen(row []cell, n int) []cell {
	if n <= cap(row) {
		old := len(row)
		row = row[:n]
		clear(row[old:])
		return row
	}
	out := make([]cell, n, 2*n)
	copy(out, row)
	return out
}

func (b *rowBuilder) entry(name string, c cell) {
	if b.changed[name] {
		name = "old(" + name + ")"
	}
	b.put(name, false, c)
}

func (b *rowBuilder) result(name string, c cell) { b.put(name, true, c) }

func (b *rowBuilder) final(name string, c cell) {
	if b.changed[name] {
		b.put(name, true, c)
	}
}

// setDirect decides, once the parameters and results are variables,
// whether plain values may go straight into their cells.
func (b *rowBuilder) setDirect() {
	f := b.f
	b.direct = true
	b.pp, b.rp = make([]int, len(f.Params)), make([]int, len(f.Results))
	for i, p := range f.Params {
		b.pp[i] = b.index[p]
		b.direct = b.direct && b.index[p] == i && !b.changed[p]
	}
	for j, r := range f.Results {
		b.rp[j] = b.index[r]
		b.direct = b.direct && (!b.post || b.index[r] == len(f.Params)+j)
	}
}

// place moves the variables to their final positions (pos, by the
// position they were made at) and records the lengths among vars.
func (b *rowBuilder) place(pos []int, vars []variable) {
	for name, j := range b.index {
		b.index[name] = pos[j]
	}
	for i := range b.pp {
		b.pp[i] = pos[b.pp[i]]
	}
	for i := range b.rp {
		if b.post {
			b.rp[i] = pos[b.rp[i]]
		}
	}
	b.seq = b.seq[:0]
	b.lens = nil
	for i, v := range vars {
		if v.length {
			b.lens = append(b.lens, [2]int{v.base, i})
		}
	}
	b.placed, b.width = true, len(vars)
	b.forget()
}

// prefix returns a builder of the entry values alone, into the first k
// variables (the parameters, their parts and lengths come first).
func (b *rowBuilder) prefix(k int) *rowBuilder {
	p := *b
	p.forget()
	p.scratch = shape{}
	p.post = false
	p.seq = nil
	p.index = map[string]int{}
	for name, j := range b.index {
		if j < k {
			p.index[name] = j
		}
	}
	p.lens = nil
	for _, l := range b.lens {
		if l[1] < k {
			p.lens = append(p.lens, l)
		}
	}
	p.width = k
	return &p
}

// fill puts the cells of call c into row and returns it (extended when
// a variable was made; a nil row only makes variables).
func (b *rowBuilder) fill(c *Call, row []cell) []cell {
	b.row, b.at = row, 0
	f := b.f
	for i, p := range f.Params {
		if i < len(c.Args) {
			if a := &c.Args[i]; b.direct && !a.Deep && a.Err == nil {
				b.set(b.pp[i], cellOf(*a)) // the common case, without derive
			} else {
				b.deriveInto(planArg, i, p, a, b.entry)
			}
		}
	}
	if b.post {
		for i, r := range f.Results {
			if i < len(c.Results) {
				if v := &c.Results[i]; b.direct && !v.Deep && v.Err == nil {
					b.set(b.rp[i], cellOf(*v))
				} else {
					b.deriveInto(planResult, i, r, v, b.result)
				}
			}
		}
		if len(b.changed) > 0 {
			for i, p := range f.Params {
				if i < len(c.Final) {
					b.deriveInto(planFinal, i, p, &c.Final[i], b.final)
				}
			}
		}
	}
	row, b.row = b.row, nil
	if b.placed && row != nil {
		for _, l := range b.lens {
			row[l[1]] = lenCell(row[l[0]])
		}
	}
	return row
}

// lenCell is the cell of len(x) for x's cell c: absent when c has no
// length.
func lenCell(c cell) cell {
	n, has := c.length()
	if !has {
		return cell{}
	}
	return intCell(int64(n))
}

// each calls fn with every sample of m: the rows built at first, then
// a row for each later call, built into one slice that fn must not
// keep. The later rows update what the variables are (flags). fn
// returns false to stop. A row equal to one fn saw (any of the first
// rows; the call before's, among the later ones) is not shown to fn:
// again, when not nil, is told how many more times the row fn saw last
// came (repeat.go).
func (m *miner) each(fn func(row []cell) bool, again func(row []cell, n int)) {
	if m.eachFirst(fn, again) {
		m.eachLater(fn, again)
	}
}

// eachFirst is each over the rows built at first; it reports whether
// fn did not stop it. Equal rows are grouped wherever they are: each
// distinct row is shown to fn where it first occurs, and again is told
// at once how many times it occurs after. The order of the rows does
// not change what the facts count (repeat.go), and the values come in
// the order of their first occurrence, as they would row by row.
func (m *miner) eachFirst(fn func(row []cell) bool, again func(row []cell, n int)) bool {
	times := m.repeats()
	for r, row := range m.samples {
		if times != nil && times[r] == 0 {
			continue // a repeat of a row before it
		}
		if !fn(row) {
			return false
		}
		if times != nil && times[r] > 1 && again != nil {
			again(row, int(times[r])-1)
		}
	}
	return true
}

// repeats returns, for each of the first rows, how many times it occurs
// when it is the first of its equals, and 0 when an equal row came
// before it; nil when every row is to be fed.
func (m *miner) repeats() []int32 {
	if noRepeats || len(m.samples) < 2 {
		return nil
	}
	times := make([]int32, len(m.samples))
	first := make(map[uint64]int32, len(m.samples))
	next := make([]int32, len(m.samples)) // the next distinct row of the same hash, or -1
	for r, row := range m.samples {
		h := uint64(len(row))
		for i := range row {
			h = (h ^ row[i].hash(m.seed)) * 0xff51afd7ed558ccd
			h ^= h >> 31
		}
		next[r] = -1
		j, ok := first[h]
		if !ok {
			first[h], times[r] = int32(r), 1
			continue
		}
		for {
			if sameRow(m.samples[j], row) {
				times[j]++
				break
			}
			if next[j] < 0 {
				next[j], times[r] = int32(r), 1
				break
			}
			j = next[j]
		}
	}
	return times
}

// eachLater is each over the later calls only: a call whose values are
// those of the call before it (same) has its row.
func (m *miner) eachLater(fn func(row []cell) bool, again func(row []cell, n int)) {
	if len(m.rest) == 0 {
		return
	}
	row := make([]cell, m.b.width)
	var last *Call
	n := 0
	for _, c := range m.rest {
		if !m.takes(c) {
			continue
		}
		if last != nil && !noRepeats && m.b.same(c, last) {
			n++
			continue
		}
		if n > 0 && again != nil {
			again(row, n)
		}
		n = 0
		clear(row)
		row = m.b.fill(c, row)
		m.update(row)
		if !fn(row) {
			return
		}
		last = c
	}
	if n > 0 && again != nil {
		again(row, n)
	}
}

// update narrows what each variable is (the flags of newMiner) by one
// more row, and marks a length whose value has none.
func (m *miner) update(row []cell) {
	for i := range m.vars {
		v := &m.vars[i]
		c := row[i]
		if v.length {
			if bc := row[v.base]; bc.k != kAbsent {
				if _, has := bc.length(); !has {
					v.broken = true
				}
				v.str = v.str || bc.k == kStr
			}
		}
		if c.k != kAbsent {
			v.narrow(c)
		}
	}
}

// hash returns the hash of variable v's cell in the current row,
// computed once per row.
func (m *miner) hash(row []cell, v int) uint64 {
	if m.stamps == nil {
		m.hashes, m.stamps = make([]uint64, len(m.vars)), make([]uint32, len(m.vars))
	}
	if m.stamps[v] != m.stamp {
		m.hashes[v], m.stamps[v] = row[v].hash(m.seed), m.stamp
	}
	return m.hashes[v]
}

// arena hands out cells from chunks that are used again function after
// function (reset), so that the rows of the first calls of each
// function are not garbage for the collector to find.
type arena struct {
	chunks [][]cell
	next   int    // the first chunk not handed out since reset
	cur    []cell // what is left of the current chunk
	// Facts likewise.
	factChunks [][]fact
	nextFacts  int
	facts      []fact
}

// fact returns a new zero fact.
func (a *arena) fact() *fact {
	if len(a.facts) == 0 {
		if a.nextFacts == len(a.factChunks) {
			a.factChunks = append(a.factChunks, make([]fact, 1024))
		}
		a.facts = a.factChunks[a.nextFacts]
		a.nextFacts++
	}
	f := &a.facts[0]
	a.facts = a.facts[1:]
	*f = fact{}
	return f
}

// arenaChunk is the size of a chunk, in cells.
const arenaChunk = 1 << 15

// cells returns n absent cells.
func (a *arena) cells(n int) []cell {
	if len(a.cur) < n {
		for a.next < len(a.chunks) && len(a.chunks[a.next]) < n {
			a.next++
		}
		if a.next == len(a.chunks) {
			a.chunks = append(a.chunks, make([]cell, max(n, arenaChunk)))
		}
		a.cur = a.chunks[a.next]
		a.next++
	}
	s := a.cur[:n:n]
	a.cur = a.cur[n:]
	clear(s) // only what is handed out: a small function takes little of a chunk
	return s
}

// reset makes every chunk free again: the cells and facts handed out
// must no longer be used.
func (a *arena) reset() { a.next, a.cur, a.nextFacts, a.facts = 0, nil, 0, nil }
