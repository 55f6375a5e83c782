package flow

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/culprit-go/culprit/deps"
	"github.com/culprit-go/culprit/trace"
)

// Options selects the run, its outputs and how the graph is drawn.
type Options struct {
	// Test names the test whose run to draw; "" picks the first failing
	// leaf test (deps.Options.Test).
	Test string
	// Return makes the output the value returned by the last call of the
	// function named (short name "Query", "T.M"); its elements when the
	// function built the result by appending.
	Return string
	// Call picks which call of Return: the Nth, from 1; 0 is the last.
	Call int
	// Var makes the output the last version of a variable defined at a
	// line: "file:line:name" (file matched as a path suffix).
	Var string
	// NoCond folds decision nodes away, connecting what each decision
	// read to what it controlled.
	NoCond bool
	// Reduce applies transitive reduction: an edge implied by a longer
	// path disappears, and with it the information that the value was
	// used directly.
	Reduce bool
	// Unfold keeps the versions a loop makes at one site apart; by
	// default they are folded into one node with a count.
	Unfold bool
	// Depth keeps the nodes at most this many edges from an output (0:
	// all).
	Depth int
	// Focus keeps the nodes on paths from the nodes named so (a variable,
	// "x", or a version, "x@2") to the outputs.
	Focus string
}

// Kind says what a node of a flow graph stands for.
type Kind string

// Node kinds.
const (
	KindVar       Kind = "var"       // a version of a variable
	KindElem      Kind = "elem"      // an element or field: "xs[3]", "p.name"
	KindInput     Kind = "input"     // an element read that no instrumented code wrote: an input
	KindConst     Kind = "const"     // an unnamed constant, a leaf
	KindCall      Kind = "call"      // a call into code that is not instrumented: "len(xs)"
	KindComposite Kind = "composite" // a composite literal named by its parts: "[x, y]", "Point{x, y}"
	KindDecision  Kind = "decision"  // a condition, switch tag or range step
	KindReturn    Kind = "return"    // a function's return value
	KindEffect    Kind = "effect"    // a call statement: what it printed, reported or sent
)

// Node is one value of the run (or, folded, the values one site made).
type Node struct {
	ID      int
	Name    string // "x@1", "res[0]", "10", "len(xs)", "<test>@3"; "x@1..4" when folded
	Var     string // the variable or pseudo-variable: "x", "<test>", "10"
	Kind    Kind
	Version int // of Var in Func, from 0 (the first when folded)
	File    string
	Line    int
	Col     int
	Func    string   // short name of the function: "Query", "T.M"
	Values  []string // the values it held (one per version, at most deps.MaxValues)
	Count   int      // versions folded into it (1 when not folded)
	Output  bool     // one of the outputs
}

// Edge says that To was computed from From (Data) or ran because of
// From's decision (Control).
type Edge struct {
	From, To int
	Kind     deps.EdgeKind
}

// Output is one output value and the inputs it depends on.
type Output struct {
	Node      int      // the node (its ID in Graph.Nodes)
	Value     string   // the node's name
	Values    []string // what it held
	DependsOn []string // names of the inputs and constants it depends on: sorted, constants last
	Consts    int      // how many of DependsOn, at its end, are constants
	// Through names the variables, elements and fields it came through
	// ("sum", "weights[2]"), nearest first.
	Through []string
}

// Graph is the data-flow graph of a run's outputs.
type Graph struct {
	Package string
	Test    string
	Outcome trace.Outcome
	Outputs []Output
	Nodes   []*Node // sorted by file, line, column, version
	Edges   []Edge  // sorted by To, From, Kind
	// Removed counts the edges transitive reduction removed (Reduce).
	Removed int
	Reduced bool
	Notes   []string
}

// Node returns the node whose ID is id (Output.Node, Edge.From, Edge.To),
// nil when the graph has none: Nodes is sorted by position, not by ID.
func (g *Graph) Node(id int) *Node {
	for _, n := range g.Nodes {
		if n.ID == id {
			return n
		}
	}
	return nil
}

