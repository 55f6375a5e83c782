package report

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/culprit-go/culprit/deps"
	"github.com/culprit-go/culprit/flow"
)

// reductionNote is what every output says when transitive reduction ran.
const reductionNote = "transitive reduction removed %d edges: an edge implied by a longer path is not shown, so a value used directly may look used only indirectly"

// FlowText prints each output with what it printed, the variables and
// elements it came through (nearest first, at most maxThrough) and the
// inputs and constants it depends on, constants last, one per line:
// "fmt.Println(sum) = 5 <= sum, weights[2], ..., 0.5, 1.5".
func FlowText(w io.Writer, g *flow.Graph, info SliceInfo) error {
	var b strings.Builder
	for _, o := range g.Outputs {
		b.WriteString(o.Value)
		if len(o.Values) > 0 {
			b.WriteString(" = " + strings.Join(o.Values, " | "))
		}
		leaves := map[string]bool{}
		for _, d := range o.DependsOn {
			leaves[d] = true
		}
		var names []string
		for _, t := range o.Through {
			if !leaves[t] {
				names = append(names, t)
			}
		}
		if len(names) > maxThrough {
			names = append(names[:maxThrough], fmt.Sprintf("(%d more)", len(names)-maxThrough))
		}
		consts := min(max(o.Consts, 0), len(o.DependsOn))
		vars := o.DependsOn[:len(o.DependsOn)-consts]
		names = append(names, bounded(fold(vars), maxLeaves)...)
		names = append(names, bounded(o.DependsOn[len(vars):], maxLeaves)...)
		b.WriteString(" <= " + strings.Join(names, ", "))
		b.WriteByte('\n')
	}
	if g.Reduced {
		fmt.Fprintf(&b, "# "+reductionNote+"\n", g.Removed)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// maxThrough is how many of the variables and elements an output came
// through the text format names (JSON has all).
const maxThrough = 12

// maxLeaves is how many of the values an output depends on the text
// format names, and apart how many of its constants (JSON has all): on
// real code an output can depend on thousands.
const maxLeaves = 24

// foldAt is how many versions of one variable, or elements of one
// collection, among an output's leaves the text format folds into one
// entry.
const foldAt = 3

// bounded keeps the first n of names and says how many more there are.
func bounded(names []string, n int) []string {
	if len(names) <= n {
		return names
	}
	return append(names[:n:n], fmt.Sprintf("(%d more)", len(names)-n))
}

// fold folds the versions of a variable ("state@3", "state@17",
// ...: the values a loop's iterations left, which nothing recorded
// defining) into one entry where there are foldAt or more of them,
// "state@3..537 (4 versions)", and likewise the elements of one
// collection, "m[…] (12 elements)", each in the place of the first; the
// other names stay as they are.
func fold(names []string) []string {
	type group struct {
		at     int // index in out
		lo, hi int // versions
		n      int
	}
	// key is a name's group: "base@" for a version, "base[" for an
	// element, "" for neither.
	key := func(n string) (string, int) {
		if base, v, ok := version(n); ok {
			return base + "@", v
		}
		if i := strings.IndexByte(n, '['); i > 0 && strings.HasSuffix(n, "]") {
			return n[:i+1], 0
		}
		return "", 0
	}
	count := map[string]int{}
	for _, n := range names {
		if k, _ := key(n); k != "" {
			count[k]++
		}
	}
	groups := map[string]*group{}
	var out []string
	for _, n := range names {
		k, v := key(n)
		if k == "" || count[k] < foldAt {
			out = append(out, n)
			continue
		}
		g := groups[k]
		if g == nil {
			g = &group{at: len(out), lo: v, hi: v}
			groups[k] = g
			out = append(out, "")
		}
		g.lo, g.hi = min(g.lo, v), max(g.hi, v)
		g.n++
	}
	for k, g := range groups {
		if strings.HasSuffix(k, "@") {
			out[g.at] = fmt.Sprintf("%s%d..%d (%d versions)", k, g.lo, g.hi, g.n)
		} else {
			out[g.at] = fmt.Sprintf("%s…] (%d elements)", k, g.n)
		}
	}
	return out
}

// version splits "name@N" into name and N.
func version(name string) (string, int, bool) {
	i := strings.LastIndexByte(name, '@')
	if i <= 0 || i == len(name)-1 {
		return "", 0, false
	}
	v, err := strconv.Atoi(name[i+1:])
	if err != nil || v < 0 || strconv.Itoa(v) != name[i+1:] {
		return "", 0, false
	}
	return name[:i], v, true
}

// bigGraph is the number of nodes above which FlowDOT bounds dot's
// layout passes.
const bigGraph = 300

// FlowDOT writes the graph in Graphviz's language: nodes clustered by
// function, edges from what a value was computed from to the value (data
// solid, control dashed grey), outputs bold, constants as plain text,
// decisions as diamonds, inputs as boxes. Above a few hundred nodes it
// bounds dot's layout passes, so that a graph of a thousand nodes renders
// in seconds.
func FlowDOT(w io.Writer, g *flow.Graph, info SliceInfo) error {
	var b strings.Builder
	b.WriteString("digraph flow {\n\trankdir=BT;\n\tnode [fontname=\"Helvetica\", fontsize=10];\n\tedge [arrowsize=0.6];\n")
	title := "data flow of " + g.Test
	if g.Reduced {
		title += "\n" + fmt.Sprintf(reductionNote, g.Removed)
	}
	fmt.Fprintf(&b, "\tlabel=%s;\n\tlabelloc=t;\n", strconv.Quote(title))
	if len(g.Nodes) > bigGraph {
		// dot's crossing minimization and network simplex grow faster
		// than the graph: bounded, a thousand nodes lay out in seconds.
		b.WriteString("\tnslimit=1; nslimit1=1; mclimit=0.1;\n")
	}
	byFunc := map[string][]*flow.Node{}
	var funcs []string
	for _, n := range g.Nodes {
		if _, ok := byFunc[n.Func]; !ok {
			funcs = append(funcs, n.Func)
		}
		byFunc[n.Func] = append(byFunc[n.Func], n)
	}
	sort.Strings(funcs)
	for i, fn := range funcs {
		indent := "\t"
		if fn != "" {
			fmt.Fprintf(&b, "\tsubgraph cluster_%d {\n\t\tlabel=%s;\n\t\tstyle=rounded; color=grey70;\n", i, strconv.Quote(fn))
			indent = "\t\t"
		}
		for _, n := range byFunc[fn] {
			fmt.Fprintf(&b, "%sn%d [%s];\n", indent, n.ID, flowNodeAttrs(n, info))
		}
		if fn != "" {
			b.WriteString("\t}\n")
		}
	}
	for _, e := range g.Edges {
		attrs := ""
		if e.Kind == deps.Control {
			attrs = " [style=dashed, color=grey]"
		}
		fmt.Fprintf(&b, "\tn%d -> n%d%s;\n", e.From, e.To, attrs)
	}
	b.WriteString("}\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func flowNodeAttrs(n *flow.Node, info SliceInfo) string {
	first := n.Name
	if n.Kind == flow.KindDecision {
		first = "?" + strings.TrimPrefix(n.Name, "<test>")
	}
	if n.Count > 1 {
		first += fmt.Sprintf(" ×%d", n.Count)
	}
	lines := []string{first}
	if n.Kind != flow.KindConst && len(n.Values) > 0 && n.Count == 1 {
		lines = append(lines, "= "+n.Values[0])
	}
	if n.Kind != flow.KindConst {
		lines = append(lines, info.rel(n.File)+":"+strconv.Itoa(n.Line))
	}
	attrs := []string{"label=" + dotLines(lines)}
	switch n.Kind {
	case flow.KindConst:
		attrs = append(attrs, "shape=plaintext")
	case flow.KindDecision:
		attrs = append(attrs, "shape=diamond")
	case flow.KindInput:
		attrs = append(attrs, "shape=box", "style=filled", "fillcolor=lightyellow")
	case flow.KindCall:
		attrs = append(attrs, "shape=box", "style=rounded")
	case flow.KindComposite:
		attrs = append(attrs, "shape=tab")
	default:
		attrs = append(attrs, "shape=ellipse")
	}
	if n.Output {
		attrs = append(attrs, "penwidth=2")
	}
	return strings.Join(attrs, ", ")
}

// FlowJSON is the JSON form of a flow graph (schema 1, docs/flow.md).
type FlowJSON struct {
	Schema  int              `json:"schema"`
	Package string           `json:"package"`
	Test    string           `json:"test"`
	Outcome string           `json:"outcome"`
	Outputs []FlowJSONOutput `json:"outputs"`
	Nodes   []FlowJSONNode   `json:"nodes"`
	Edges   []FlowJSONEdge   `json:"edges"`
	Reduced bool             `json:"reduced"`
	Removed int              `json:"removed_edges"`
	Notes   []string         `json:"notes"`
}

// FlowJSONOutput is one output value and what it depends on.
type FlowJSONOutput struct {
	Node      int      `json:"node"`
	Value     string   `json:"value"`
	Values    []string `json:"values"`
	DependsOn []string `json:"depends_on"`
	Through   []string `json:"through"`
}

// FlowJSONNode is one node.
type FlowJSONNode struct {
	ID       int      `json:"id"`
	Name     string   `json:"name"`
	Var      string   `json:"var"`
	Kind     string   `json:"kind"`
	Version  int      `json:"version"`
	Count    int      `json:"count"`
	File     string   `json:"file"`
	Line     int      `json:"line"`
	Column   int      `json:"column"`
	Function string   `json:"function"`
	Values   []string `json:"values"`
	Output   bool     `json:"output"`
}

// FlowJSONEdge is one edge: To depends on From.
type FlowJSONEdge struct {
	From int    `json:"from"`
	To   int    `json:"to"`
	Kind string `json:"kind"`
}

// NewFlowJSON converts a graph to its JSON form.
func NewFlowJSON(g *flow.Graph, info SliceInfo) *FlowJSON {
	j := &FlowJSON{Schema: 1, Package: g.Package, Test: g.Test, Outcome: g.Outcome.String(), Reduced: g.Reduced, Removed: g.Removed,
		Outputs: []FlowJSONOutput{}, Nodes: []FlowJSONNode{}, Edges: []FlowJSONEdge{}, Notes: append([]string{}, g.Notes...)}
	for _, o := range g.Outputs {
		j.Outputs = append(j.Outputs, FlowJSONOutput{o.Node, o.Value, nonNil(o.Values), nonNil(o.DependsOn), nonNil(o.Through)})
	}
	for _, n := range g.Nodes {
		j.Nodes = append(j.Nodes, FlowJSONNode{n.ID, n.Name, n.Var, string(n.Kind), n.Version, n.Count, info.rel(n.File), n.Line, n.Col, n.Func, nonNil(n.Values), n.Output})
	}
	for _, e := range g.Edges {
		j.Edges = append(j.Edges, FlowJSONEdge{e.From, e.To, e.Kind.String()})
	}
	if g.Reduced {
		j.Notes = append(j.Notes, fmt.Sprintf(reductionNote, g.Removed))
	}
	return j
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// FlowJSONTo writes the graph as indented JSON.
func FlowJSONTo(w io.Writer, g *flow.Graph, info SliceInfo) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(NewFlowJSON(g, info))
}

// dotLines quotes lines as one DOT string, a line each: backslashes and
// quotes inside them escaped, so that a value's "\n" stays two
// characters.
func dotLines(lines []string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	for i, l := range lines {
		lines[i] = r.Replace(l)
	}
	return `"` + strings.Join(lines, `\n`) + `"`
}
