package deps

import (
	"go/ast"
	"path/filepath"
	"sort"
	"strings"

	"github.com/culprit-go/culprit/trace"
)

// checkNodes fills Graph.Checks: the check calls made and the decisions
// guarding the check statements of test files. A check statement is a
// call statement of a _test.go file to t.Error*, t.Fatal*, t.Fail* or to
// a helper of a _test.go file holding a check statement.
func (b *builder) checkNodes() {
	if b.ver != nil {
		return
	}
	var files []*file
	for _, f := range b.src.files {
		if strings.HasSuffix(f.path, "_test.go") {
			files = append(files, f)
		}
	}
	sort.Slice(files, func(i, j int) bool { return files[i].path < files[j].path })
	helpers := map[string]bool{}
	isCheckStmt := func(u *unit) bool {
		if u.kind != UnitSimple {
			return false
		}
		es, ok := u.node.(*ast.ExprStmt)
		if !ok {
			return false
		}
		c, ok := ast.Unparen(es.X).(*ast.CallExpr)
		if !ok {
			return false
		}
		name := u.fn.file.text(c.Fun)
		return isCheck(name) || helpers[name[strings.LastIndexByte(name, '.')+1:]]
	}
	for changed := true; changed; {
		changed = false
		for _, f := range files {
			for _, fn := range f.funcs {
				short := fn.name[strings.LastIndexByte(fn.name, '.')+1:]
				if helpers[short] || fn.parent != nil || strings.HasPrefix(short, "Test") {
					continue
				}
				for _, u := range fn.units {
					if isCheckStmt(u) {
						helpers[short], changed = true, true
						break
					}
				}
			}
		}
	}
	set := map[int]bool{}
	for id := range b.checks {
		set[id] = true
	}
	for _, f := range files {
		for _, fn := range f.funcs {
			for _, u := range fn.units {
				if !isCheckStmt(u) {
					continue
				}
				if id, ok := b.nodes[nodeKey{exprName(f, u.node.(*ast.ExprStmt).X), f.path, u.pos}]; ok {
					set[id] = true
				}
				for _, c := range u.ctrl {
					cu := fn.units[c]
					if id, ok := b.nodes[nodeKey{decisionName(cu), f.path, cu.pos}]; ok {
						set[id] = true
					}
				}
			}
		}
	}
	for id := range set {
		b.g.Checks = append(b.g.Checks, id)
	}
	sort.Ints(b.g.Checks)
}

// Line is a source line.
type Line struct {
	File string // absolute path
	Line int
}

// Coverage is one test's checked coverage: of the statements it executed,
// those in the backward slice of its checks.
type Coverage struct {
	Package string
	Test    string
	Outcome trace.Outcome
	// Executed and Checked are statements by their first line, sorted;
	// Checked is a subset of Executed.
	Executed []Line
	Checked  []Line
	Notes    []string
}

// Fraction is len(Checked)/len(Executed), 0 when nothing ran.
func (c *Coverage) Fraction() float64 {
	if len(c.Executed) == 0 {
		return 0
	}
	return float64(len(c.Checked)) / float64(len(c.Executed))
}

// Unchecked returns the executed statements not checked.
func (c *Coverage) Unchecked() []Line {
	in := map[Line]bool{}
	for _, l := range c.Checked {
		in[l] = true
	}
	var out []Line
	for _, l := range c.Executed {
		if !in[l] {
			out = append(out, l)
		}
	}
	return out
}

// CheckedCoverage computes the checked coverage of every leaf test of
// the trace (Schuler and Zeller): for each, the statements it executed
// (its spectrum's statement sites, by line) and those among them holding
// a node of the backward slice of its checks (Graph.Checks). Statements
// of files that are not under the module root (root "" for any) are
// left out. Tests come in the trace's order.
func CheckedCoverage(tr *trace.Trace, root string) ([]*Coverage, error) {
	var out []*Coverage
	for _, p := range tr.Processes {
		parents := map[int]bool{}
		for _, t := range p.Tests {
			parents[t.Parent] = true
		}
		for _, t := range p.Tests {
			if t.ID == 0 || t.Name == "" || parents[t.ID] || t.Kind != trace.TestFunc {
				continue
			}
			r, err := build(tr, p, t, Options{})
			if err != nil {
				return nil, err
			}
			c := &Coverage{Package: p.Package, Test: t.Name, Outcome: t.Outcome, Notes: r.Notes}
			lines := map[Line]bool{}
			for id := range r.Backward(r.Checks...).Nodes {
				n := r.Nodes[id]
				lines[Line{n.File, n.Line}] = true
			}
			seen := map[Line]bool{}
			for _, id := range t.Hits {
				if id >= len(tr.Sites.Sites) {
					continue
				}
				s := tr.Sites.Sites[id]
				if s.Kind != trace.KindStmt || !under(root, s.File) {
					continue
				}
				l := Line{s.File, s.Line}
				if seen[l] {
					continue
				}
				seen[l] = true
				c.Executed = append(c.Executed, l)
				if lines[l] {
					c.Checked = append(c.Checked, l)
				}
			}
			sortLines(c.Executed)
			sortLines(c.Checked)
			out = append(out, c)
		}
	}
	return out, nil
}

func under(root, file string) bool {
	if root == "" {
		return true
	}
	r, err := filepath.Rel(root, file)
	return err == nil && !strings.HasPrefix(r, "..")
}

func sortLines(ls []Line) {
	sort.Slice(ls, func(i, j int) bool {
		if ls[i].File != ls[j].File {
			return ls[i].File < ls[j].File
		}
		return ls[i].Line < ls[j].Line
	})
}
