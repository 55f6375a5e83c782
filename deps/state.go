package deps

import (
	"fmt"
	"go/ast"
	"go/token"
	"path/filepath"
	"slices"
	"sort"

	"github.com/culprit-go/culprit/trace"
)

// builder replays events into a graph.
type builder struct {
	*program
	test *trace.Test
	g    *Graph
	seg  segmenter // the run cut at its checks (Options.Segments)
	// nodes holds the nodes made, by position, then name and file: a
	// position names one or two (a word for the map's hash, where the
	// name was a string to hash on every statement run).
	nodes map[token.Pos][]nodeAt
	// edges holds the edges made, packed, and since the latest
	// compaction (compactEdges) some twice: a list sorted and
	// deduplicated when it doubles is a third of a set's memory.
	edges     []edgeKey
	compactAt int
	// edgeCache holds, per slot, an edge recently made plus one (0:
	// none): edge drops a repeat found there.
	edgeCache *[1 << edgeCacheBits]edgeKey
	gors      map[int]*goroutine
	last      map[*function]*frame // the latest frame of each function
	global    map[string]defSet
	chans     map[uint64][]int // channel -> sent nodes not yet received
	seq       int
	noted     map[string]bool
	lastIn    int            // the latest node the test itself defined, -1
	frames    int            // the frames entered so far (frame.serial)
	hit       map[*unit]bool // statements the test executed (its spectrum), when recorded
	view      view           // the graph made of the replay: summary or versioned
	ends      []ending       // the instances end is closing, innermost last
	// pending holds the operands assign defined, waiting for the
	// statement's other reads (reused from one statement to the next).
	pending []pending
	def     defFunc // defNode

	// Memory (summary graphs): what was last written at each address or
	// map entry, which variable lives at an address, the element and
	// field definitions whose storage is known (a read of another
	// element leaves them out), and element names made per site.
	mem     map[memKey]defSet
	gmem    map[string]map[memKey]bool // package-level variable -> the storage written through it
	entered map[int]bool               // call sites an entry record named: their callees are instrumented
	vaddr   map[uint64]varRef
	located map[int]bool
	// elemOnly holds the definitions that write a slice's or array's
	// elements (xs[i] = v, copy(xs, ys)) and leave its length alone:
	// len, cap and a range's header do not read them.
	elemOnly map[int]bool
	elemN    map[token.Pos]map[string]bool
	steps    []stepTarget // per statement site: what its step starts, found on first use (stepTarget.known)
	checks   map[int]bool // check calls the test made (checked coverage)
	sinkSeen map[Sink]bool

	// The latest element writes of each collection (address.go).
	elemLogs map[uint64]*elemLog
	// The keys of global of the package-level variables of a name, while
	// global has globalsN keys (globalKeys).
	globalsOf map[string][]string
	globalsN  int

	// Scratch of reads: a mark per node (seen[id] == seenGen: already
	// read), and slices reused from one read to the next.
	seen        []uint32
	seenGen     uint32
	skipScratch [][2]token.Pos
	rootScratch []uint8
	posScratch  []token.Pos
	outScratch  []int       // a read's nodes, before they are copied out
	valBuf      []byte      // a value's text, compared with a node's values before it is kept
	intArena    []int       // the chunk keepInts copies them into
	free        []*instance // instances ended, for reuse

	// The failure before the test's latest panic, back when it is
	// recovered.
	beforePanic     []int
	beforePanicKind string
}

// memKey names storage: an address, or a map and a key.
type memKey struct {
	addr uint64
	key  string
}

// varRef is a variable that lives at an address: the frame that holds
// it (nil for a package-level variable) and its key.
type varRef struct {
	fr  *frame
	key string
}

// loc is a trace.Loc as the replay keeps it: the map key as its text
// (locKey, elemLabel), small enough for a map to hold in place (a
// trace.Loc is not: each would be an allocation).
type loc struct {
	Kind  trace.LocKind
	Addr  uint64
	Base  uint64
	Index int64
	Key   string // LocKey: the key, as Value.String gives it
}

// locOf returns l as the replay keeps it.
func locOf(l *trace.Loc) loc {
	c := loc{Kind: l.Kind, Addr: l.Addr, Base: l.Base, Index: l.Index}
	if l.Kind == trace.LocKey {
		c.Key = l.Key.String()
	}
	return c
}

// locKey returns the storage a location names.
func locKey(l loc) (memKey, bool) {
	switch l.Kind {
	case trace.LocAddr, trace.LocElem:
		return memKey{addr: l.Addr}, l.Addr != 0
	case trace.LocKey:
		return memKey{addr: l.Base, key: l.Key}, l.Base != 0
	}
	return memKey{}, false
}

// nodeKey identifies a summary node: a name at a position of a file (a
// file's pointer, one per path: hashing it costs less than its path).
type nodeKey struct {
	name string
	file *file
	pos  token.Pos
}

