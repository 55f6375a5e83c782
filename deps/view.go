package deps

import (
	"go/ast"
	"go/token"

	"github.com/culprit-go/culprit/trace"
)

// A view is what one kind of graph makes of a replay. The builder is the
// replay's core: frames, units and their control dependences, reads and
// writes resolved to storage and to the definitions they see. Its view
// makes the nodes definitions are and resolves an expression's reads to
// them: the summary graph (a node per site, summed over its executions)
// or the execution-level graph (a node per definition, versions.go).
// The core asks the view at each point where the two differ, and holds
// no state of either.
type view interface {
	// fresh returns the node of a definition of name at pos of f.
	fresh(name string, f *file, pos token.Pos, fn *function) int
	// reads returns the nodes the expression n reads in fr, as the
	// instance in evaluates it (builder.reads).
	reads(fr *frame, n ast.Node, assigned []ast.Expr, in *instance) []int
	// sawRead is told of a read event of in at pos.
	sawRead(in *instance, pos token.Pos, e *trace.Event)
	// argument is told that parameter node id took the argument arg of
	// a call in f.
	argument(id int, f *file, arg ast.Expr)
	// defining is told of a definition of the variable of key root,
	// which replaced what it held or added to it.
	defining(fr *frame, root string, replaced bool)
	// wroteElem is told of an element written through the variable of
	// key k, at loc.
	wroteElem(fr *frame, k string, loc loc)
	// relevance says whether the graph records why statements ran and
	// what they might have read, beyond what the run's data and its
	// function's decisions say: a function's statements that no decision
	// of its own controls depend on the call that entered it
	// (builder.control), and a read of a variable an if's branch not
	// taken would have assigned depends on the if (builder.decision).
	// The slices' graph does, for a decision guarding a call with side
	// effects, or skipping an assignment, must be in the slice; not the
	// data-flow graph of outputs, which shows where values came from.
	relevance() bool
	// copiesInStorage says whether a copy (q = p) keeps p's parts for q
	// through the storage written (builder.written), not by name.
	copiesInStorage() bool
	// assigned defines the operand l of an assignment whose value r
	// the view names the parts of (an append, a composite literal, a
	// copy), filling d and returning what l depends on; ok false when
	// it does not.
	assigned(fr *frame, in *instance, u *unit, l, r ast.Expr, d *pending, def defFunc) (from []int, ok bool)
	// target returns the name of the node that defining l makes, and the
	// collection or object it is an element or field of ("": none).
	target(f *file, l ast.Expr, in *instance, plain bool) (name, elem string)
	// defined is told of l's definition d, made: d.rec and d.elems are
	// the view's to fill.
	defined(fr *frame, in *instance, u *unit, d *pending, def defFunc)
	// settled is told that d took effect (builder.define has run).
	settled(fr *frame, d *pending)
	// callRead returns what a call c reads when no node stands for it.
	callRead(fr *frame, in *instance, c *ast.CallExpr) []int
	// mayHaveWritten is told that id possibly wrote the variable of key
	// (builder.possiblyWritten).
	mayHaveWritten(fr *frame, key string, id int)
	// join is told that the definitions defs a variable (of key root,
	// in fr) or a storage location holds at once are more than
	// maxReaching, last the latest: it may replace them in defs by
	// fewer nodes that depend on them, so that every later read does
	// not depend on each again (builder.bound).
	join(fr *frame, root string, defs defSet, last int) defSet
	// replayed is told that the replay has ended: what the view keeps
	// only to resolve events can go.
	replayed()
	// finish completes the graph when the replay has ended.
	finish()
}

// defFunc defines name at pos, depending on from, and returns its node.
type defFunc func(name string, pos token.Pos, from []int) int

// pending is an assigned operand defined, waiting for the statement's
// other operands (builder.assign): its definition takes effect after
// every read of the statement.
type pending struct {
	root   string
	id     int
	strong bool
	lhs    ast.Expr
	rhs    ast.Expr // its value, when paired
	name   string   // of its node: "x", "xs[3]", "p.f"
	// The views' parts.
	elems map[string]int // execution-level graphs: the element definitions it leaves
	rec   *appendRec     // summary graphs: what append left in its elements
}

// summary is the view of the summary graph: a node per variable and
// site, for every execution of the site.
type summary struct {
	*builder
	// Copies that keep their parts apart (elems.go): what the elements
	// of variables defined by append hold, and where variables' elements
	// were seen stored.
	appends map[varKey]*appendRec
	bases   map[varKey]elemBase
}

func (s *summary) fresh(name string, f *file, pos token.Pos, fn *function) int {
	return s.node(name, f, pos, fn)
}

func (s *summary) sawRead(*instance, token.Pos, *trace.Event) {}

func (s *summary) argument(int, *file, ast.Expr) {}

func (s *summary) defining(fr *frame, root string, _ bool) { s.forget(fr, root) }

func (s *summary) wroteElem(fr *frame, k string, loc loc) { s.sawElems(fr, k, loc) }

func (s *summary) copiesInStorage() bool { return true }

func (s *summary) relevance() bool { return true }

func (s *summary) assigned(*frame, *instance, *unit, ast.Expr, ast.Expr, *pending, defFunc) ([]int, bool) {
	return nil, false
}

func (s *summary) target(f *file, l ast.Expr, in *instance, plain bool) (string, string) {
	name := f.text(l)
	if !plain {
		if en := s.elemLabel(f, l, in); en != "" {
			name = en
		}
	}
	return name, ""
}

func (s *summary) defined(fr *frame, in *instance, u *unit, d *pending, def defFunc) {
	if _, plain := ast.Unparen(d.lhs).(*ast.Ident); plain && d.rhs != nil {
		if c := appendCall(d.rhs); c != nil {
			d.rec = s.appendedElems(fr, in, u, d.lhs, c, def)
		}
	}
}

func (s *summary) settled(fr *frame, d *pending) {
	if d.rec != nil {
		if s.appends == nil {
			s.appends = map[varKey]*appendRec{}
		}
		s.appends[varKeyOf(fr, d.root)] = d.rec
	}
}

func (s *summary) callRead(fr *frame, in *instance, c *ast.CallExpr) []int {
	return s.reads(fr, c, nil, in)
}

func (s *summary) mayHaveWritten(*frame, string, int) {}

// join: a node per site bounds what a variable holds.
func (s *summary) join(_ *frame, _ string, defs defSet, _ int) defSet { return defs }

func (s *summary) replayed() { s.appends, s.bases = nil, nil }

func (s *summary) finish() { s.checkNodes() }
