package flow

import (
	"go/ast"
	"go/token"
	"sort"
	"strconv"
	"strings"

	"github.com/culprit-go/culprit/deps"
	"github.com/culprit-go/culprit/source"
)

// The program's standard streams as the engine sees them: calls into
// code that is not instrumented, named by their source ("sc.Text()",
// "bufio.NewScanner(os.Stdin)") and call statements ("<w.WriteString()>").
// Package flow recognizes reads of standard input and writes to standard
// output from those names, the graph's data edges and the source lines
// the nodes stand at; the engine records no types.

// readKinds name what one call reading standard input through a
// bufio.Scanner or bufio.Reader returns, by method.
var readKinds = map[string]string{
	"Text": "line", "Bytes": "line",
	"ReadString": "line", "ReadBytes": "line", "ReadLine": "line", "ReadSlice": "line",
	"ReadRune": "rune", "ReadByte": "byte",
}

// writeMethods are the methods that write their argument to a writer,
// or encode it to one (json.Encoder, xml.Encoder, gob.Encoder).
var writeMethods = map[string]bool{"Write": true, "WriteString": true, "WriteByte": true, "WriteRune": true, "Encode": true}

// writeFuncs are the functions whose first argument is the writer they
// write to.
var writeFuncs = map[string]bool{"io.Copy": true, "io.CopyN": true, "io.CopyBuffer": true, "io.WriteString": true}

// streams classifies a run's nodes by the standard streams.
type streams struct {
	g   *deps.Graph
	src *sources
	// inputs maps the nodes that are inputs from the program's
	// environment to their names: "stdin line 3" for the third line a
	// scanner or reader over standard input returned, "stdin scan 2"
	// for the second fmt.Scan* call reading it, "stdin" for
	// io.ReadAll(os.Stdin); "" keeps the node's own name
	// ("bufio.NewScanner(os.Stdin)@0", "len(os.Args)@0": calls that read
	// nothing the run computed and name the streams, the arguments or
	// the environment).
	inputs map[int]string
	// values are the values of reads the trace did not record, taken
	// from the variable each was copied into.
	values map[int][]string
	// The walks from each output (dependsOn, through): a mark per node
	// (mark[id] == gen: seen by the current walk), reused from one walk
	// to the next, and the nodes' names, made once.
	mark  []uint32
	gen   uint32
	names []string
	// walkCap bounds the nodes a walk visits (0: no bound); cut holds
	// the outputs whose walks it cut short.
	walkCap int
	cut     map[int]bool
}

// Each output's walks visit at most maxWalks/outputs nodes, and no fewer
// than minWalk: the outputs' lists take time bounded by the graph's size,
// not by the outputs times it (a test's log written in a loop is
// hundreds of outputs, each depending on most of a graph of millions of
// nodes).
var (
	maxWalks = 1 << 24
	minWalk  = 1 << 14
)

// walk starts a walk over the graph: seen reports whether it reached id
// before, marking it.
func (s *streams) walk() (seen func(id int) bool) {
	if s.mark == nil {
		s.mark = make([]uint32, len(s.g.Nodes))
	}
	s.gen++
	return func(id int) bool {
		if s.mark[id] == s.gen {
			return true
		}
		s.mark[id] = s.gen
		return false
	}
}

// nameOf is name(n), made once per node.
func (s *streams) nameOf(n *deps.Node) string {
	if s.names == nil {
		s.names = make([]string, len(s.g.Nodes))
	}
	if s.names[n.ID] == "" {
		s.names[n.ID] = s.name(n)
	}
	return s.names[n.ID]
}

