package deps

import (
	"go/ast"

	"github.com/culprit-go/culprit/trace"
)

// Address dependence. A write to the wrong element (n.items[i] written
// for n.items[i-1]) leaves the element read after with its older
// definition: no data or control dependence leads from the read to the
// faulty index. In the summary graph (relevance) a read of an element or
// map entry depends, besides the definitions stored there, on the latest
// writes to other elements of the same array, slice or map made since
// the element's own definition (at most elemLogLen of them) whose index
// was computed (not a literal: xs[0] and xs[1], m["k"] and m["j"] stay
// apart): had one of those indexes been the element's, the read would
// have seen it.

// elemLogLen bounds the writes remembered per collection.
const elemLogLen = 4

// elemLog holds the latest element writes of one collection: the
// storage each wrote and its definition, in a ring (n writes so far).
type elemLog struct {
	keys  [elemLogLen]memKey
	nodes [elemLogLen]int // -1: a literal index
	n     int
}

// loggedElem notes the write id of the element or entry at l (k its
// storage), made through the operand x.
func (b *builder) loggedElem(l loc, k memKey, x ast.Expr, id int) {
	if l.Kind != trace.LocElem && l.Kind != trace.LocKey || l.Base == 0 || !b.view.relevance() {
		return
	}
	if b.elemLogs == nil {
		b.elemLogs = map[uint64]*elemLog{}
	}
	lg := b.elemLogs[l.Base]
	if lg == nil {
		lg = &elemLog{}
		b.elemLogs[l.Base] = lg
	}
	if ix, ok := ast.Unparen(x).(*ast.IndexExpr); ok {
		if _, lit := ast.Unparen(ix.Index).(*ast.BasicLit); lit {
			id = -1
		}
	}
	i := lg.n % elemLogLen
	lg.keys[i], lg.nodes[i] = k, id
	lg.n++
}

// siblings calls add with the writes to other elements of l's
// collection since the latest write to l (k its storage), latest first.
func (b *builder) siblings(l loc, k memKey, add func(int)) {
	if l.Kind != trace.LocElem && l.Kind != trace.LocKey || l.Base == 0 {
		return
	}
	lg := b.elemLogs[l.Base]
	if lg == nil {
		return
	}
	for j := range min(lg.n, elemLogLen) {
		i := (lg.n - 1 - j) % elemLogLen
		if lg.keys[i] == k {
			return
		}
		if lg.nodes[i] >= 0 {
			add(lg.nodes[i])
		}
	}
}
