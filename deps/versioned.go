package deps

import (
	"fmt"
	"go/ast"
	"go/token"
	"sort"

	"github.com/culprit-go/culprit/trace"
)

// The versioned view's answers to the replay (view): what the summary
// graph does not keep, the values read (to name elements by their
// index), the arguments parameters took, and the element and field
// definitions named for each variable.

func (b *versioned) sawRead(in *instance, pos token.Pos, e *trace.Event) {
	if len(e.Values) > 0 {
		in.read.set(pos, e.Values[0])
	}
}

// readValues are the values an instance read, by position: a few in a
// slice (most statements read a handful), more in a map.
type readValues struct {
	few  []posValue
	many map[token.Pos]trace.Value
}

type posValue struct {
	pos token.Pos
	v   trace.Value
}

// readsKept bounds the values kept in the slice.
const readsKept = 16

func (r *readValues) set(pos token.Pos, v trace.Value) {
	if r.many != nil {
		r.many[pos] = v
		return
	}
	for i := range r.few {
		if r.few[i].pos == pos {
			r.few[i].v = v
			return
		}
	}
	if len(r.few) < readsKept {
		if r.few == nil {
			r.few = make([]posValue, 0, 2)
		}
		r.few = append(r.few, posValue{pos, v})
		return
	}
	r.many = make(map[token.Pos]trace.Value, 2*readsKept)
	for _, x := range r.few {
		r.many[x.pos] = x.v
	}
	r.many[pos], r.few = v, nil
}

func (r *readValues) get(pos token.Pos) (trace.Value, bool) {
	if r.many != nil {
		v, ok := r.many[pos]
		return v, ok
	}
	for _, x := range r.few {
		if x.pos == pos {
			return x.v, true
		}
	}
	return trace.Value{}, false
}

func (b *versioned) argument(id int, f *file, arg ast.Expr) {
	b.g.Nodes[id].Arg = f.text(arg)
}

func (b *versioned) defining(fr *frame, root string, replaced bool) {
	if replaced {
		delete(b.elems, b.scope(fr, root))
	}
}

func (b *versioned) wroteElem(*frame, string, loc) {}

func (b *versioned) copiesInStorage() bool { return false }

func (b *versioned) assigned(fr *frame, in *instance, u *unit, l, r ast.Expr, d *pending, def defFunc) ([]int, bool) {
	switch {
	case appendsTo(l, r):
		from, es, ok := b.appended(fr, in, u, l, r, def)
		if !ok {
			return b.reads(fr, r, nil, in), true
		}
		d.elems = es
		return from, true
	case copiesVar(l, r):
		// q := p: q's parts are p's (elems.go).
		f := u.fn.file
		from := b.reads(fr, r, nil, in)
		p := ast.Unparen(r).(*ast.Ident)
		d.elems = renamedParts(b.elems[b.scope(fr, f.key(p))], p.Name, rootName(l))
		return from, true
	}
	return nil, false
}

func (b *versioned) target(f *file, l ast.Expr, in *instance, _ bool) (name, elem string) {
	if en, coll, ok := b.elemDef(f, l, in); ok {
		return en, coll
	}
	if en := b.elemLabel(f, l, in); en != "" {
		// The index was not read where the trace says (an
		// expression): the write's location names the element.
		return en, rootName(l)
	}
	return f.text(l), ""
}

func (b *versioned) defined(*frame, *instance, *unit, *pending, defFunc) {}

func (b *versioned) settled(fr *frame, d *pending) {
	sc := b.scope(fr, d.root)
	if d.elems != nil {
		b.elems[sc] = d.elems
	} else if !d.strong {
		if b.elems[sc] == nil {
			b.elems[sc] = map[string]int{}
		}
		b.elems[sc][d.name] = d.id
	}
}

// callRead: no node was made for the call, its operands are read again.
func (b *versioned) callRead(*frame, *instance, *ast.CallExpr) []int { return nil }

// relevance: an output's graph shows where its values came from, not
// the calls and decisions that led to them.
func (b *versioned) relevance() bool { return false }

// mayHaveWritten: the elements and fields named for the variable are
// read through it from now on: id depends on them.
func (b *versioned) mayHaveWritten(fr *frame, key string, id int) {
	sc := b.scope(fr, key)
	var elems []int
	for _, e := range b.elems[sc] {
		elems = append(elems, e)
	}
	sort.Ints(elems)
	for _, e := range elems {
		b.edge(e, id, Data)
	}
	delete(b.elems, sc)
}

// join replaces the definitions a variable or storage location holds
// by a new version of the variable, at the site of the latest, that
// depends on them all: a read of it afterwards depends on that version
// alone and reaches every one of them through it, so the graph keeps
// every path (with one node more on them) and the edges of reads stay
// bounded by maxReaching. Definitions the core tells apart when a read
// resolves what it sees (those whose storage is known, those that
// write only elements) are joined apart, each join taking their part.
func (b *versioned) join(fr *frame, root string, defs defSet, last int) defSet {
	at := b.g.Nodes[last]
	f := b.src.file(at.File)
	if f == nil {
		return defs
	}
	name, _ := splitKey(root)
	var groups [4][]int // by located (1) and elemOnly (2)
	for _, d := range defs {
		g := 0
		if b.located[d] {
			g |= 1
		}
		if b.elemOnly[d] {
			g |= 2
		}
		groups[g] = append(groups[g], d)
	}
	for g, ds := range groups {
		if len(ds) < 2 {
			continue
		}
		sort.Ints(ds)
		made := len(b.g.Nodes)
		id := b.fresh(name, f, f.pos(at.Line, at.Col), fr.fn)
		b.g.Nodes[id].Count++
		for _, d := range ds {
			if d != id {
				b.edge(d, id, Data)
			}
		}
		defs = defs.without(ds).with(id)
		switch {
		case id == made: // a new node: it is what its group is
			if g&1 != 0 {
				b.located[id] = true
			}
			if g&2 != 0 {
				b.elemOnly[id] = true
			}
		default: // a version reused (the budget): what both are
			if g&1 == 0 {
				delete(b.located, id)
			}
			if g&2 == 0 {
				delete(b.elemOnly, id)
			}
		}
		b.joined += len(ds)
		if b.joins == 0 {
			b.joinedAt = fmt.Sprintf("%s at %s", name, f.fset.Position(f.pos(at.Line, at.Col)))
		}
		b.joins++
	}
	return defs
}

func (b *versioned) replayed() {
	b.count, b.elems, b.inputs, b.sites, b.atPos = nil, nil, nil, nil, nil
}

func (b *versioned) finish() {
	if b.merged > 0 {
		b.note(fmt.Sprintf("the graph reached its budget of %d nodes (a node per %d events of the trace): %d later definitions were merged into the latest version made where they were, the positions that made the most versions first, down to %d versions each (a loop's late iterations summarized; no dependence is lost, the versions are fewer)",
			b.budget, eventsPerNode, b.merged, b.limit))
	}
	if b.joins > 0 {
		b.note(fmt.Sprintf("%d times a variable held more than %d definitions at once (the first: %s), %d definitions in all: "+
			"each time a new version of the variable stands for them, depending on them all (the paths are kept, through one more node)",
			b.joins, maxReaching, b.joinedAt, b.joined))
	}
}