// newStreams finds the inputs read from standard input, the program's
// arguments and environment.
func newStreams(r *deps.Run) *streams {
	g := r.Graph
	s := &streams{g: g, src: &sources{r.Files()}, inputs: map[int]string{}, values: map[int][]string{}, cut: map[int]bool{}}
	split := map[string]bool{} // scanners whose Split was called: they return tokens
	for _, n := range g.Nodes {
		if recv, ok := strings.CutSuffix(n.Var, ".Split()>"); ok && strings.HasPrefix(recv, "<") {
			split[recv[1:]] = true
		}
	}
	type read struct {
		id   int
		kind string
	}
	var reads []read
	for _, n := range g.Nodes {
		if s.scansStdin(n) {
			reads = append(reads, read{n.ID, "scan"})
			continue
		}
		if !n.Call {
			continue
		}
		switch {
		case n.Var == "io.ReadAll(os.Stdin)" || n.Var == "ioutil.ReadAll(os.Stdin)":
			s.inputs[n.ID] = "stdin"
			continue
		case len(g.In(n.ID)) == 0 && (strings.Contains(n.Var, "os.Stdin") || strings.Contains(n.Var, "os.Args") ||
			strings.HasPrefix(n.Var, "flag.Arg") || strings.HasPrefix(n.Var, "os.Getenv(")):
			// A call reading nothing the run computed: what it returns
			// comes from the environment (strconv.Atoi(os.Args[1]) is
			// computed from the input os.Args[1], and stays a call).
			s.inputs[n.ID] = ""
			continue
		}
		recv, method, ok := methodCall(n.Var)
		kind := readKinds[method]
		if !ok || kind == "" || !s.reaches(n.ID, recv, "os.Stdin") {
			continue
		}
		if kind == "line" && split[recv] && (method == "Text" || method == "Bytes") {
			kind = "token"
		}
		reads = append(reads, read{n.ID, kind})
	}
	sort.Slice(reads, func(i, j int) bool { return g.Nodes[reads[i].id].Seq < g.Nodes[reads[j].id].Seq })
	count := map[string]int{}
	for _, r := range reads {
		count[r.kind]++
		s.inputs[r.id] = "stdin " + r.kind + " " + strconv.Itoa(count[r.kind])
		if vals := s.copiedValues(r.id); len(vals) > 0 {
			s.values[r.id] = vals
		}
	}
	return s
}

// scansStdin reports whether n is a call of fmt.Scan, Scanln or Scanf
// (a statement, "<fmt.Scan()>", or a call whose results are used), or of
// fmt.Fscan* from os.Stdin or a reader made over it: the variables it
// scans into depend on it (the engine takes it for a possible write of
// what its pointer arguments point to).
func (s *streams) scansStdin(n *deps.Node) bool {
	callee, _, _ := strings.Cut(strings.TrimPrefix(n.Var, "<"), "(")
	if !n.Call && !(strings.HasPrefix(n.Var, "<") && strings.HasSuffix(n.Var, "()>")) {
		return false
	}
	switch callee {
	case "fmt.Scan", "fmt.Scanln", "fmt.Scanf":
		return true
	case "fmt.Fscan", "fmt.Fscanln", "fmt.Fscanf":
		r := s.src.firstArg(n.File, n.Line, n.Col)
		return r == "os.Stdin" || r != "" && s.reaches(n.ID, r, "os.Stdin")
	}
	return false
}

// copiedValues returns the values of the variable a read was copied
// into unchanged: its first data successor in the source (the first of
// "line, err := r.ReadString('\n')"), when it depends on nothing else.
func (s *streams) copiedValues(id int) []string {
	var first *deps.Node
	for _, e := range s.g.Out(id) {
		n := s.g.Nodes[e.To]
		if e.Kind == deps.Data && (first == nil || n.Line < first.Line || n.Line == first.Line && n.Col < first.Col) {
			first = n
		}
	}
	if first == nil {
		return nil
	}
	n := first
	if n.Call || n.Pseudo() || n.Count > 1 {
		return nil
	}
	for _, e := range s.g.In(n.ID) {
		if e.Kind == deps.Data && e.From != id {
			return nil
		}
	}
	return n.Values
}

// isOutput reports whether the call statement node n writes to standard
// output or error: a Write, WriteString, WriteByte or WriteRune method of
// os.Stdout, os.Stderr or a writer made over them (bufio.NewWriter(os.Stdout)),
// or io.Copy, io.WriteString and friends to one.
//
// n is a call statement ("<w.Write()>") or a call whose results are used
// ("w.Write(b)" in "if _, err := w.Write(b); err != nil").
func (s *streams) isOutput(n *deps.Node) bool {
	var callee string
	if n.Call {
		callee, _, _ = strings.Cut(n.Var, "(")
	} else if c, ok := strings.CutSuffix(n.Var, "()>"); ok && strings.HasPrefix(c, "<") {
		callee = c[1:]
	} else {
		return false
	}
	var w string
	if writeFuncs[callee] {
		// Before methods: io.WriteString is no method of a variable io.
		w = s.src.firstArg(n.File, n.Line, n.Col)
	} else if recv, method, ok := methodCall(callee + "()"); ok && writeMethods[method] {
		w = recv
	}
	switch {
	case w == "":
		return false
	case w == "os.Stdout" || w == "os.Stderr":
		return true
	}
	return s.reaches(n.ID, w, "os.Stdout", "os.Stderr")
}

