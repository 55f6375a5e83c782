package invariant

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"math"
	"sort"
	"strings"
)

// op is one pattern of the library; docs/mine.md lists them with the
// formula of their chance of holding by accident.
type op uint8

const (
	opGT0      op = iota // x > 0
	opGE0                // x >= 0
	opLT0                // x < 0
	opLE0                // x <= 0
	opNE0                // x != 0
	opNonEmpty           // len(x) > 0 (s != "" for strings)
	opOneOf              // x == c, or x == c1 || x == c2 (|| x == c3)
	opNil                // x == nil
	opNonNil             // x != nil
	opRange              // lo <= x && x <= hi
	opEq                 // x == y
	opLT                 // x < y
	opLE                 // x <= y
	opGT                 // x > y
	opGE                 // x >= y
	opNE                 // x != y
	opSq                 // x == y*y
	opOff                // x == y + c
	opStrEq              // x == y (strings)
	opPrefix             // strings.HasPrefix(x, y)
	opSuffix             // strings.HasSuffix(x, y)
	opContains           // strings.Contains(x, y)
	opAdd                // x == y + z
	opSub                // x == y - z
	opMul                // x == y * z
	opDiv                // x == y / z
	opUser               // a user property
)

// Patterns are the property templates of the library, with the
// metavariables X, Y, Z and constants C; they are instantiated over every
// type-compatible combination of a function's variables.
var Patterns = []string{
	"X > 0", "X >= 0", "X < 0", "X <= 0", "X != 0", "len(X) > 0", `X != ""`,
	"X == C", "X == C1 || X == C2 || X == C3", "X == nil", "X != nil", "C1 <= X && X <= C2",
	"X == Y", "X < Y", "X <= Y", "X > Y", "X >= Y", "X != Y", "X == Y*Y", "X == Y + C",
	"strings.HasPrefix(X, Y)", "strings.HasSuffix(X, Y)", "strings.Contains(X, Y)",
	"X == Y + Z", "X == Y - Z", "X == Y * Z", "X == Y / Z", "X < Y && Y < Z (chains)",
}

// fact is a candidate invariant: a pattern over variables.
type fact struct {
	op     op
	v      [3]int // the variables, as many as the pattern takes
	n      int    // how many
	consts []cell // opOneOf: the values; opOff: the offset; opRange: min, max
	user   *Expr  // opUser: the instantiated property
	meta   []string
}

// survivors generates the candidates and returns those that hold in
// every sample.
func (m *miner) survivors() []*fact {
	alive := m.candidates()
	for _, row := range m.samples {
		k := 0
		for _, f := range alive {
			if m.holds(f, row) {
				alive[k] = f
				k++
			}
		}
		alive = alive[:k]
		if k == 0 {
			break
		}
	}
	return alive
}

// violated returns the facts that do not hold in some sample of m (the
// facts are another miner's over the same variables, matched by name).
func (m *miner) violated(facts []*fact) []*fact {
	var out []*fact
	for _, f := range facts {
		g := m.translate(f)
		if g == nil {
			out = append(out, f)
			continue
		}
		for _, row := range m.samples {
			if !m.holds(g, row) {
				out = append(out, f)
				break
			}
		}
	}
	return out
}

// translate maps a fact of another miner (of the same function) onto m's
// variables, by name; nil when m lacks one.
func (m *miner) translate(f *fact) *fact {
	g := *f
	g.consts = append([]cell(nil), f.consts...)
	for i := 0; i < f.n; i++ {
		g.v[i] = -1
		for j, v := range m.vars {
			if v.name == f.meta[i] {
				g.v[i] = j
			}
		}
		if g.v[i] < 0 {
			return nil
		}
	}
	if g.op == opOneOf || g.op == opRange {
		g.op = opUser // compare through the rendered expression
		e, err := Parse(renderFact(nil, f))
		if err != nil {
			return nil
		}
		g.user = e
		g.meta = f.meta
	}
	return &g
}

func (m *miner) newFact(o op, vs ...int) *fact {
	f := &fact{op: o, n: len(vs)}
	copy(f.v[:], vs)
	for _, v := range vs {
		f.meta = append(f.meta, m.vars[v].name)
	}
	return f
}

// maxTernary bounds the numeric variables combined three at a time.
const maxTernary = 12

