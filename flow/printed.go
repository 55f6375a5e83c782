package flow

import (
	"fmt"
	"go/ast"
	"go/token"
	"strconv"
	"strings"

	"github.com/culprit-go/culprit/deps"
	"github.com/culprit-go/culprit/source"
)

// What a run printed: the calls whose bytes reach the program's standard
// output or error, or the test's log. Where the bytes go decides, not the
// function: fmt.Fprintf(&buf, ...) into a bytes.Buffer (a String method
// building its text) is an intermediate value, which flows into whatever
// later prints the buffer's text; fmt.Fprintf(os.Stderr, ...) and
// fmt.Fprintf(w, ...) with w made over os.Stdout are outputs.

// stdPrinters are the functions that print to standard output or error
// whatever their arguments: fmt.Print*, print, println, and the log
// package's standard logger (standard error).
var stdPrinters = []string{"fmt.Print", "print", "println", "log.Print", "log.Fatal", "log.Panic"}

// logMethods are the methods of a test's *testing.T (B, F) that print to
// its log: in a test file, "t.Errorf(...)" is output.
var logMethods = map[string]bool{"Log": true, "Logf": true, "Error": true, "Errorf": true, "Fatal": true, "Fatalf": true}

// callee returns the function a call statement ("<fmt.Println()>") or a
// call node ("fmt.Fprintf(w, x)") calls, as written: "fmt.Println".
func callee(n *deps.Node) (string, bool) {
	if n.Call {
		c, _, ok := strings.Cut(n.Var, "(")
		return c, ok
	}
	if c, ok := strings.CutSuffix(n.Var, "()>"); ok && strings.HasPrefix(c, "<") {
		return c[1:], true
	}
	return "", false
}

// printed reports whether n is a call that printed to the program's
// standard output or error, or to its test's log.
func (s *streams) printed(n *deps.Node) bool {
	c, ok := callee(n)
	if !ok {
		return false
	}
	for _, p := range stdPrinters {
		if c == p || strings.HasPrefix(c, p) && p != "print" && p != "println" {
			return true
		}
	}
	if strings.HasPrefix(c, "fmt.Fprint") {
		w := s.src.firstArg(n.File, n.Line, n.Col)
		switch {
		case w == "":
			return false // a writer we cannot name: not known to be output
		case w == "os.Stdout" || w == "os.Stderr":
			return true
		}
		return s.reaches(n.ID, w, "os.Stdout", "os.Stderr")
	}
	if !n.Call && strings.HasSuffix(n.File, "_test.go") {
		if recv, method, ok := methodCall(c + "()"); ok && logMethods[method] && token.IsIdentifier(recv) {
			return true
		}
	}
	return s.isOutput(n)
}

// outputName names an output by its source, "fmt.Println(sum)" (the call
// as written, white space collapsed, long calls cut), and the text it
// printed when the trace recorded every argument's value ("5").
func (s *streams) outputName(n *deps.Node) (string, []string) {
	call, text := s.src.callAt(n.File, n.Line, n.Col)
	if call == nil {
		return s.name(n), nil
	}
	text = strings.Join(strings.Fields(text), " ")
	if len(text) > 80 {
		text = text[:77] + "..."
	}
	return text, s.printedText(n, call)
}

// printedText is what a print call printed, rebuilt from the values the
// trace recorded for its arguments (the variables, elements and calls it
// read, and its constants), formatted as the call formats them; nil when
// one is not known.
func (s *streams) printedText(n *deps.Node, call *ast.CallExpr) []string {
	c, _ := callee(n)
	args := call.Args
	method := c[strings.LastIndexByte(c, '.')+1:]
	if strings.HasPrefix(c, "fmt.Fprint") || writeFuncs[c] {
		if len(args) == 0 {
			return nil
		}
		args = args[1:]
	}
	var vals []any
	for _, a := range args {
		v, ok := s.argValue(n, a)
		if !ok {
			return nil
		}
		vals = append(vals, v)
	}
	var out string
	switch {
	case strings.HasSuffix(method, "f"):
		if len(vals) == 0 {
			return nil
		}
		f, ok := vals[0].(string)
		if !ok {
			return nil
		}
		out = fmt.Sprintf(f, vals[1:]...)
	case strings.HasSuffix(method, "ln") || c == "println" || logMethods[method] || strings.HasPrefix(c, "log."):
		out = fmt.Sprintln(vals...)
	case strings.HasPrefix(c, "fmt.") || c == "print":
		out = fmt.Sprint(vals...)
	case len(vals) == 1:
		if str, ok := vals[0].(string); ok {
			out = str // w.WriteString(s), io.WriteString(w, s)
		} else {
			return nil
		}
	default:
		return nil
	}
	out = strings.TrimSuffix(out, "\n")
	if strings.ContainsAny(out, "\n\r\t") {
		out = strconv.Quote(out)
	}
	return []string{out}
}