// ErrNoOutput is returned when the run has no output to draw.
var ErrNoOutput = errors.New("the run printed nothing and its test did not fail: name an output with -return or -var")

// Build draws the data-flow graph of the outputs of one test's run.
func Build(tr *trace.Trace, opt Options) (*Graph, error) {
	r, err := deps.Build(tr, deps.Options{Test: opt.Test, Versions: true})
	if err != nil {
		return nil, err // deps says which test it looked for
	}
	return FromRun(r, opt)
}

// FromRun draws the data-flow graph of the outputs of an execution-level
// dependence graph (built with deps.Options.Versions).
func FromRun(r *deps.Run, opt Options) (*Graph, error) {
	st := newStreams(r)
	outs, err := outputs(r, opt, st)
	if err != nil {
		return nil, err
	}
	g := &Graph{Package: r.Package, Test: r.Test, Outcome: r.Outcome, Notes: r.Notes}
	names := map[int]string{}
	sites := map[string]int{}
	st.walkCap = max(minWalk, maxWalks/max(1, len(outs)))
	for _, o := range outs {
		n := r.Nodes[o]
		depends, consts := st.dependsOn(o)
		out := Output{Node: o, Value: st.name(n), Values: n.Values, DependsOn: depends, Consts: consts, Through: st.through(o)}
		if opt.Return == "" && opt.Var == "" {
			if text, vals := st.outputName(n); text != out.Value {
				out.Value = text
				if len(out.Values) == 0 {
					out.Values = vals
				}
			}
		}
		sites[out.Value]++
		g.Outputs = append(g.Outputs, out)
	}
	for i, o := range g.Outputs {
		if n := r.Nodes[o.Node]; sites[o.Value] > 1 && !strings.Contains(o.Value, "@") {
			// One call printed several times (in a loop): its versions.
			g.Outputs[i].Value += "@" + strconv.Itoa(n.Version)
		}
		names[o.Node] = g.Outputs[i].Value
	}
	if len(st.cut) > 0 {
		g.Notes = append(g.Notes, fmt.Sprintf("%d of the %d outputs depend on more than %d nodes: the inputs, constants and variables listed for them are those of the nearest %d (the walks from all outputs are bounded together)",
			len(st.cut), len(outs), st.walkCap, st.walkCap))
	}
	// The graph: everything the outputs depend on.
	keep := r.Backward(outs...).Nodes
	var edges []Edge
	for _, e := range r.Edges {
		if keep[e.From] && keep[e.To] {
			edges = append(edges, Edge{e.From, e.To, e.Kind})
		}
	}
	if opt.NoCond {
		keep, edges = foldDecisions(r.Graph, keep, edges)
	}
	if opt.Reduce {
		var removed int
		var ok bool
		edges, removed, ok = Reduce(edges)
		if ok {
			g.Reduced, g.Removed = true, removed
		} else {
			g.Notes = append(g.Notes, "the graph has a cycle: transitive reduction not applied")
		}
	}
	if opt.Focus != "" {
		keep, edges, err = st.focus(keep, edges, outs, opt.Focus)
		if err != nil {
			return nil, err
		}
	}
	if opt.Depth > 0 {
		keep, edges = depth(keep, edges, outs, opt.Depth)
	}
	isOut := map[int]bool{}
	for _, o := range outs {
		isOut[o] = true
	}
	node := func(id int) *Node {
		n := r.Nodes[id]
		m := &Node{ID: id, Name: st.name(n), Var: n.Var, Kind: st.kind(n), Version: n.Version, File: n.File, Line: n.Line, Col: n.Col,
			Func: n.Func, Values: n.Values, Count: 1, Output: isOut[id]}
		if vals, ok := st.values[id]; ok && len(n.Values) == 0 {
			m.Values = vals
		}
		if nm, ok := names[id]; ok {
			m.Name = nm
		}
		return m
	}
	var nodes map[int]*Node
	if opt.Unfold {
		nodes = map[int]*Node{}
		for id := range keep {
			nodes[id] = node(id)
		}
	} else {
		nodes, edges = st.fold(keep, edges, node, func(id int) bool { return isOut[id] })
	}
	for _, n := range nodes {
		g.Nodes = append(g.Nodes, n)
	}
	sort.Slice(g.Nodes, func(i, j int) bool { return less(g.Nodes[i], g.Nodes[j]) })
	g.Edges = dedupe(edges)
	return g, nil
}