// candidates instantiates the library over the variables.
func (m *miner) candidates() []*fact {
	var out []*fact
	vs := m.vars
	var nums []int
	for i, v := range vs {
		switch {
		case v.length:
			out = append(out, m.newFact(opNonEmpty, i))
			if !v.str {
				out = append(out, m.newFact(opOneOf, i), m.newFact(opRange, i))
			}
			nums = append(nums, i)
		case v.num:
			out = append(out, m.newFact(opGT0, i), m.newFact(opOneOf, i))
			if !v.uint {
				out = append(out, m.newFact(opGE0, i), m.newFact(opLT0, i), m.newFact(opLE0, i))
			}
			out = append(out, m.newFact(opNE0, i))
			if v.ints {
				out = append(out, m.newFact(opRange, i))
			}
			nums = append(nums, i)
		case v.strs, v.bools:
			out = append(out, m.newFact(opOneOf, i))
		case v.nilable:
			out = append(out, m.newFact(opNil, i), m.newFact(opNonNil, i))
		}
	}
	for a := 0; a < len(nums); a++ {
		for b := a + 1; b < len(nums); b++ {
			x, y := nums[a], nums[b]
			if vs[x].length && vs[y].length && vs[x].base == vs[y].base || !comparable(vs[x], vs[y]) {
				continue
			}
			for _, o := range []op{opEq, opLT, opLE, opGT, opGE, opNE} {
				out = append(out, m.newFact(o, x, y))
			}
			out = append(out, m.newFact(opSq, x, y), m.newFact(opSq, y, x))
			if vs[x].ints && vs[y].ints {
				out = append(out, m.newFact(opOff, y, x))
			}
		}
	}
	for a, x := range vs {
		for b, y := range vs {
			if a == b || !x.strs || !y.strs {
				continue
			}
			if a < b {
				out = append(out, m.newFact(opStrEq, a, b))
			}
			out = append(out, m.newFact(opPrefix, a, b), m.newFact(opSuffix, a, b), m.newFact(opContains, a, b))
		}
	}
	if len(nums) <= maxTernary {
		for a := 0; a < len(nums); a++ {
			for b := a + 1; b < len(nums); b++ {
				for c := b + 1; c < len(nums); c++ {
					x, y, z := nums[a], nums[b], nums[c]
					if !comparable(vs[x], vs[y]) || !comparable(vs[x], vs[z]) || !comparable(vs[y], vs[z]) {
						continue
					}
					// z, the last (a result when there is one), is
					// computed from the other two.
					out = append(out, m.newFact(opAdd, z, x, y), m.newFact(opMul, z, x, y),
						m.newFact(opSub, z, x, y), m.newFact(opSub, z, y, x),
						m.newFact(opDiv, z, x, y), m.newFact(opDiv, z, y, x))
				}
			}
		}
	}
	for _, p := range m.props {
		out = append(out, m.instantiate(p)...)
	}
	return out
}

// comparable reports whether two numeric variables are worth relating,
// a crude form of Daikon's comparability: a length is compared with
// lengths and with whole parameters and results (i < len(s), result ==
// len(s)), not with the numbers inside other values (s.items[3] >
// len(s.name) holds by accident of the data).
func comparable(x, y variable) bool {
	if lastOf(x, y) || lastOf(y, x) {
		return false
	}
	if x.length == y.length {
		return true
	}
	if x.length {
		x, y = y, x
	}
	return !x.part
}

// lastOf reports whether x is s[len(s)-1] and y an element s[i] of the
// same slice: both have values only when len(s) == i+1, where they are
// the same element.
func lastOf(x, y variable) bool {
	i := strings.LastIndex(x.name, "[len(")
	if i < 0 || !strings.HasSuffix(x.name, ")-1]") {
		return false
	}
	return strings.HasPrefix(y.name, x.name[:i]+"[") && !strings.Contains(y.name[i:], ".")
}

// metavars returns the metavariables of a user property: its upper-case
// single-letter identifiers, in order.
func metavars(e *Expr) []string {
	var out []string
	for _, v := range e.Vars() {
		if len(v) == 1 && v[0] >= 'A' && v[0] <= 'Z' {
			out = append(out, v)
		}
	}
	return out
}