// reaches reports whether the variable v that node id read was made
// from one of the streams ("os.Stdin", "os.Stdout"): one of v's definitions id
// depends on, or what they were computed from, names the stream, in its
// call ("bufio.NewScanner(os.Stdin)"), on its source line ("in :=
// os.Stdin") or, for a parameter, in the argument it received
// ("report(os.Stdout, x)" for "func report(w io.Writer, x int)").
func (s *streams) reaches(id int, v string, streams ...string) bool {
	var work []int
	for _, e := range s.g.In(id) {
		if n := s.g.Nodes[e.From]; e.Kind == deps.Data && n.Var == v {
			work = append(work, e.From)
		}
	}
	seen := map[int]bool{}
	for len(work) > 0 && len(seen) < 1000 {
		id := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[id] {
			continue
		}
		seen[id] = true
		n := s.g.Nodes[id]
		for _, stream := range streams {
			if strings.Contains(n.Var, stream) || strings.Contains(n.Arg, stream) ||
				!n.Pseudo() && !n.Const && strings.Contains(s.src.line(n.File, n.Line), stream) {
				return true
			}
		}
		for _, e := range s.g.In(id) {
			if e.Kind == deps.Data {
				work = append(work, e.From)
			}
		}
	}
	return false
}

// methodCall splits a call's text "sc.Text()" into its receiver, a plain
// identifier or a package's variable ("sc", "os.Stdout"), and method.
func methodCall(call string) (recv, method string, ok bool) {
	i := strings.IndexByte(call, '(')
	if i < 0 {
		return "", "", false
	}
	fun := call[:i]
	j := strings.LastIndexByte(fun, '.')
	if j <= 0 {
		return "", "", false
	}
	recv, method = fun[:j], fun[j+1:]
	for _, part := range strings.Split(recv, ".") {
		if !token.IsIdentifier(part) {
			return "", "", false
		}
	}
	return recv, method, strings.Count(recv, ".") <= 1
}

// sources are the program's source files for what the graph's names do
// not say: a statement's arguments, a line's text. They are the files
// the replay read (deps.Run.Files), each read once.
type sources struct {
	set *source.Set
}

// file returns a file, nil when it cannot be read.
func (s *sources) file(name string) *source.File {
	f, err := s.set.File(name)
	if err != nil {
		return nil
	}
	return f
}

// line returns the text of a line of a file, "" when it cannot be read.
func (s *sources) line(file string, line int) string {
	if f := s.file(file); f != nil {
		return f.Line(line)
	}
	return ""
}

// callsAt calls yield with each call that starts at file:line:col, the
// outer before the inner ("f(x)(y)", then "f(x)"), until it returns
// false; with none when the file cannot be parsed.
func (s *sources) callsAt(file string, line, col int, yield func(f *source.File, c *ast.CallExpr) bool) {
	f := s.file(file)
	if f == nil {
		return
	}
	af, err := f.Syntax()
	if err != nil {
		return
	}
	done := false
	ast.Inspect(af, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if done || !ok {
			return !done
		}
		if p := f.Position(c.Pos()); p.Line == line && p.Column == col && !yield(f, c) {
			done = true
		}
		return !done
	})
}

// firstArg returns the source of the first argument of the call that
// starts at file:line:col, "" when there is none or the file cannot be
// parsed.
func (s *sources) firstArg(file string, line, col int) string {
	var arg string
	s.callsAt(file, line, col, func(_ *source.File, c *ast.CallExpr) bool {
		if len(c.Args) > 0 {
			if text, ok := exprText(c.Args[0]); ok {
				arg = text
			}
		}
		return arg == ""
	})
	return arg
}

// exprText is the text of an identifier or a selector of one: "w",
// "os.Stdout", "&buf" without its &.
func exprText(e ast.Expr) (string, bool) {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		return x.Name, true
	case *ast.SelectorExpr:
		if id, ok := x.X.(*ast.Ident); ok {
			return id.Name + "." + x.Sel.Name, true
		}
	case *ast.UnaryExpr:
		if x.Op == token.AND {
			return exprText(x.X)
		}
	}
	return "", false
}