func less(a, b *Node) bool {
	if a.File != b.File {
		return a.File < b.File
	}
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	if a.Col != b.Col {
		return a.Col < b.Col
	}
	if a.Var != b.Var {
		return a.Var < b.Var
	}
	return a.ID < b.ID
}

// name is how a node of the engine's graph is shown: versions of
// variables and pseudo-variables as "x@1", elements, constants and calls
// by what they are.
func name(n *deps.Node) string {
	if n.Const || n.Input || n.Elem != "" && strings.Contains(n.Var, "[") || composite(n) {
		return n.Var
	}
	return n.Var + "@" + strconv.Itoa(n.Version)
}

// name is how a node is shown, inputs from the standard streams by
// what they read ("stdin line 3").
func (s *streams) name(n *deps.Node) string {
	if in := s.inputs[n.ID]; in != "" {
		return in
	}
	return name(n)
}

// kind is what a node stands for, inputs from the program's environment
// being inputs.
func (s *streams) kind(n *deps.Node) Kind {
	if _, ok := s.inputs[n.ID]; ok {
		return KindInput
	}
	return kind(n)
}

// composite reports whether n is a composite literal named by its parts:
// "[x, y, z]", "Point{x, y}".
func composite(n *deps.Node) bool {
	return n.Elem == "" && !n.Call && !n.Const && (strings.HasPrefix(n.Var, "[") || strings.HasSuffix(n.Var, "}"))
}

func kind(n *deps.Node) Kind {
	switch {
	case n.Const:
		return KindConst
	case n.Input:
		return KindInput
	case n.Call:
		return KindCall
	case n.Elem != "":
		return KindElem
	case composite(n):
		return KindComposite
	case n.Var == "<test>" || n.Var == "<switch>":
		return KindDecision
	case strings.HasSuffix(n.Var, "() return value>"):
		return KindReturn
	case strings.HasPrefix(n.Var, "<"):
		return KindEffect
	}
	return KindVar
}

// outputs returns the nodes the graph is drawn for.
func outputs(r *deps.Run, opt Options, st *streams) ([]int, error) {
	switch {
	case opt.Return != "":
		ids := r.Returns(opt.Return)
		if len(ids) == 0 {
			return nil, fmt.Errorf("no return value of %s in the run", opt.Return)
		}
		sort.Slice(ids, func(i, j int) bool { return r.Nodes[ids[i]].Seq < r.Nodes[ids[j]].Seq })
		pick := ids[len(ids)-1]
		if opt.Call > 0 {
			if opt.Call > len(ids) {
				return nil, fmt.Errorf("%s returned %d times in the run, not %d", opt.Return, len(ids), opt.Call)
			}
			pick = ids[opt.Call-1]
		}
		return elements(r.Graph, pick), nil
	case opt.Var != "":
		i := strings.LastIndexByte(opt.Var, ':')
		j := strings.LastIndexByte(opt.Var[:max(i, 0)], ':')
		if i < 0 || j < 0 {
			return nil, fmt.Errorf("-var %q: want FILE:LINE:NAME", opt.Var)
		}
		line, err := strconv.Atoi(opt.Var[j+1 : i])
		if err != nil {
			return nil, fmt.Errorf("-var %q: want FILE:LINE:NAME", opt.Var)
		}
		ids := r.Find(opt.Var[:j], line, 0, opt.Var[i+1:])
		if len(ids) == 0 {
			return nil, fmt.Errorf("nothing named %s defined at %s:%d in the run", opt.Var[i+1:], opt.Var[:j], line)
		}
		last := ids[0]
		for _, id := range ids {
			if r.Nodes[id].Seq > r.Nodes[last].Seq {
				last = id
			}
		}
		return []int{last}, nil
	}
	// What the run printed to its standard output or error, or to the
	// test's log, and the test's failing check or panic.
	var outs []int
	seen := map[int]bool{}
	for _, n := range r.Nodes {
		if st.printed(n) {
			outs = append(outs, n.ID)
			seen[n.ID] = true
		}
	}
	if r.FailureKind == deps.FailureCheck || r.FailureKind == deps.FailurePanic || len(outs) == 0 {
		for _, id := range r.Failure {
			if !seen[id] {
				outs = append(outs, id)
			}
		}
	}
	if len(outs) > 0 {
		return outs, nil
	}
	return nil, ErrNoOutput
}