// argValue is the value an argument of output n had: a literal's, or the
// one value recorded for the node n read it from (matched by its source:
// "sum", "xs[i]" by its collection, "len(xs)"), typed as it prints.
func (s *streams) argValue(n *deps.Node, a ast.Expr) (any, bool) {
	if lit, ok := ast.Unparen(a).(*ast.BasicLit); ok {
		return literal(lit.Value)
	}
	text := s.src.text(n.File, a)
	var elem string
	if ix, ok := ast.Unparen(a).(*ast.IndexExpr); ok {
		elem = s.src.text(n.File, ix.X)
	}
	var found []string
	for _, e := range s.g.In(n.ID) {
		m := s.g.Nodes[e.From]
		if e.Kind != deps.Data || (m.Var != text && (elem == "" || m.Elem != elem)) {
			continue
		}
		vals := s.copied(m)
		if len(vals) != 1 {
			return nil, false
		}
		found = append(found, vals[0])
	}
	if len(found) != 1 {
		return nil, false
	}
	return literal(found[0])
}

// literal types a recorded value as it would print: a quoted string as
// its text, numbers and booleans as themselves; composite values
// ("main.point{...}", "[]int(len 3)") are summaries the trace kept, not
// the value: unknown.
func literal(v string) (any, bool) {
	if s, err := strconv.Unquote(v); err == nil {
		return s, true
	}
	if i, err := strconv.ParseInt(v, 0, 64); err == nil {
		return i, true
	}
	if u, err := strconv.ParseUint(v, 0, 64); err == nil {
		return u, true
	}
	if f, err := strconv.ParseFloat(v, 64); err == nil {
		return f, true
	}
	if b, err := strconv.ParseBool(v); err == nil {
		return b, true
	}
	if v == "nil" || v == "<nil>" {
		return nil, true
	}
	return nil, false
}

// callAt returns the call expression that starts at file:line:col and
// its source text.
func (s *sources) callAt(file string, line, col int) (*ast.CallExpr, string) {
	var call *ast.CallExpr
	var text string
	s.callsAt(file, line, col, func(f *source.File, c *ast.CallExpr) bool {
		call, text = c, f.Text(c)
		return false
	})
	return call, text
}

// text returns the source of a node of a file callAt returned a call of.
func (s *sources) text(file string, n ast.Node) string {
	if f := s.file(file); f != nil {
		return f.Text(n)
	}
	return ""
}

// through lists the variables, elements and fields output id came
// through, by name ("sum", "weights[2]"), each once, nearest first: the
// values on its data edges' walk back to the inputs and constants (not
// the decisions it ran under, nor what they read), not calls or return
// values.
func (s *streams) through(id int) []string {
	g := s.g
	seen := s.walk()
	seen(id)
	names := map[string]bool{}
	var out []string
	queue := []int{id}
	for i := 0; i < len(queue); i++ {
		if i == s.walkCap {
			s.cut[id] = true
			break
		}
		n := queue[i]
		node := g.Nodes[n]
		_, env := s.inputs[n]
		in := g.In(n)
		if n != id && (node.Const || node.Input || env || len(in) == 0) {
			continue // a leaf: DependsOn names it
		}
		if n != id && !node.Pseudo() && !node.Call && !composite(node) && !names[node.Var] {
			names[node.Var] = true
			out = append(out, node.Var)
		}
		for _, e := range in {
			if e.Kind == deps.Data && !seen(e.From) {
				queue = append(queue, e.From)
			}
		}
	}
	return out
}

// copied returns the values recorded for a variable or element node or,
// when none were, for the one value it was copied from ("xs[1]" of
// "xs := []int{x, y}" holds y's value), a few copies back.
func (s *streams) copied(m *deps.Node) []string {
	for range 4 {
		vals := m.Values
		if v, ok := s.values[m.ID]; ok && len(vals) == 0 {
			vals = v
		}
		if len(vals) > 0 || m.Call || m.Pseudo() || m.Const {
			return vals
		}
		var from []int
		for _, e := range s.g.In(m.ID) {
			if e.Kind == deps.Data {
				from = append(from, e.From)
			}
		}
		if len(from) != 1 {
			return nil
		}
		m = s.g.Nodes[from[0]]
	}
	return nil
}
