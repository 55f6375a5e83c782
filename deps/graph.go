package deps

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// EdgeKind says why one node depends on another.
type EdgeKind uint8

// Edge kinds.
const (
	Data    EdgeKind = iota // the dependent read a value the source wrote
	Control                 // the dependent ran because of the source's decision
)

func (k EdgeKind) String() string {
	if k == Control {
		return "control"
	}
	return "data"
}

// Node is a variable or pseudo-variable at a site: what one statement (or
// condition, or function entry) defined, summed over its executions in
// the run.
type Node struct {
	ID     int
	Var    string   // "x", "p.f", "s[i]", "<test>", "<Middle() return value>", "<t.Errorf()>"
	File   string   // absolute path
	Line   int      // 1-based
	Col    int      // 1-based, in bytes
	Func   string   // short name of the enclosing function: "Middle", "T.M", "TestX.func1"
	Values []string // distinct values it held, at most MaxValues, in order of appearance
	Count  int      // how many times it was defined

	// The versioned view's own fields, zero in summary graphs.
	Versioned
}

// Versioned is what a node of an execution-level graph
// (Options.Versions) holds besides its variable and site: the versioned
// view's fields (versions.go).
type Versioned struct {
	Version int    // the how-manieth definition of Var in Func this is, from 0
	Seq     int    // order in the run of its (latest) definition, from 1 (0 in summary graphs); see MaxVersions
	Const   bool   // an unnamed constant: Var is its literal ("10", `"boat"`)
	Call    bool   // a call into code that is not instrumented: Var is the call ("len(xs)")
	Elem    string // an element or field node ("xs[3]", "res[0]", "p.name"): the collection's or object's name
	Input   bool   // an element read that no instrumented code wrote: a value the computation took in
	Arg     string // a parameter: the source of the argument it received ("os.Stdout"), when the call is known
}

// MaxValues is the number of distinct values a node keeps.
const MaxValues = 4

// Pos returns "file:line:col".
func (n *Node) Pos() string { return n.File + ":" + strconv.Itoa(n.Line) + ":" + strconv.Itoa(n.Col) }

// Pseudo reports whether the node is a pseudo-variable (a condition, a
// return value, a call's effect), not a variable of the program.
func (n *Node) Pseudo() bool { return strings.HasPrefix(n.Var, "<") }

func (n *Node) String() string { return fmt.Sprintf("%s (%s:%d)", n.Var, n.Func, n.Line) }

// Failure kinds (Graph.FailureKind).
const (
	FailureCheck = "check" // a t.Error*/t.Fatal*/t.Fail* call of the test
	FailurePanic = "panic" // the panic the test died of
	FailureLast  = "last"  // the test's last step: no check or panic was recorded
)

// Edge says that To depends on From: From's value flowed into To (Data),
// or From's decision made To run (Control).
type Edge struct {
	From, To int
	Kind     EdgeKind
}

// Graph is a dynamic dependence graph of one run, summarized by site:
// its memory is bounded by the program's size, not by the run's length.
type Graph struct {
	Nodes []*Node
	Edges []Edge // sorted by To, then Kind, then From
	// Criteria found while building: the run's failure point (the last
	// check a failing test made, or the panic) when there is one.
	Failure []int
	// FailureKind says what Failure is: FailureCheck, FailurePanic,
	// FailureLast (the test's last step, when it failed with neither, as
	// from an assertion library's uninstrumented code), or "" (none).
	FailureKind string
	// Raised are the statements that raised a runtime panic (a nil
	// dereference, an index out of range, a failed type assertion) which
	// a deferred function then recovered: a library that turns such
	// panics into errors hides them from the test's output, not from
	// the trace.
	Raised []int
	// Segments are the run cut at its checks, when Options.Segments
	// asked for them and the run has a failing and a passing segment.
	Segments []Segment
	// Checks are the run's checks (summary graphs): the t.Error*,
	// t.Fatal* and t.Fail* calls the test made and the check calls of
	// its test files (and of helpers in them that make such calls) whose
	// guarding conditions ran, as those conditions' nodes: the criterion
	// of checked coverage.
	Checks []int
	// Sinks are the sink calls (log, file and writer writes) the run's
	// statements made, by the statement's node (Slice.Sinks).
	Sinks []Sink
	// Notes says what the engine could not follow (files it could not
	// read, events it could not place).
	Notes []string

	// The edges indexed (index): those into node id are
	// Edges[inAt[id]:inAt[id+1]], those out of it
	// byFrom[outAt[id]:outAt[id+1]], each in Edges' order. Offsets in
	// arrays, not lists in maps: an execution-level graph has millions of
	// edges, and a map of lists held each edge twice more, in as many
	// small allocations as nodes.
	inAt, outAt []int
	byFrom      []Edge
	outOnce     sync.Once // byFrom is laid out when first asked (Out)
}

// NewGraph returns a graph of the given nodes (their IDs are their
// indexes) and edges, indexed: for analyses and tests that build graphs
// of their own.
func NewGraph(nodes []*Node, edges []Edge) *Graph {
	g := &Graph{Nodes: nodes, Edges: edges}
	g.index()
	return g
}