// elements returns, for a return value whose result was built by
// appending, the elements appended (its records); else the value itself.
func elements(g *deps.Graph, ret int) []int {
	var out []int
	seen := map[int]bool{ret: true}
	var coll string
	work := []int{}
	for _, e := range g.In(ret) {
		if e.Kind == deps.Data {
			n := g.Nodes[e.From]
			if n.Elem == "" && !n.Const && !n.Call && !strings.HasPrefix(n.Var, "<") {
				coll = n.Var
				work = append(work, e.From)
				seen[e.From] = true
			}
		}
	}
	if coll == "" || len(work) != 1 {
		return []int{ret}
	}
	for len(work) > 0 {
		id := work[len(work)-1]
		work = work[:len(work)-1]
		for _, e := range g.In(id) {
			n := g.Nodes[e.From]
			if e.Kind != deps.Data || seen[e.From] {
				continue
			}
			seen[e.From] = true
			switch {
			case n.Elem == coll && !n.Input:
				out = append(out, e.From)
			case n.Var == coll && n.Func == g.Nodes[id].Func:
				work = append(work, e.From)
			}
		}
	}
	if len(out) == 0 {
		return []int{ret}
	}
	sort.Slice(out, func(i, j int) bool { return g.Nodes[out[i]].Seq < g.Nodes[out[j]].Seq })
	return out
}

