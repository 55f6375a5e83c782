package report

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/culprit-go/culprit/deps"
	"github.com/culprit-go/culprit/source"
)

// SliceInfo says where a slice comes from, for the renderers' headers.
type SliceInfo struct {
	Root    string // module root: files are shown relative to it
	Package string
	Test    string
	Outcome string
	// Files are the source files the replay read (deps.Run.Files): the
	// code views read them from it; nil reads them anew.
	Files *source.Set
}

// rel returns file relative to root, slash-separated, when it is under it.
func (i SliceInfo) rel(file string) string {
	if i.Root != "" {
		if r, err := filepath.Rel(i.Root, file); err == nil && !strings.HasPrefix(r, "..") {
			return filepath.ToSlash(r)
		}
	}
	return filepath.ToSlash(file)
}

// sliceLoc formats where n is as seen from a line of file: "(12)", or
// "(other.go:12)" in another file.
func (i SliceInfo) sliceLoc(n *deps.Node, file string) string {
	if n.File == file {
		return "(" + strconv.Itoa(n.Line) + ")"
	}
	return "(" + i.rel(n.File) + ":" + strconv.Itoa(n.Line) + ")"
}

// annotation returns the dependencies of the slice's nodes on one line:
// "<= y (12), z (12); <- <test> (5)" backward, "=> ...; -> ..." forward.
func annotation(s *deps.Slice, info SliceInfo, nodes []*deps.Node) string {
	var data, ctrl []string
	seen := map[string]bool{}
	for _, n := range nodes {
		edges := s.Graph.In(n.ID)
		if s.Forward {
			edges = s.Graph.Out(n.ID)
		}
		for _, e := range edges {
			other := e.From
			if s.Forward {
				other = e.To
			}
			if !s.Nodes[other] {
				continue
			}
			m := s.Graph.Nodes[other]
			text := m.Var + " " + info.sliceLoc(m, n.File)
			if seen[e.Kind.String()+text] {
				continue
			}
			seen[e.Kind.String()+text] = true
			if e.Kind == deps.Control {
				ctrl = append(ctrl, text)
			} else {
				data = append(data, text)
			}
		}
	}
	dataOp, ctrlOp := "<=", "<-"
	if s.Forward {
		dataOp, ctrlOp = "=>", "->"
	}
	var parts []string
	if len(data) > 0 {
		parts = append(parts, dataOp+" "+strings.Join(data, ", "))
	}
	if len(ctrl) > 0 {
		parts = append(parts, ctrlOp+" "+strings.Join(ctrl, ", "))
	}
	return strings.Join(parts, "; ")
}

// sliceSpan is a range of lines of one file holding slice nodes of one or
// more functions.
type sliceSpan struct {
	file        string
	funcs       []string
	first, last int
}

// sliceSpans groups the slice's nodes by function and merges functions whose
// lines overlap (closures inside their parent).
func sliceSpans(nodes []*deps.Node) []sliceSpan {
	byFunc := map[[2]string]*sliceSpan{}
	var keys [][2]string
	for _, n := range nodes {
		k := [2]string{n.File, n.Func}
		sp := byFunc[k]
		if sp == nil {
			sp = &sliceSpan{file: n.File, funcs: []string{n.Func}, first: n.Line, last: n.Line}
			byFunc[k] = sp
			keys = append(keys, k)
		}
		sp.first = min(sp.first, n.Line)
		sp.last = max(sp.last, n.Line)
	}
	var out []sliceSpan
	for _, k := range keys {
		out = append(out, *byFunc[k])
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].file != out[j].file {
			return out[i].file < out[j].file
		}
		return out[i].first < out[j].first
	})
	var merged []sliceSpan
	for _, sp := range out {
		if n := len(merged); n > 0 && merged[n-1].file == sp.file && sp.first <= merged[n-1].last {
			merged[n-1].last = max(merged[n-1].last, sp.last)
			merged[n-1].funcs = append(merged[n-1].funcs, sp.funcs...)
			continue
		}
		merged = append(merged, sp)
	}
	return merged
}