// index sorts the edges and indexes them by node.
func (g *Graph) index() {
	slices.SortFunc(g.Edges, func(a, b Edge) int {
		if a.To != b.To {
			return cmp.Compare(a.To, b.To)
		}
		if a.Kind != b.Kind {
			return cmp.Compare(a.Kind, b.Kind)
		}
		return cmp.Compare(a.From, b.From)
	})
	n := len(g.Nodes)
	for _, e := range g.Edges {
		n = max(n, e.From+1, e.To+1)
	}
	g.inAt, g.outAt = make([]int, n+1), make([]int, n+1)
	for _, e := range g.Edges {
		g.inAt[e.To+1]++
		g.outAt[e.From+1]++
	}
	for i := 1; i <= n; i++ {
		g.inAt[i] += g.inAt[i-1]
		g.outAt[i] += g.outAt[i-1]
	}
	g.outOnce = sync.Once{}
	g.byFrom = nil
}

// layOut sorts a copy of the edges by From for Out: a counting sort,
// stable (each node's edges out stay in Edges' order). Backward slices
// never need it, and it is a third of an indexed graph's memory.
func (g *Graph) layOut() {
	g.byFrom = make([]Edge, len(g.Edges))
	next := slices.Clone(g.outAt[:len(g.outAt)-1])
	for _, e := range g.Edges {
		g.byFrom[next[e.From]] = e
		next[e.From]++
	}
}

// In returns the edges into node id: what it depends on.
func (g *Graph) In(id int) []Edge {
	if id < 0 || id+1 >= len(g.inAt) {
		return nil
	}
	return edgesOf(g.Edges, g.inAt, id)
}

// Out returns the edges out of node id: what depends on it.
func (g *Graph) Out(id int) []Edge {
	if id < 0 || id+1 >= len(g.outAt) {
		return nil
	}
	g.outOnce.Do(g.layOut)
	return edgesOf(g.byFrom, g.outAt, id)
}

// edgesOf returns node id's part of edges indexed by at, nil when empty
// (as the lists of a map were), capped so that appending copies.
func edgesOf(edges []Edge, at []int, id int) []Edge {
	i, j := at[id], at[id+1]
	if i == j {
		return nil
	}
	return edges[i:j:j]
}

// Slice is a set of nodes of a graph reached from a criterion.
type Slice struct {
	Graph     *Graph
	Criterion []int
	Forward   bool         // what the criterion influenced, not what influenced it
	Nodes     map[int]bool // the criterion and every node reached
}

// Backward returns the nodes the criterion depends on, transitively,
// through data and control dependencies.
func (g *Graph) Backward(criterion ...int) *Slice { return g.slice(criterion, false) }

// Forward returns the nodes that depend on the criterion, transitively.
func (g *Graph) Forward(criterion ...int) *Slice { return g.slice(criterion, true) }

func (g *Graph) slice(crit []int, fwd bool) *Slice {
	s := &Slice{Graph: g, Criterion: crit, Forward: fwd, Nodes: map[int]bool{}}
	work := append([]int(nil), crit...)
	for _, c := range crit {
		s.Nodes[c] = true
	}
	for len(work) > 0 {
		n := work[len(work)-1]
		work = work[:len(work)-1]
		edges, next := g.In(n), func(e Edge) int { return e.From }
		if fwd {
			edges, next = g.Out(n), func(e Edge) int { return e.To }
		}
		for _, e := range edges {
			if m := next(e); !s.Nodes[m] {
				s.Nodes[m] = true
				work = append(work, m)
			}
		}
	}
	return s
}

// Sorted returns the slice's nodes by file, line, column and name.
func (s *Slice) Sorted() []*Node {
	var out []*Node
	for id := range s.Nodes {
		out = append(out, s.Graph.Nodes[id])
	}
	SortNodes(out)
	return out
}

// Edges returns the edges between nodes of the slice.
func (s *Slice) Edges() []Edge {
	var out []Edge
	for _, e := range s.Graph.Edges {
		if s.Nodes[e.From] && s.Nodes[e.To] {
			out = append(out, e)
		}
	}
	return out
}

// SortNodes sorts nodes by file, line, column and name.
func SortNodes(ns []*Node) {
	sort.Slice(ns, func(i, j int) bool {
		a, b := ns[i], ns[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Col != b.Col {
			return a.Col < b.Col
		}
		return a.Var < b.Var
	})
}

// Find returns the nodes at file:line (file matched as a suffix on a
// path boundary; col 0 for any column; name "" for any variable).
func (g *Graph) Find(file string, line, col int, name string) []int {
	var out []int
	for _, n := range g.Nodes {
		if n.Line != line || (col != 0 && n.Col != col) || (name != "" && n.Var != name) {
			continue
		}
		if file != "" && !sameFile(n.File, file) {
			continue
		}
		out = append(out, n.ID)
	}
	return out
}

// Returns returns the return-value nodes of the function named fn (its
// short name, "Middle" or "T.M", or a suffix of its full name).
func (g *Graph) Returns(fn string) []int {
	var out []int
	for _, n := range g.Nodes {
		if strings.HasSuffix(n.Var, "() return value>") && (n.Func == fn || strings.HasSuffix(fn, "."+n.Func)) {
			out = append(out, n.ID)
		}
	}
	return out
}

func sameFile(path, name string) bool {
	path = strings.ReplaceAll(path, "\\", "/")
	name = strings.TrimPrefix(strings.ReplaceAll(name, "\\", "/"), "./")
	return path == name || strings.HasSuffix(path, "/"+name)
}
