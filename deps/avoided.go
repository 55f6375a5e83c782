package deps

import (
	"go/ast"
	"sort"
)

// Panics that did not happen. A test that expects a panic recovers it
// and checks that it came; when a wrong condition skips the branch that
// panics, the recover returns nil and nothing in the run's data leads
// from the check to that condition. In the summary graph (relevance) a
// recover that returns nil depends on the decisions of the ifs whose
// branch not taken panics (a panic call in it, outside function
// literals), taken since the frame whose deferred function recovers was
// entered, in it or in the functions it called: had one of them gone
// the other way, the recover would have returned the panic's value.

// avoid notes that the decision of the if u in fr, taken (true: its
// then branch), skipped a branch that panics, when it did.
func (b *builder) avoid(g *goroutine, fr *frame, u *unit, taken bool) {
	p := u.branchPanics()
	if taken && !p[1] || !taken && !p[0] {
		return
	}
	d := fr.units[u.id].dec
	if d < 0 {
		return
	}
	if g.avoided == nil {
		g.avoided = map[int]int{}
	}
	g.avoided[d] = fr.serial
}

// avoidedSince returns the decisions avoid noted on g in the frame d or
// in frames entered after it (while d is live: the functions it
// called), in increasing order.
func (b *builder) avoidedSince(g *goroutine, d *frame) []int {
	if d == nil || len(g.avoided) == 0 {
		return nil
	}
	var out []int
	for id, serial := range g.avoided {
		if serial >= d.serial {
			out = append(out, id)
		}
	}
	sort.Ints(out)
	return out
}

// branchPanics says whether an if's then and else branches may panic: a
// call of the builtin panic in them (nested statements included,
// function literals not), found once.
func (u *unit) branchPanics() [2]bool {
	if u.panics != nil {
		return *u.panics
	}
	var out [2]bool
	for i, n := range []ast.Node{u.ifs.Body, u.ifs.Else} {
		if n == nil {
			continue
		}
		ast.Inspect(n, func(m ast.Node) bool {
			switch x := m.(type) {
			case *ast.FuncLit:
				return false
			case *ast.CallExpr:
				if id, ok := ast.Unparen(x.Fun).(*ast.Ident); ok && id.Name == "panic" && id.Obj == nil {
					out[i] = true
				}
			}
			return !out[i]
		})
	}
	u.panics = &out
	return out
}
