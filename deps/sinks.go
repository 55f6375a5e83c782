package deps

import (
	"go/ast"
	"sort"
	"strings"
)

// Sink is a place a value leaves the computation: a log or print call, a
// write to a file or another writer, a function's returned value.
type Sink struct {
	Node int    // the node of the statement making the call, or the return value node
	Kind string // "log", "file", "write" or "return"
	Call string // the callee as written ("fmt.Println", "w.Write"), or the function returning
}

// sinkKind classifies a call by its callee as written (the engine has no
// types): "log" for print and log calls (fmt.Print*, log.*, slog.*,
// print, println, fmt.Fprint* to os.Stdout or os.Stderr, methods Print*,
// Log*, Info*, Warn*, Debug* of any receiver), "file" for os.WriteFile,
// "write" for writes to a writer (Write, WriteString, WriteAt, WriteByte,
// WriteRune, Encode methods, io.WriteString, io.Copy, fmt.Fprint* to
// anything else: a file, a connection or a buffer alike); "" otherwise.
func sinkKind(f *file, c *ast.CallExpr) string {
	name := f.text(c.Fun)
	if strings.ContainsAny(name, " \n\t(") {
		return ""
	}
	last := name[strings.LastIndexByte(name, '.')+1:]
	switch {
	case name == "print" || name == "println" || strings.HasPrefix(name, "log.") || strings.HasPrefix(name, "slog.") ||
		strings.HasPrefix(name, "fmt.Print"):
		return "log"
	case strings.HasPrefix(name, "fmt.Fprint"):
		if len(c.Args) > 0 {
			if w := f.text(c.Args[0]); w == "os.Stdout" || w == "os.Stderr" {
				return "log"
			}
		}
		return "write"
	case name == "os.WriteFile" || name == "ioutil.WriteFile":
		return "file"
	case name == "io.WriteString" || name == "io.Copy":
		return "write"
	case !strings.Contains(name, "."):
		return ""
	}
	switch last {
	case "Write", "WriteString", "WriteAt", "WriteByte", "WriteRune", "Encode":
		return "write"
	}
	for _, p := range []string{"Print", "Log", "Info", "Warn", "Debug"} {
		if strings.HasPrefix(last, p) {
			return "log"
		}
	}
	return ""
}

// sinks records the sink calls of a unit's node (not inside function
// literals) as sinks of id, the unit's first definition.
func (b *builder) sinks(u *unit, id int) {
	if u.sinks == nil {
		u.sinks = []Sink{} // known: none
		f := u.fn.file
		ast.Inspect(u.node, func(m ast.Node) bool {
			switch c := m.(type) {
			case *ast.FuncLit:
				return false
			case *ast.CallExpr:
				if k := sinkKind(f, c); k != "" {
					u.sinks = append(u.sinks, Sink{Kind: k, Call: f.text(c.Fun)})
				}
			}
			return true
		})
	}
	for _, s := range u.sinks {
		s.Node = id
		if !b.sinkSeen[s] {
			b.sinkSeen[s] = true
			b.g.Sinks = append(b.g.Sinks, s)
		}
	}
}

// Sinks returns the sinks the slice's nodes reach: sink calls made by
// statements in the slice, and return values in it, by node position.
func (s *Slice) Sinks() []Sink {
	var out []Sink
	for _, k := range s.Graph.Sinks {
		if s.Nodes[k.Node] {
			out = append(out, k)
		}
	}
	for id := range s.Nodes {
		n := s.Graph.Nodes[id]
		if strings.HasSuffix(n.Var, "() return value>") {
			out = append(out, Sink{Node: id, Kind: "return", Call: n.Func})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := s.Graph.Nodes[out[i].Node], s.Graph.Nodes[out[j].Node]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Col != b.Col {
			return a.Col < b.Col
		}
		return out[i].Call < out[j].Call
	})
	return out
}

// FlowsOnlyFrom checks that the value of target comes only from the
// given sources (the seed's assert_flow): following data dependencies
// back from target, not past a source, every origin reached (a node with
// no data dependency of its own: a parameter no caller fed, a constant,
// an input) must be a source. It returns the origins that are not, nil
// when the value flows only from the sources. Control dependencies are
// not followed: a value decided by a secret but not computed from it
// passes.
func (g *Graph) FlowsOnlyFrom(target []int, sources []int) []*Node {
	src := map[int]bool{}
	for _, s := range sources {
		src[s] = true
	}
	seen := map[int]bool{}
	work := append([]int(nil), target...)
	var bad []*Node
	for len(work) > 0 {
		n := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[n] {
			continue
		}
		seen[n] = true
		if src[n] {
			continue
		}
		data := 0
		for _, e := range g.In(n) {
			if e.Kind == Data {
				data++
				work = append(work, e.From)
			}
		}
		if data == 0 {
			bad = append(bad, g.Nodes[n])
		}
	}
	SortNodes(bad)
	return bad
}