// nodeAt is a node made at a position: its name, file and ID.
type nodeAt struct {
	name string
	file *file
	id   int
}

// nodeID returns the node made for k, if any.
func (b *builder) nodeID(k nodeKey) (int, bool) {
	for _, n := range b.nodes[k.pos] {
		if n.file == k.file && n.name == k.name {
			return n.id, true
		}
	}
	return -1, false
}

type goroutine struct {
	stack []*frame
	ret   int // the return-value node of the call that just returned, -1
	retAt int // its call site, -1 when not known
	panic int // the node of the panic under way, -1
	// A runtime panic (no panic record): the statement that raised it,
	// found as the innermost frame exiting in the middle of a statement
	// that is not a return, -1; unwinding is true while frames exit.
	unwound   int
	unwoundAt int // b.seq when unwound was set
	unwinding bool
	// recovered is the frame whose deferred function recovered a
	// runtime panic, until it exits: it returns normally, its results
	// what its named results hold.
	recovered *frame
	// avoided holds the decisions of ifs whose branch not taken panics,
	// each with the serial of the frame that made it (avoided.go).
	avoided map[int]int
	// calls are the calls made on g and not yet returned, innermost
	// last: the latest is yield's when a range over a function's body
	// starts.
	calls []openCall
}

// openCall is a call under way: its site and the frame making it.
type openCall struct {
	fr   *frame
	site int
}

type frame struct {
	fn     *function
	serial int    // its order among the frames entered, from 1: a name for it no later frame takes
	lex    *frame // the frame of the enclosing function, for closures
	vars   map[string]defSet
	wmem   map[string]map[memKey]bool // variable -> the storage written through it (writes.go)
	// ranged holds, per range unit whose expression calls, what the
	// expression read when the loop started.
	ranged map[int][]int
	// implicit says the frame was entered without an entry record.
	implicit bool
	// fell says the latest statement was a fallthrough: the next case
	// clause's decision record enters its body without testing it.
	fell bool
	cur  *instance
	// units holds, per unit of fn (by id), the sequence number of its
	// latest execution in the frame (0: none yet) and, for a decision,
	// its node then.
	units []unitRun
	tag   int // the latest switch tag node, -1
	ret   int // the return-value node, -1 until a return ran
	call  int // the latest call site entered from this frame, -1
	from  int // the call site that entered this frame, -1
	// A callback: a frame entered by code that is not instrumented, under
	// the call site cbSite (-1: none) of the frame cbOf; its return value
	// goes to that call's value, not to a call of its own.
	cbOf   *frame
	cbSite int
	// cbRets holds, per call site of this frame under way, the return
	// values of the callbacks made under it.
	cbRets map[int]map[int]bool
	check  bool
	// entry is the call that entered the frame, by a frame of
	// instrumented code (entryBy; nil: none known): the statements of
	// the function that no decision of its own controls run because the
	// call ran, so they are control dependent on its node (entryNode,
	// made when first needed; -1 until then), and the call on the
	// decision that made it run (entryCtrl).
	entry     *ast.CallExpr
	entryBy   *frame
	entryCtrl int
	entryNode int
	// potential holds, per variable key, the decision of an if whose
	// branch not taken assigns the variable, since the variable's
	// latest definition in the frame: a read of it depends on that
	// decision too (relevant slicing's potential dependence: a wrong
	// condition that skipped an assignment is in the slice of what the
	// assignment would have changed).
	potential map[string]int
	// The call's arguments that are references (refBy the caller, nil
	// when none), and the writes the call may have made through them
	// (effects.go).
	refArgs []refArg
	refBy   *frame
	effects map[int]bool
}

// instance is one execution of a unit.
type instance struct {
	u       *unit
	lastPos token.Pos
	lastEv  [2]int // tag and site of the latest event
	wrote   map[int]bool
	rets    map[token.Pos]int    // call position -> the callee's return-value node
	cbs     map[token.Pos][]int  // call position -> return values of the callbacks made under the call (code that is not instrumented)
	extra   []int                // nodes it depends on as a whole (received, recovered values)
	values  []namedValue         // the values written, by the write sites' names, in order
	read    readValues           // values read, by position of the read (versioned graphs)
	rloc    map[token.Pos]loc    // storage read, by position of the read
	ops     map[token.Pos]bool   // && and || operands evaluated, by position: their outcome
	opNodes []operandNode        // && and || whose left operand let the right one run
	opDone  map[token.Pos]bool   // && and || (by operator position) whose left outcome is known
	wloc    map[token.Pos]loc    // storage written, by position of the written operand
	calls   map[token.Pos]bool   // calls made (a call record), by end position: true when the callee was entered (instrumented)
	refs    map[token.Pos]string // types of the pointers, slices and maps read, by position of the read
	callIDs map[token.Pos]int    // versioned graphs: the node made for a call into code that is not instrumented, by end position
	yield   [][]int              // a range over a function: what each argument of the iterator's yield call read, nil when not known
	check   bool                 // it calls t.Error and friends in the test itself
	inTest  bool
	decided bool
	stepped bool // a step started it: only the next step (or a second write of one site) ends it
}