// SliceCode writes the seed's code view of a slice: for each function
// with nodes in the slice, its lines from the first to the last such
// node, slice lines marked "*" and annotated with their dependencies.
func SliceCode(w io.Writer, s *deps.Slice, info SliceInfo) error {
	nodes := s.Sorted()
	src := newSources(info.Root, nil, info.Files)
	byLine := map[string]map[int][]*deps.Node{}
	for _, n := range nodes {
		if byLine[n.File] == nil {
			byLine[n.File] = map[int][]*deps.Node{}
		}
		byLine[n.File][n.Line] = append(byLine[n.File][n.Line], n)
	}
	var b strings.Builder
	for i, sp := range sliceSpans(nodes) {
		if i > 0 {
			b.WriteString("\n")
		}
		names := make([]string, len(sp.funcs))
		for i, fn := range sp.funcs {
			names[i] = funcLabel(fn, "")
		}
		fmt.Fprintf(&b, "// %s: %s\n", info.rel(sp.file), strings.Join(names, ", "))
		lines := src.lines(sp.file)
		for l := sp.first; l <= sp.last; l++ {
			text := ""
			if l-1 < len(lines) {
				text = strings.TrimRight(lines[l-1], " ")
			}
			mark := " "
			ns := byLine[sp.file][l]
			if len(ns) > 0 {
				mark = "*"
			}
			line := fmt.Sprintf("%s %4d %s", mark, l, text)
			if a := annotation(s, info, ns); a != "" {
				line += "  // " + a
			}
			b.WriteString(line + "\n")
		}
	}
	writeSinks(&b, s, info, "// ")
	_, err := io.WriteString(w, b.String())
	if err != nil {
		return fmt.Errorf("write code view: %w", err)
	}
	return nil
}

// writeSinks lists, for a forward slice, the sinks the criterion
// reached: "log fmt.Println (main.go:12)".
func writeSinks(b *strings.Builder, s *deps.Slice, info SliceInfo, prefix string) {
	if !s.Forward {
		return
	}
	sinks := s.Sinks()
	if len(sinks) == 0 {
		return
	}
	fmt.Fprintf(b, "\n%ssinks reached:\n", prefix)
	for _, k := range sinks {
		n := s.Graph.Nodes[k.Node]
		fmt.Fprintf(b, "%s    %-6s %s (%s:%d)\n", prefix, k.Kind, k.Call, info.rel(n.File), n.Line)
	}
}

// SliceDeps writes the seed's textual dependency list: per function, each
// node of the slice with its dependencies.
func SliceDeps(w io.Writer, s *deps.Slice, info SliceInfo) error {
	var b strings.Builder
	cur := ""
	for _, n := range s.Sorted() {
		if k := info.rel(n.File) + " " + n.Func; k != cur {
			cur = k
			fmt.Fprintf(&b, "%s (%s):\n", funcLabel(n.Func, "()"), info.rel(n.File))
		}
		line := fmt.Sprintf("    %s (%d)", n.Var, n.Line)
		if a := annotation(s, info, []*deps.Node{n}); a != "" {
			line += " " + a
		}
		b.WriteString(line + "\n")
	}
	writeSinks(&b, s, info, "")
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("write dependencies: %w", err)
	}
	return nil
}

// SliceDOT writes the slice as a Graphviz graph: nodes labelled with
// their variable and line, clustered by function; data edges solid
// black, control edges dashed grey, each pointing from what influences to
// what it influences.
func SliceDOT(w io.Writer, s *deps.Slice, info SliceInfo) error {
	var b strings.Builder
	b.WriteString("digraph slice {\n")
	b.WriteString("  node [shape=box, style=rounded, fontname=\"Helvetica\"];\n")
	crit := map[int]bool{}
	for _, c := range s.Criterion {
		crit[c] = true
	}
	clusters := map[string][]*deps.Node{}
	var order []string
	for _, n := range s.Sorted() {
		k := info.rel(n.File) + ": " + n.Func
		if clusters[k] == nil {
			order = append(order, k)
		}
		clusters[k] = append(clusters[k], n)
	}
	for i, k := range order {
		fmt.Fprintf(&b, "  subgraph cluster_%d {\n    label=%s;\n", i, strconv.Quote(funcLabel(k, "()")))
		for _, n := range clusters[k] {
			attrs := fmt.Sprintf("label=%s", strconv.Quote(fmt.Sprintf("%s\n%s:%d", n.Var, filepath.Base(n.File), n.Line)))
			if crit[n.ID] {
				attrs += ", penwidth=2"
			}
			fmt.Fprintf(&b, "    n%d [%s];\n", n.ID, attrs)
		}
		b.WriteString("  }\n")
	}
	for _, e := range s.Edges() {
		style := ""
		if e.Kind == deps.Control {
			style = " [style=dashed, color=grey]"
		}
		fmt.Fprintf(&b, "  n%d -> n%d%s;\n", e.From, e.To, style)
	}
	b.WriteString("}\n")
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("write dot: %w", err)
	}
	return nil
}