// instantiate returns a user property over every permutation of distinct
// base variables.
func (m *miner) instantiate(p *Expr) []*fact {
	mv := metavars(p)
	if len(mv) == 0 || len(mv) > 3 {
		return nil
	}
	var base []int
	for i, v := range m.vars {
		if !v.length {
			base = append(base, i)
		}
	}
	var out []*fact
	var pick func(chosen []int)
	pick = func(chosen []int) {
		if len(chosen) == len(mv) {
			names := map[string]string{}
			for i, c := range chosen {
				names[mv[i]] = m.vars[c].name
			}
			src, err := rename(p.src, names)
			if err != nil {
				return
			}
			e, err := Parse(src)
			if err != nil {
				return
			}
			f := m.newFact(opUser, chosen...)
			f.user = e
			out = append(out, f)
			return
		}
		for _, b := range base {
			used := false
			for _, c := range chosen {
				used = used || c == b
			}
			if !used {
				pick(append(chosen, b))
			}
		}
	}
	pick(nil)
	return out
}

// rename replaces identifiers in a Go expression.
func rename(src string, names map[string]string) (string, error) {
	n, err := parser.ParseExpr(src)
	if err != nil {
		return "", err
	}
	ast.Inspect(n, func(x ast.Node) bool {
		if sel, ok := x.(*ast.SelectorExpr); ok {
			ast.Inspect(sel.X, func(y ast.Node) bool { return true })
			return false
		}
		if id, ok := x.(*ast.Ident); ok {
			if to, ok := names[id.Name]; ok {
				id.Name = to
			}
		}
		return true
	})
	var b bytes.Buffer
	if err := printer.Fprint(&b, token.NewFileSet(), n); err != nil {
		return "", err
	}
	return b.String(), nil
}

// holds evaluates a fact on one sample. Aggregating facts (one-of,
// offsets, ranges) update their constants.
func (m *miner) holds(f *fact, row []cell) bool {
	if absent(f, row) {
		return true // nothing to say where a variable has no value
	}
	x := row[f.v[0]]
	switch f.op {
	case opGT0, opGE0, opLT0, opLE0, opNE0, opNonEmpty:
		if x.k != kNum {
			return false
		}
		switch f.op {
		case opGT0, opNonEmpty:
			return x.f > 0 || (x.isInt && x.i > 0)
		case opGE0:
			return x.f >= 0
		case opLT0:
			return x.f < 0
		case opLE0:
			return x.f <= 0
		}
		return x.f != 0
	case opOneOf:
		if _, ok := x.literal(); !ok {
			return false
		}
		for _, c := range f.consts {
			if sameValue(c, x) {
				return true
			}
		}
		if len(f.consts) == 3 || (x.k == kBool && len(f.consts) == 1) {
			return false
		}
		f.consts = append(f.consts, x)
		return true
	case opNil:
		return x.k == kNil
	case opNonNil:
		return x.k == kRef
	case opRange:
		if x.k != kNum || !x.isInt {
			return false
		}
		if len(f.consts) == 0 {
			f.consts = []cell{x, x}
		}
		if x.i < f.consts[0].i {
			f.consts[0] = x
		}
		if x.i > f.consts[1].i {
			f.consts[1] = x
		}
		return true
	case opUser:
		env := func(name string) (cell, bool) {
			for i, n := range f.meta {
				if n == name {
					return row[f.v[i]], true
				}
			}
			return cell{}, false
		}
		ok, err := f.user.holds(env)
		return err == nil && ok
	}
	y := row[f.v[1]]
	switch f.op {
	case opStrEq, opPrefix, opSuffix, opContains:
		if x.k != kStr || y.k != kStr || !x.full || !y.full {
			return false
		}
		switch f.op {
		case opStrEq:
			return x.s == y.s
		case opPrefix:
			return strings.HasPrefix(x.s, y.s)
		case opSuffix:
			return strings.HasSuffix(x.s, y.s)
		}
		return strings.Contains(x.s, y.s)
	}
	if x.k != kNum || y.k != kNum {
		return false
	}
	switch f.op {
	case opEq:
		return numEq(x, y)
	case opLT:
		return numCmp(x, y) < 0
	case opLE:
		return numCmp(x, y) <= 0
	case opGT:
		return numCmp(x, y) > 0
	case opGE:
		return numCmp(x, y) >= 0
	case opNE:
		return !numEq(x, y)
	case opSq:
		sq, err := arith(token.MUL, y, y)
		return err == nil && numEq(x, sq)
	case opOff:
		if !x.isInt || !y.isInt {
			return false
		}
		d := x.i - y.i
		if len(f.consts) == 0 {
			if d == 0 {
				return false
			}
			f.consts = []cell{intCell(d)}
		}
		return f.consts[0].i == d
	}
	z := row[f.v[2]]
	if z.k != kNum {
		return false
	}
	var t token.Token
	switch f.op {
	case opAdd:
		t = token.ADD
	case opSub:
		t = token.SUB
	case opMul:
		t = token.MUL
	case opDiv:
		t = token.QUO
	}
	r, err := arith(t, y, z)
	return err == nil && numEq(x, r)
}

