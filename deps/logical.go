package deps

import (
	"go/ast"
	"go/token"
)

// operandNode is the decision of one && or || in an execution of a unit:
// its left operand's outcome let the right operand run.
type operandNode struct {
	y  [2]token.Pos // the right operand's span
	id int          // the "<&&>" or "<||>" node, at the operator
}

// operands makes the decision nodes of the && and || in the unit in runs
// whose left operand's outcome has just become known (from the operand
// decisions recorded so far) and lets the right operand run. Such a node
// reads what the left operand read and is control dependent on the
// decision that made the unit run, or on the node of the && or || whose
// right operand holds it. Everything the unit defines is then control
// dependent on it (end), and so are the parameters of the calls the right
// operand makes (enter).
func (b *builder) operands(fr *frame, in *instance) {
	u := in.u
	roots := []ast.Node{u.node}
	if cc, ok := u.node.(*ast.CaseClause); ok {
		roots = roots[:0] // a clause's tests, not its body
		for _, x := range cc.List {
			roots = append(roots, x)
		}
	}
	for _, root := range roots {
		b.operandsIn(fr, in, root)
	}
}

// operandsIn does the work of operands for the expressions in root.
func (b *builder) operandsIn(fr *frame, in *instance, root ast.Node) {
	u := in.u
	for _, x := range b.logicals(root) {
		if in.opDone[x.OpPos] {
			continue
		}
		lv, ok := outcome(x.X, in.ops)
		if !ok {
			continue
		}
		if in.opDone == nil {
			in.opDone = map[token.Pos]bool{}
		}
		in.opDone[x.OpPos] = true
		if (x.Op == token.LAND) != lv {
			continue // the right operand did not run
		}
		ctrl := in.operandAt(x.Pos())
		if ctrl < 0 {
			ctrl = b.control(fr, u)
		}
		id := b.view.fresh(logicalName(x.Op), u.fn.file, x.OpPos, u.fn)
		b.g.Nodes[id].Count++
		for _, s := range b.reads(fr, x.X, nil, in) {
			b.edge(s, id, Data)
		}
		b.edge(ctrl, id, Control)
		in.opNodes = append(in.opNodes, operandNode{y: [2]token.Pos{x.Y.Pos(), x.Y.End()}, id: id})
	}
}

// logicals returns the && and || expressions in root, outside function
// literals, in the order of a walk of the syntax tree (an operator
// before its operands), found once per root.
func (p *program) logicals(root ast.Node) []*ast.BinaryExpr {
	if l, ok := p.logical[root]; ok {
		return l
	}
	var l []*ast.BinaryExpr
	ast.Inspect(root, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.BinaryExpr:
			if isLogical(x.Op) {
				l = append(l, x)
			}
		}
		return true
	})
	if p.logical == nil {
		p.logical = map[ast.Node][]*ast.BinaryExpr{}
	}
	p.logical[root] = l
	return l
}

// operandAt returns the node of the innermost && or || of the instance
// whose right operand, run, holds pos; -1 when there is none.
func (in *instance) operandAt(pos token.Pos) int {
	id, width := -1, token.Pos(-1)
	for _, op := range in.opNodes {
		if op.y[0] <= pos && pos < op.y[1] && (width < 0 || op.y[1]-op.y[0] < width) {
			id, width = op.id, op.y[1]-op.y[0]
		}
	}
	return id
}

func isLogical(op token.Token) bool { return op == token.LAND || op == token.LOR }

// outcome returns the value of the boolean expression e as the recorded
// outcomes of its && and || operands (ops, by position) tell it, and
// whether they tell it.
func outcome(e ast.Expr, ops map[token.Pos]bool) (v, ok bool) {
	switch x := e.(type) {
	case *ast.ParenExpr:
		return outcome(x.X, ops)
	case *ast.BinaryExpr:
		if isLogical(x.Op) {
			lv, lok := outcome(x.X, ops)
			if lok && (x.Op == token.LAND) != lv {
				return lv, true
			}
			rv, rok := outcome(x.Y, ops)
			return rv, lok && rok
		}
	}
	v, ok = ops[e.Pos()]
	return v, ok
}

// shortCircuited appends to out the spans of the && and || operands in
// n that did not run, as the outcomes of the operands before them say.
func (p *program) shortCircuited(out [][2]token.Pos, n ast.Node, ops map[token.Pos]bool) [][2]token.Pos {
	pruned := token.NoPos // the end of the latest expression left out, with its operands
	for _, x := range p.logicals(n) {
		if x.Pos() < pruned {
			continue
		}
		if lv, ok := outcome(x.X, ops); ok && (x.Op == token.LAND) != lv {
			out = append(out, [2]token.Pos{x.Y.Pos(), x.Y.End()})
			pruned = x.End()
		}
	}
	return out
}

// logicalName is the node name of an && or || operator, "<&&>" or
// "<||>" (a constant: it is made at every operator evaluated).
func logicalName(op token.Token) string {
	if op == token.LAND {
		return "<&&>"
	}
	return "<||>"
}