// SliceJSON is the JSON output of culprit slice: a contract, documented
// in docs/slice.md. Fields are added, never renamed or removed, within a
// schema version.
type SliceJSON struct {
	Schema    int             `json:"schema"` // 1
	Package   string          `json:"package"`
	Test      string          `json:"test"`
	Outcome   string          `json:"outcome"`
	Direction string          `json:"direction"` // "backward" or "forward"
	Criterion []int           `json:"criterion"` // node ids
	Nodes     []SliceJSONNode `json:"nodes"`
	Edges     []SliceJSONEdge `json:"edges"`
	Lines     []SliceJSONLine `json:"lines"` // source lines holding nodes of the slice
	Notes     []string        `json:"notes"`
	Sinks     []SliceJSONSink `json:"sinks"` // forward: the sinks reached; [] backward
}

// SliceJSONSink is a sink a forward slice reached.
type SliceJSONSink struct {
	Node int    `json:"node"`
	Kind string `json:"kind"` // "log", "file", "write" or "return"
	Call string `json:"call"` // the callee as written, or the function returning
	File string `json:"file"`
	Line int    `json:"line"`
}

// SliceJSONNode is a node of a SliceJSON.
type SliceJSONNode struct {
	ID       int      `json:"id"`
	Var      string   `json:"var"`
	File     string   `json:"file"` // relative to the module root, slash-separated
	Line     int      `json:"line"`
	Column   int      `json:"column"`
	Function string   `json:"function"`
	Values   []string `json:"values"` // distinct values it held (at most 4)
	Count    int      `json:"count"`  // how many times it was defined
}

// SliceJSONEdge is an edge of a SliceJSON: To depends on From.
type SliceJSONEdge struct {
	From int    `json:"from"`
	To   int    `json:"to"`
	Kind string `json:"kind"` // "data" or "control"
}

// SliceJSONLine is a source line of a SliceJSON.
type SliceJSONLine struct {
	File string `json:"file"`
	Line int    `json:"line"`
}

// NewSliceJSON returns the JSON form of a slice.
func NewSliceJSON(s *deps.Slice, info SliceInfo) *SliceJSON {
	out := &SliceJSON{Schema: 1, Package: info.Package, Test: info.Test, Outcome: info.Outcome, Direction: "backward",
		Criterion: append([]int{}, s.Criterion...), Nodes: []SliceJSONNode{}, Edges: []SliceJSONEdge{}, Lines: []SliceJSONLine{},
		Notes: append([]string{}, s.Graph.Notes...)}
	out.Sinks = []SliceJSONSink{}
	if s.Forward {
		out.Direction = "forward"
		for _, k := range s.Sinks() {
			n := s.Graph.Nodes[k.Node]
			out.Sinks = append(out.Sinks, SliceJSONSink{k.Node, k.Kind, k.Call, info.rel(n.File), n.Line})
		}
	}
	sort.Ints(out.Criterion)
	seen := map[SliceJSONLine]bool{}
	for _, n := range s.Sorted() {
		vals := append([]string{}, n.Values...)
		out.Nodes = append(out.Nodes, SliceJSONNode{n.ID, n.Var, info.rel(n.File), n.Line, n.Col, n.Func, vals, n.Count})
		l := SliceJSONLine{info.rel(n.File), n.Line}
		if !seen[l] {
			seen[l] = true
			out.Lines = append(out.Lines, l)
		}
	}
	for _, e := range s.Edges() {
		out.Edges = append(out.Edges, SliceJSONEdge{e.From, e.To, e.Kind.String()})
	}
	return out
}

// SliceJSONTo writes the JSON form of a slice, indented, with "<" and
// ">" of pseudo-variables left as they are.
func SliceJSONTo(w io.Writer, s *deps.Slice, info SliceInfo) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(NewSliceJSON(s, info)); err != nil {
		return fmt.Errorf("write slice: %w", err)
	}
	return nil
}

// CheckedJSON is the JSON form of checked coverage (culprit slice
// -checked; schema in docs/slice.md).
type CheckedJSON struct {
	Schema   int                  `json:"schema"`
	Packages []CheckedJSONPackage `json:"packages"`
}

// CheckedJSONPackage is one package's checked coverage: statements
// executed by some test of it, and those checked by some test.
type CheckedJSONPackage struct {
	Package   string            `json:"package"`
	Executed  int               `json:"executed"`
	Checked   int               `json:"checked"`
	Fraction  float64           `json:"fraction"`
	Tests     []CheckedJSONTest `json:"tests"`
	Unchecked []CheckedJSONLine `json:"unchecked"`
}