// dependsOn lists the inputs and constants id depends on: the constants,
// the elements read that no instrumented code wrote (not their whole
// collections), the inputs from the program's environment (the lines read
// from standard input, its arguments) and the values nothing in the run
// defined; and how many of them, at the end, are constants.
func (s *streams) dependsOn(id int) ([]string, int) {
	g := s.g
	seen := s.walk()
	seen(id)
	names := map[string]bool{} // true for constants
	work := []int{id}
	for i := 0; i < len(work); i++ { // nearest first: a walk cut short keeps those
		if i == s.walkCap {
			s.cut[id] = true
			break
		}
		n := work[i]
		in := g.In(n)
		node := g.Nodes[n]
		_, env := s.inputs[n]
		if n != id && (node.Const || node.Input || env || len(in) == 0) {
			names[s.nameOf(node)] = node.Const
			continue
		}
		for _, e := range in {
			if !seen(e.From) {
				work = append(work, e.From)
			}
		}
	}
	var out, consts []string
	for n, c := range names {
		if c {
			consts = append(consts, n)
		} else {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	sort.Strings(consts)
	return append(out, consts...), len(consts)
}

// foldDecisions removes decision nodes, connecting what each read to what
// it controlled (through chains of decisions).
func foldDecisions(g *deps.Graph, keep map[int]bool, edges []Edge) (map[int]bool, []Edge) {
	isDec := func(id int) bool { return kind(g.Nodes[id]) == KindDecision }
	in := map[int][]int{}
	for _, e := range edges {
		in[e.To] = append(in[e.To], e.From)
	}
	memo := map[int][]int{}
	var sources func(id int, depth int) []int
	sources = func(id int, depth int) []int {
		if s, ok := memo[id]; ok {
			return s
		}
		memo[id] = nil // cycles end here
		var out []int
		for _, f := range in[id] {
			if isDec(f) && depth < 64 {
				out = append(out, sources(f, depth+1)...)
			} else {
				out = append(out, f)
			}
		}
		memo[id] = out
		return out
	}
	var res []Edge
	for _, e := range edges {
		if isDec(e.To) {
			continue
		}
		if !isDec(e.From) {
			res = append(res, e)
			continue
		}
		for _, s := range sources(e.From, 0) {
			res = append(res, Edge{s, e.To, deps.Data})
		}
	}
	nk := map[int]bool{}
	for id := range keep {
		if !isDec(id) {
			nk[id] = true
		}
	}
	return nk, dedupe(res)
}

// focus keeps the nodes on paths from the nodes named to the outputs: a
// variable ("x"), a version ("x@2", "stdin line 3") or, as a folded node
// shows them, a range of versions ("x@1..4", "stdin line 1..3").
func (s *streams) focus(keep map[int]bool, edges []Edge, outs []int, nm string) (map[int]bool, []Edge, error) {
	var from []int
	for id := range keep {
		n := s.g.Nodes[id]
		if n.Var == nm || s.name(n) == nm || inRange(s.name(n), nm) {
			from = append(from, id)
		}
	}
	if len(from) == 0 {
		return nil, nil, fmt.Errorf("-focus %s: no such value in the graph", nm)
	}
	fwd := reach(edges, from, true)
	bwd := reach(edges, outs, false)
	nk := map[int]bool{}
	for id := range fwd {
		if bwd[id] {
			nk[id] = true
		}
	}
	return nk, restrict(edges, nk), nil
}

// depth keeps the nodes at most d edges from an output.
func depth(keep map[int]bool, edges []Edge, outs []int, d int) (map[int]bool, []Edge) {
	in := map[int][]int{}
	for _, e := range edges {
		in[e.To] = append(in[e.To], e.From)
	}
	dist := map[int]int{}
	var queue []int
	for _, o := range outs {
		if keep[o] {
			dist[o] = 0
			queue = append(queue, o)
		}
	}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		if dist[n] == d {
			continue
		}
		for _, f := range in[n] {
			if _, ok := dist[f]; !ok && keep[f] {
				dist[f] = dist[n] + 1
				queue = append(queue, f)
			}
		}
	}
	nk := map[int]bool{}
	for id := range dist {
		nk[id] = true
	}
	return nk, restrict(edges, nk)
}

func reach(edges []Edge, from []int, fwd bool) map[int]bool {
	adj := map[int][]int{}
	for _, e := range edges {
		if fwd {
			adj[e.From] = append(adj[e.From], e.To)
		} else {
			adj[e.To] = append(adj[e.To], e.From)
		}
	}
	seen := map[int]bool{}
	work := append([]int(nil), from...)
	for _, f := range from {
		seen[f] = true
	}
	for len(work) > 0 {
		n := work[len(work)-1]
		work = work[:len(work)-1]
		for _, m := range adj[n] {
			if !seen[m] {
				seen[m] = true
				work = append(work, m)
			}
		}
	}
	return seen
}

func restrict(edges []Edge, keep map[int]bool) []Edge {
	var out []Edge
	for _, e := range edges {
		if keep[e.From] && keep[e.To] {
			out = append(out, e)
		}
	}
	return out
}

// dedupe sorts edges by To, From and Kind and removes duplicates.
func dedupe(edges []Edge) []Edge {
	sort.Slice(edges, func(i, j int) bool {
		a, b := edges[i], edges[j]
		if a.To != b.To {
			return a.To < b.To
		}
		if a.From != b.From {
			return a.From < b.From
		}
		return a.Kind < b.Kind
	})
	out := edges[:0]
	for i, e := range edges {
		if i == 0 || e != edges[i-1] {
			out = append(out, e)
		}
	}
	return out
}

// fold merges the versions one site made into one node, with a count:
// of the nodes keep holds, made by node (a node is made for each site,
// not for each version: an execution-level graph has millions).
func (s *streams) fold(keep map[int]bool, edges []Edge, node func(int) *Node, output func(int) bool) (map[int]*Node, []Edge) {
	type site struct {
		v, file  string
		line, cl int
		fn       string
	}
	nodes := map[int]*Node{}
	groups := map[site][]int{}
	for id := range keep {
		n := s.g.Nodes[id]
		if s.kind(n) == KindConst {
			nodes[id] = node(id)
			continue
		}
		k := site{n.Var, n.File, n.Line, n.Col, n.Func}
		groups[k] = append(groups[k], id)
	}
	to := map[int]int{}
	for _, ids := range groups {
		if len(ids) < 2 {
			nodes[ids[0]] = node(ids[0])
			continue
		}
		sort.Ints(ids)
		var ns []*Node // the outputs stay apart
		for _, id := range ids {
			switch {
			case output(id):
				nodes[id] = node(id)
			case len(ns) == 0:
				ns = append(ns, node(id))
			default:
				// What folding reads of the others: made as node
				// would, without the rest.
				n := s.g.Nodes[id]
				vals := n.Values
				if v, ok := s.values[id]; ok && len(vals) == 0 {
					vals = v
				}
				ns = append(ns, &Node{ID: id, Version: n.Version, Values: vals})
			}
		}
		if len(ns) > 1 {
			last := ns[len(ns)-1]
			last.Name = s.name(s.g.Nodes[last.ID])
		}
		if len(ns) < 2 {
			for _, m := range ns {
				nodes[m.ID] = m
			}
			continue
		}
		first := ns[0]
		nodes[first.ID] = first
		minV, maxV := first.Version, first.Version
		for _, n := range ns {
			minV, maxV = min(minV, n.Version), max(maxV, n.Version)
		}
		var vals []string
		seen := map[string]bool{}
		for _, n := range ns {
			for _, v := range n.Values {
				if !seen[v] && len(vals) < deps.MaxValues {
					seen[v] = true
					vals = append(vals, v)
				}
			}
			to[n.ID] = first.ID
		}
		first.Count = len(ns)
		first.Values = vals
		if i := strings.LastIndexByte(first.Name, '@'); i >= 0 {
			// Versions of one site need not come in order (a recursive
			// function's frames number them in turn): their range.
			first.Name = fmt.Sprintf("%s@%d..%d", first.Name[:i], minV, maxV)
			first.Version = minV
		} else if last := ns[len(ns)-1].Name; numbered(first.Name) && numbered(last) {
			first.Name += ".." + last[strings.LastIndexByte(last, ' ')+1:] // "stdin line 1..3"
		}
	}
	m := func(id int) int {
		if t, ok := to[id]; ok {
			return t
		}
		return id
	}
	for i, e := range edges { // in place: the graph's edges are many
		edges[i] = Edge{m(e.From), m(e.To), e.Kind}
	}
	return nodes, edges
}

// numbered reports whether a name ends in a count: "stdin line 3".
func numbered(name string) bool {
	i := strings.LastIndexByte(name, ' ')
	_, err := strconv.Atoi(name[i+1:])
	return i > 0 && err == nil
}

// inRange reports whether name ("x@3", "stdin line 3") is one of the
// range of versions a folded node's name r shows ("x@1..4", "stdin line
// 1..3").
func inRange(name, r string) bool {
	lo, hi, ok := strings.Cut(r, "..")
	if !ok {
		return false
	}
	i := strings.LastIndexAny(lo, "@ ")
	j := strings.LastIndexAny(name, "@ ")
	if i < 0 || j < 0 || lo[:i+1] != name[:j+1] {
		return false
	}
	a, err1 := strconv.Atoi(lo[i+1:])
	b, err2 := strconv.Atoi(hi)
	v, err3 := strconv.Atoi(name[j+1:])
	return err1 == nil && err2 == nil && err3 == nil && a <= v && v <= b
}