// absent reports whether one of f's variables has no value in row.
func absent(f *fact, row []cell) bool {
	for i := 0; i < f.n; i++ {
		if row[f.v[i]].k == kAbsent {
			return true
		}
	}
	return false
}

// present counts the samples where all of f's variables have a value.
func (m *miner) present(f *fact) int {
	n := 0
	for _, row := range m.samples {
		if !absent(f, row) {
			n++
		}
	}
	return n
}

// sameValue reports whether two literal cells are the same value.
func sameValue(a, b cell) bool {
	if a.k != b.k {
		return false
	}
	switch a.k {
	case kNum:
		if a.isInt && b.isInt {
			return a.i == b.i
		}
		return a.f == b.f
	case kStr:
		return a.s == b.s && a.n == b.n
	case kBool:
		return a.full == b.full
	}
	return true
}

// class is how likely one sample satisfies a pattern by chance, under
// the null hypothesis of unrelated values: 1/2 for an ordering or sign,
// 1/4 for an equality, a containment or an arithmetic relation.
func class(o op) float64 {
	switch o {
	case opEq, opSq, opOff, opStrEq, opPrefix, opSuffix, opContains, opAdd, opSub, opMul, opDiv:
		return 0.25
	}
	return 0.5
}

// justified returns the facts whose chance of holding by accident is
// below the confidence limit.
func (m *miner) justified(facts []*fact) []*fact {
	if m.conf >= 1 {
		return facts
	}
	var out []*fact
	for _, f := range facts {
		if m.chance(f) < m.conf {
			out = append(out, f)
		}
	}
	return out
}

// chance is the probability that f held in the samples by accident
// (docs/mine.md gives the formulas).
func (m *miner) chance(f *fact) float64 {
	n := m.present(f)
	switch f.op {
	case opOneOf:
		k := float64(len(f.consts))
		return math.Pow(k/(k+1), float64(n))
	case opNil, opNonNil:
		return math.Pow(0.5, float64(n))
	case opRange:
		lo, hi := 0, 0
		for _, row := range m.samples {
			x := row[f.v[0]]
			if x.k == kAbsent {
				continue
			}
			if x.i == f.consts[0].i {
				lo++
			}
			if x.i == f.consts[1].i {
				hi++
			}
		}
		return math.Pow(0.5, float64(min(lo, hi)))
	case opNE0, opNE:
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, row := range m.samples {
			if absent(f, row) {
				continue
			}
			d := row[f.v[0]].f
			if f.op == opNE {
				d -= row[f.v[1]].f
			}
			lo, hi = math.Min(lo, d), math.Max(hi, d)
		}
		p := 1 - 1/(hi-lo+2)
		return math.Pow(p, float64(m.distinct(f, 1<<30)))
	}
	p := class(f.op)
	need := int(math.Ceil(math.Log(m.conf)/math.Log(p))) + 1
	d := m.distinct(f, need)
	return math.Pow(p, float64(d))
}

// distinct counts the distinct tuples of f's variables in the samples, up
// to limit. For containment only tuples with a non-empty needle count.
// Tuples are told apart by hashes (a collision undercounts, which only
// makes the chance of holding by accident look larger).
func (m *miner) distinct(f *fact, limit int) int {
	seen := map[[3]uint64]struct{}{}
	for _, row := range m.samples {
		if absent(f, row) || (f.op == opPrefix || f.op == opSuffix || f.op == opContains) && row[f.v[1]].s == "" {
			continue
		}
		var k [3]uint64
		for i := 0; i < f.n; i++ {
			k[i] = row[f.v[i]].hash(m.seed)
		}
		if _, ok := seen[k]; !ok {
			seen[k] = struct{}{}
			if len(seen) >= limit {
				break
			}
		}
	}
	return len(seen)
}

// sortFacts orders facts by pattern and variables, for determinism.
func sortFacts(fs []*fact) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if a.op != b.op {
			return a.op < b.op
		}
		return a.v[0]*1000000+a.v[1]*1000+a.v[2] < b.v[0]*1000000+b.v[1]*1000+b.v[2]
	})
}