// CheckedJSONTest is one test's checked coverage.
type CheckedJSONTest struct {
	Test      string            `json:"test"`
	Outcome   string            `json:"outcome"`
	Executed  int               `json:"executed"`
	Checked   int               `json:"checked"`
	Fraction  float64           `json:"fraction"`
	Unchecked []CheckedJSONLine `json:"unchecked"`
}

// CheckedJSONLine is a statement by its first line, with its source text.
type CheckedJSONLine struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Text string `json:"text"`
}

// NewCheckedJSON groups tests' checked coverage by package.
func NewCheckedJSON(covs []*deps.Coverage, info SliceInfo) *CheckedJSON {
	out := &CheckedJSON{Schema: 1, Packages: []CheckedJSONPackage{}}
	files := info.Files
	if files == nil {
		files = source.New(nil)
	}
	text := func(l deps.Line) string {
		if f, err := files.File(l.File); err == nil {
			return strings.TrimSpace(f.Line(l.Line))
		}
		return ""
	}
	conv := func(ls []deps.Line) []CheckedJSONLine {
		out := []CheckedJSONLine{}
		for _, l := range ls {
			out = append(out, CheckedJSONLine{info.rel(l.File), l.Line, text(l)})
		}
		return out
	}
	frac := func(c, e int) float64 {
		if e == 0 {
			return 0
		}
		return math.Round(float64(c)/float64(e)*10000) / 10000
	}
	index := map[string]int{}
	exec := map[string]map[deps.Line]bool{}
	checked := map[string]map[deps.Line]bool{}
	for _, c := range covs {
		i, ok := index[c.Package]
		if !ok {
			i = len(out.Packages)
			index[c.Package] = i
			out.Packages = append(out.Packages, CheckedJSONPackage{Package: c.Package, Tests: []CheckedJSONTest{}})
			exec[c.Package], checked[c.Package] = map[deps.Line]bool{}, map[deps.Line]bool{}
		}
		p := &out.Packages[i]
		p.Tests = append(p.Tests, CheckedJSONTest{c.Test, c.Outcome.String(), len(c.Executed), len(c.Checked),
			frac(len(c.Checked), len(c.Executed)), conv(c.Unchecked())})
		for _, l := range c.Executed {
			exec[c.Package][l] = true
		}
		for _, l := range c.Checked {
			checked[c.Package][l] = true
		}
	}
	for i := range out.Packages {
		p := &out.Packages[i]
		var un []deps.Line
		for l := range exec[p.Package] {
			if !checked[p.Package][l] {
				un = append(un, l)
			}
		}
		sort.Slice(un, func(i, j int) bool {
			if un[i].File != un[j].File {
				return un[i].File < un[j].File
			}
			return un[i].Line < un[j].Line
		})
		p.Executed, p.Checked = len(exec[p.Package]), len(checked[p.Package])
		p.Fraction = frac(p.Checked, p.Executed)
		p.Unchecked = conv(un)
	}
	return out
}

// CheckedJSONTo writes checked coverage as indented JSON.
func CheckedJSONTo(w io.Writer, covs []*deps.Coverage, info SliceInfo) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(NewCheckedJSON(covs, info)); err != nil {
		return fmt.Errorf("write checked coverage: %w", err)
	}
	return nil
}

// CheckedText writes checked coverage as text: per package, each test's
// checked and executed statements, the package's, and the statements
// some test executed that no test checked.
func CheckedText(w io.Writer, covs []*deps.Coverage, info SliceInfo) error {
	cj := NewCheckedJSON(covs, info)
	var b strings.Builder
	for i, p := range cj.Packages {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "%s: checked coverage %d/%d statements (%.1f%%)\n", p.Package, p.Checked, p.Executed, p.Fraction*100)
		width := 0
		for _, t := range p.Tests {
			width = max(width, len(t.Test))
		}
		for _, t := range p.Tests {
			fmt.Fprintf(&b, "    %-*s  %4d/%-4d %5.1f%%  %s\n", width, t.Test, t.Checked, t.Executed, t.Fraction*100, t.Outcome)
		}
		if len(p.Unchecked) > 0 {
			b.WriteString("  executed but never checked:\n")
			for _, l := range p.Unchecked {
				fmt.Fprintf(&b, "    %s:%d: %s\n", l.File, l.Line, l.Text)
			}
		}
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("write checked coverage: %w", err)
	}
	return nil
}

// funcLabel names a slice's function, with suffix ("()"), or its
// package-level variables' declarations (nodes of no function).
func funcLabel(fn, suffix string) string {
	if fn == "" {
		return "package-level variables"
	}
	return fn + suffix
}
