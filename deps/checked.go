package deps

import (
	"fmt"
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
	var files []*file
	for _, f := range b.src.files {
		if strings.HasSuffix(f.path, "_test.go") {
			files = append(files, f)
		}
	}
	sort.Slice(files, func(i, j int) bool { return files[i].path < files[j].path })
	helpers := map[string]bool{}
	isCheckStmt := func(u *unit) bool {
		name, ok := calledBy(u)
		return ok && (u.fn.file.isCheck(name) || helpers[name[strings.LastIndexByte(name, '.')+1:]])
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
				if id, ok := b.nodeID(nodeKey{exprName(f, u.node.(*ast.ExprStmt).X), f, u.pos}); ok {
					set[id] = true
				}
				for _, c := range u.ctrl {
					cu := fn.units[c]
					if id, ok := b.nodeID(nodeKey{decisionName(cu), f, cu.pos}); ok {
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
	Root    string // the module root the site table names
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

// Batch is how many tests' graphs CheckedCoverage builds, and holds at
// once, from one read of an events file, unless told otherwise.
const Batch = 16

// CheckedCoverage computes the checked coverage of every leaf test of
// the trace in dir (Schuler and Zeller): for each, the statements it
// executed (its spectrum's statement sites, by line) and those among
// them holding a node of the backward slice of its checks
// (Graph.Checks). Statements of files that are not under the module
// root the site table names are left out. Tests come in the trace's
// order.
//
// The events are streamed, never held: each events file is read once to
// find its tests, then once per batch of batch leaf tests (Batch when
// batch <= 0), whose summary graphs are built together from that read;
// each graph is dropped once its test's coverage is taken.
func CheckedCoverage(dir string, batch int) ([]*Coverage, error) {
	var out []*Coverage
	err := leafRuns(dir, batch, func(tr *trace.Trace, t *trace.Test, r *Run) {
		out = append(out, coverage(&tr.Sites, t, r))
	})
	return out, err
}

// leafRuns streams the graph of each leaf test of the trace in dir to
// each, in the trace's order, building batch of them (Batch when batch
// <= 0) from one read of their events file.
func leafRuns(dir string, batch int, each func(*trace.Trace, *trace.Test, *Run)) error {
	if batch <= 0 {
		batch = Batch
	}
	d, tr, err := openStream(dir)
	if err != nil {
		return err
	}
	if tr.Only != "" {
		return fmt.Errorf("the trace records the run of %s (with its parents and subtests) only: run the tests again, without -trace", tr.Only)
	}
	prog := newProgram(tr.Sites.Sites)
	for _, p := range tr.Processes {
		leaves := leafTests(p)
		for len(leaves) > 0 {
			n := min(batch, len(leaves))
			runs, err := replay(tr, prog, p, leaves[:n], Options{}, stream(d, p))
			if err != nil {
				return err
			}
			for i, r := range runs {
				each(tr, leaves[i], r)
			}
			leaves = leaves[n:]
		}
	}
	return nil
}

// leafTests returns the test functions of p without subtests, in the
// trace's order (benchmarks, examples and fuzz targets left out).
func leafTests(p *trace.Process) []*trace.Test {
	parents := map[int]bool{}
	for _, t := range p.Tests {
		parents[t.Parent] = true
	}
	var out []*trace.Test
	for _, t := range p.Tests {
		if t.ID != 0 && t.Name != "" && !parents[t.ID] && t.Kind == trace.TestFunc {
			out = append(out, t)
		}
	}
	return out
}

// coverage returns the checked coverage of test t from its run's graph.
func coverage(sites *trace.Sites, t *trace.Test, r *Run) *Coverage {
	c := &Coverage{Package: r.Package, Test: t.Name, Outcome: t.Outcome, Root: r.Root, Notes: r.Notes}
	lines := map[Line]bool{}
	for id := range r.Backward(r.Checks...).Nodes {
		n := r.Nodes[id]
		lines[Line{n.File, n.Line}] = true
	}
	seen := map[Line]bool{}
	for _, id := range t.Hits {
		if id >= len(sites.Sites) {
			continue
		}
		s := sites.Sites[id]
		if s.Kind != trace.KindStmt || !under(sites.Root, s.File) {
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
	return c
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