func newBuilder(prog *program, test *trace.Test) *builder {
	b := &builder{
		program: prog, test: test, g: &Graph{},
		nodes: map[token.Pos][]nodeAt{}, compactAt: minCompact, edgeCache: new([1 << edgeCacheBits]edgeKey),
		gors: map[int]*goroutine{}, last: map[*function]*frame{},
		global: map[string]defSet{}, chans: map[uint64][]int{}, noted: map[string]bool{}, lastIn: -1,
		mem: map[memKey]defSet{}, vaddr: map[uint64]varRef{}, located: map[int]bool{}, elemOnly: map[int]bool{}, elemN: map[token.Pos]map[string]bool{}, steps: make([]stepTarget, len(prog.sites)), entered: map[int]bool{}, checks: map[int]bool{}, sinkSeen: map[Sink]bool{},
	}
	b.view = &summary{builder: b}
	b.def = b.defNode
	sites := prog.sites
	if test != nil && len(test.Hits) > 0 {
		b.hit = map[*unit]bool{}
		for _, id := range test.Hits {
			if id < len(sites) && sites[id].Kind == trace.KindStmt {
				if f := b.src.file(sites[id].File); f != nil {
					if u := f.unitAt(f.pos(sites[id].Line, sites[id].Col)); u != nil {
						b.hit[u] = true
					}
				}
			}
		}
	}
	paths := make([]string, 0, len(b.src.missing))
	for path := range b.src.missing {
		paths = append(paths, path)
	}
	sort.Strings(paths)
	for _, path := range paths {
		b.note(fmt.Sprintf("%s: %v", filepath.Base(path), b.src.missing[path]))
	}
	return b
}

func (b *builder) note(s string) {
	if !b.noted[s] {
		b.noted[s] = true
		b.g.Notes = append(b.g.Notes, s)
	}
}

// node returns the node for name at pos of f, creating it.
func (b *builder) node(name string, f *file, pos token.Pos, fn *function) int {
	if id, ok := b.nodeID(nodeKey{name, f, pos}); ok {
		return id
	}
	p := f.fset.Position(pos)
	n := &Node{ID: len(b.g.Nodes), Var: name, File: f.path, Line: p.Line, Col: p.Column}
	if fn != nil {
		n.Func = fn.name
	}
	b.g.Nodes = append(b.g.Nodes, n)
	b.nodes[pos] = append(b.nodes[pos], nodeAt{name, f, n.ID})
	return n.ID
}

func (b *builder) edge(from, to int, kind EdgeKind) {
	if from < 0 || to < 0 || from == to && kind == Control {
		return
	}
	k := edgeKey(to)<<34 | edgeKey(kind)<<30 | edgeKey(from)
	// A summary graph has few edges, each made again every time its
	// statements run: a cache of the latest made, by hash, keeps most
	// repeats out of the list (and its sorts).
	slot := &b.edgeCache[uint64(k)*0x9E3779B97F4A7C15>>(64-edgeCacheBits)]
	if *slot == k+1 {
		return
	}
	*slot = k + 1
	b.edges = append(b.edges, k)
	if len(b.edges) >= b.compactAt {
		b.compactEdges()
	}
}

// edgeCacheBits is the log2 of builder.edgeCache's slots.
const edgeCacheBits = 13

// minCompact is the fewest edges compacted at once.
const minCompact = 1 << 12

// compactEdges sorts the edges made and drops those made twice; the next
// compaction comes when they are twice as many.
func (b *builder) compactEdges() {
	slices.Sort(b.edges)
	b.edges = slices.Compact(b.edges)
	b.compactAt = max(2*len(b.edges), minCompact)
}

// edgeKey is an edge packed in a word, sorted as the graph's edges are
// (by To, Kind and From): its nodes in 30 bits each, its kind in 4.
type edgeKey uint64

func (k edgeKey) edge() Edge {
	return Edge{From: int(k & (1<<30 - 1)), To: int(k >> 34), Kind: EdgeKind(k >> 30 & 15)}
}

func (b *builder) value(id int, v trace.Value) {
	n := b.g.Nodes[id]
	if len(n.Values) >= MaxValues {
		return // v is one of them or left out
	}
	b.valBuf = v.AppendString(b.valBuf[:0])
	for _, x := range n.Values {
		if x == string(b.valBuf) {
			return
		}
	}
	n.Values = append(n.Values, string(b.valBuf))
}

func (b *builder) gor(id int) *goroutine {
	g := b.gors[id]
	if g == nil {
		g = &goroutine{ret: -1, retAt: -1, panic: -1, unwound: -1}
		b.gors[id] = g
	}
	return g
}
