package invariant

import (
	"fmt"
	"sort"
	"strings"
)

// reduce drops the facts implied by others: x > 0 hides x >= 0 and
// x != 0; a constant hides every other fact of its variable; an
// equality x == y hides the orderings between x and y and every other
// fact of y; x < y hides x <= y and x != y; orderings implied by
// transitivity go; arithmetic over constants goes.
func reduce(vars []variable, facts []*fact) []*fact {
	sortFacts(facts)
	constant := map[int]bool{}
	oneOf := map[int]bool{}
	unary := map[int]map[op]*fact{}
	for _, f := range facts {
		if f.n == 1 {
			if unary[f.v[0]] == nil {
				unary[f.v[0]] = map[op]*fact{}
			}
			unary[f.v[0]][f.op] = f
		}
		switch {
		case f.op == opOneOf && len(f.consts) == 1, f.op == opNil:
			constant[f.v[0]] = true
		case f.op == opOneOf:
			oneOf[f.v[0]] = true
		}
	}
	for i, v := range vars {
		if v.length && constant[v.base] {
			constant[i] = true
		}
	}
	// Equalities: each class of equal numeric variables keeps its first
	// variable as leader.
	leader := make([]int, len(vars))
	for i := range leader {
		leader[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		for leader[i] != i {
			i = leader[i]
		}
		return i
	}
	for _, f := range facts {
		if (f.op == opEq || f.op == opStrEq) && !constant[f.v[0]] && !constant[f.v[1]] {
			a, b := find(f.v[0]), find(f.v[1])
			if a != b {
				if b < a {
					a, b = b, a
				}
				leader[b] = a
			}
		}
	}
	pairs := map[[2]int]map[op]bool{}
	for _, f := range facts {
		if f.n == 2 {
			k := [2]int{f.v[0], f.v[1]}
			if pairs[k] == nil {
				pairs[k] = map[op]bool{}
			}
			pairs[k][f.op] = true
		}
	}
	hidden, ordered := elementFacts(vars, facts)
	var out []*fact
	for _, f := range facts {
		x := f.v[0]
		u := unary[x]
		implied := f.n == 1 && hidden[x][f.op]
		if f.n == 2 && ordered[f.v[0]] != nil && ordered[f.v[0]] == ordered[f.v[1]] {
			// sorted(s) implies s[i] <= s[j] for i < j.
			a, b := ordered[f.v[0]].pos[f.v[0]], ordered[f.v[1]].pos[f.v[1]]
			implied = f.op == opLE && a < b || f.op == opGE && a > b
		}
		drop := false
		switch f.op {
		case opGE0:
			drop = u[opGT0] != nil
		case opLE0:
			drop = u[opLT0] != nil
		case opNE0:
			drop = u[opGT0] != nil || u[opLT0] != nil
		case opAllGE0:
			drop = u[opAllGT0] != nil
		case opAllLE0:
			drop = u[opAllLT0] != nil
		case opAllNE0:
			drop = u[opAllGT0] != nil || u[opAllLT0] != nil
		case opOneOf:
			drop = vars[x].length && vars[vars[x].base].strs
		case opEq, opStrEq:
			drop = constant[f.v[0]] && constant[f.v[1]]
		case opContains:
			p := pairs[[2]int{f.v[0], f.v[1]}]
			drop = p[opPrefix] || p[opSuffix]
		case opLE, opGE, opNE:
			p := pairs[[2]int{f.v[0], f.v[1]}]
			drop = p[opEq] || (f.op != opGE && p[opLT]) || (f.op != opLE && p[opGT])
		}
		if f.n == 1 && f.op != opOneOf && f.op != opNil && (constant[x] || oneOf[x]) {
			drop = true
		}
		if f.op == opNonEmpty && u[opOneOf] != nil {
			drop = true
		}
		if f.op == opRange {
			lo, hi := f.consts[0].i, f.consts[1].i
			switch {
			case lo == hi:
				drop = true
			case u[opOneOf] != nil:
				drop = true
			}
			if lo >= 0 {
				delete(u, opGE0)
			}
			if lo > 0 {
				delete(u, opGT0)
			}
		}
		switch f.op {
		case opEq, opStrEq:
		default:
			for i := 0; i < f.n; i++ {
				if find(f.v[i]) != f.v[i] {
					drop = true
				}
			}
		}
		if f.n >= 2 && f.op != opLT && f.op != opLE && f.op != opGT && f.op != opGE && f.op != opEq && f.op != opStrEq {
			for i := 0; i < f.n; i++ {
				if constant[f.v[i]] {
					drop = true
				}
			}
		}
		if f.n >= 2 {
			all := true
			for i := 0; i < f.n; i++ {
				all = all && constant[f.v[i]]
			}
			drop = drop || all
		}
		if !drop && !implied {
			out = append(out, f)
		}
	}
	// Unary facts a range made redundant were deleted from the maps
	// above; drop them from the list too.
	k := 0
	for _, f := range out {
		if f.n == 1 && unary[f.v[0]][f.op] != f {
			continue
		}
		out[k] = f
		k++
	}
	return transitive(out[:k])
}

// sortedSlice is the positions of a sorted slice's element variables
// (the last element after the numbered ones).
type sortedSlice struct{ pos map[int]int }

// elementFacts returns the facts over single elements that an all(s)
// pattern implies (all(s) > 0 hides s[0] > 0, s[0] >= 0, s[0] != 0), and
// the sorted slices by element variable, when every sample that recorded
// the slice recorded all its elements (else the element's fact covers
// samples the aggregate does not).
func elementFacts(vars []variable, facts []*fact) (map[int]map[op]bool, map[int]*sortedSlice) {
	implies := map[op][]op{
		opAllGT0: {opGT0, opGE0, opNE0}, opAllGE0: {opGE0}, opAllLT0: {opLT0, opLE0, opNE0},
		opAllLE0: {opLE0}, opAllNE0: {opNE0},
	}
	hidden := map[int]map[op]bool{}
	ordered := map[int]*sortedSlice{}
	for _, f := range facts {
		if _, ok := aggregate(f.op); !ok || !f.whole || f.op == opSum {
			continue
		}
		es := append([]int(nil), f.elems...)
		last := vars[f.v[0]].name
		last += "[len(" + last + ")-1]"
		for i, v := range vars {
			if v.name == last {
				es = append(es, i)
			}
		}
		if f.op == opSorted {
			s := &sortedSlice{pos: map[int]int{}}
			for j, e := range es {
				s.pos[e] = j
				ordered[e] = s
			}
			continue
		}
		for _, e := range es {
			if hidden[e] == nil {
				hidden[e] = map[op]bool{}
			}
			for _, o := range implies[f.op] {
				hidden[e][o] = true
			}
		}
	}
	return hidden, ordered
}

// edge is an ordering lo < hi (or lo <= hi).
type edge struct {
	lo, hi int
	strict bool
	f      *fact
}

func edgeOf(f *fact) (edge, bool) {
	switch f.op {
	case opLT:
		return edge{f.v[0], f.v[1], true, f}, true
	case opLE:
		return edge{f.v[0], f.v[1], false, f}, true
	case opGT:
		return edge{f.v[1], f.v[0], true, f}, true
	case opGE:
		return edge{f.v[1], f.v[0], false, f}, true
	}
	return edge{}, false
}

// transitive drops orderings implied by two others.
func transitive(facts []*fact) []*fact {
	var edges []edge
	for _, f := range facts {
		if e, ok := edgeOf(f); ok {
			edges = append(edges, e)
		}
	}
	implied := map[*fact]bool{}
	for _, e := range edges {
		for _, a := range edges {
			if a.lo != e.lo || a.f == e.f || implied[a.f] {
				continue
			}
			for _, b := range edges {
				if b.lo == a.hi && b.hi == e.hi && !implied[b.f] && (!e.strict || a.strict || b.strict) {
					implied[e.f] = true
				}
			}
		}
	}
	var out []*fact
	for _, f := range facts {
		if !implied[f] {
			out = append(out, f)
		}
	}
	return out
}

// render writes the facts as Go expressions, sorted; in postconditions
// (post) the facts over parameters alone are left out. Orderings that
// share a variable are joined into chains: y < x && x < z.
func render(vars []variable, facts []*fact, post bool) []string {
	mentionsResult := func(f *fact) bool {
		for i := 0; i < f.n; i++ {
			if vars[f.v[i]].result {
				return true
			}
		}
		return false
	}
	var edges []edge
	out := []string{}
	for _, f := range facts {
		if post && !mentionsResult(f) {
			continue
		}
		if e, ok := edgeOf(f); ok {
			edges = append(edges, e)
			continue
		}
		out = append(out, renderFact(vars, f))
	}
	in, outd := map[int][]int{}, map[int][]int{}
	for i, e := range edges {
		in[e.hi] = append(in[e.hi], i)
		outd[e.lo] = append(outd[e.lo], i)
	}
	used := make([]bool, len(edges))
	next := func(i int) int { // the edge continuing edge i, or -1
		h := edges[i].hi
		if len(in[h]) == 1 && len(outd[h]) == 1 && !used[outd[h][0]] {
			return outd[h][0]
		}
		return -1
	}
	for i := range edges {
		if used[i] {
			continue
		}
		// Walk back to the chain's start.
		start := i
		for {
			l := edges[start].lo
			if len(in[l]) == 1 && len(outd[l]) == 1 && !used[in[l][0]] && in[l][0] != i {
				start = in[l][0]
				continue
			}
			break
		}
		chain := []int{start}
		used[start] = true
		for j := next(start); j >= 0; j = next(j) {
			chain = append(chain, j)
			used[j] = true
		}
		if len(chain) == 1 {
			out = append(out, renderFact(vars, edges[start].f))
			continue
		}
		var parts []string
		for _, j := range chain {
			e := edges[j]
			rel := "<="
			if e.strict {
				rel = "<"
			}
			parts = append(parts, fmt.Sprintf("%s %s %s", vars[e.lo].name, rel, vars[e.hi].name))
		}
		out = append(out, strings.Join(parts, " && "))
	}
	sort.Strings(out)
	return out
}

var mirror = map[op]op{opLT: opGT, opGT: opLT, opLE: opGE, opGE: opLE, opEq: opEq, opNE: opNE}

var allSymbol = map[op]string{opAllGT0: ">", opAllGE0: ">=", opAllLT0: "<", opAllLE0: "<=", opAllNE0: "!="}

var symbol = map[op]string{opLT: "<", opGT: ">", opLE: "<=", opGE: ">=", opEq: "==", opNE: "!="}

// renderFact writes one fact as a Go expression. With vars nil the
// variables are named by the fact and taken as integers.
func renderFact(vars []variable, f *fact) string {
	name := func(i int) string { return f.meta[i] }
	ints := func() bool {
		if vars == nil {
			return true
		}
		for i := 0; i < f.n; i++ {
			if !vars[f.v[i]].ints {
				return false
			}
		}
		return true
	}
	eq := func(a, b string) string {
		if ints() {
			return a + " == " + b
		}
		return "approx(" + a + ", " + b + ")"
	}
	x := name(0)
	switch f.op {
	case opGT0:
		return x + " > 0"
	case opGE0:
		return x + " >= 0"
	case opLT0:
		return x + " < 0"
	case opLE0:
		return x + " <= 0"
	case opNE0:
		return x + " != 0"
	case opNonEmpty:
		if vars != nil && vars[f.v[0]].str {
			return strings.TrimSuffix(strings.TrimPrefix(x, "len("), ")") + ` != ""`
		}
		return x + " > 0"
	case opOneOf:
		var parts []string
		cs := append([]cell(nil), f.consts...)
		sort.Slice(cs, func(i, j int) bool { return cs[i].key() < cs[j].key() })
		for _, c := range cs {
			lit, _ := c.literal()
			if c.k == kBool {
				if c.full {
					return x
				}
				return "!" + x
			}
			parts = append(parts, x+" == "+lit)
		}
		return strings.Join(parts, " || ")
	case opNil:
		return x + " == nil"
	case opNonNil:
		return x + " != nil"
	case opRange:
		lo, _ := f.consts[0].literal()
		hi, _ := f.consts[1].literal()
		if vars != nil && vars[f.v[0]].length && f.consts[0].i == 0 {
			return x + " <= " + hi
		}
		return fmt.Sprintf("%s >= %s && %s <= %s", x, lo, x, hi)
	case opSorted:
		return "sorted(" + x + ")"
	case opAllGT0, opAllGE0, opAllLT0, opAllLE0, opAllNE0:
		return "all(" + x + ") " + allSymbol[f.op] + " 0"
	case opUser:
		return f.user.src
	}
	y := name(1)
	switch f.op {
	case opEq, opLT, opLE, opGT, opGE, opNE:
		o := f.op
		if vars != nil && vars[f.v[1]].result && !vars[f.v[0]].result {
			x, y, o = y, x, mirror[o]
		}
		if o == opEq {
			return eq(x, y)
		}
		return x + " " + symbol[o] + " " + y
	case opSq:
		if vars != nil && vars[f.v[1]].result && !vars[f.v[0]].result {
			return eq(y+"*"+y, x)
		}
		return eq(x, y+"*"+y)
	case opOff:
		c := f.consts[0].i
		if c < 0 {
			return fmt.Sprintf("%s == %s - %d", x, y, -c)
		}
		return fmt.Sprintf("%s == %s + %d", x, y, c)
	case opStrEq:
		if vars != nil && vars[f.v[1]].result && !vars[f.v[0]].result {
			x, y = y, x
		}
		return x + " == " + y
	case opPrefix:
		return "strings.HasPrefix(" + x + ", " + y + ")"
	case opSuffix:
		return "strings.HasSuffix(" + x + ", " + y + ")"
	case opContains:
		return "strings.Contains(" + x + ", " + y + ")"
	case opSum:
		ints := vars == nil || vars[f.v[0]].ints
		for _, e := range f.elems {
			ints = ints && (vars == nil || vars[e].ints)
		}
		if !ints {
			return "approx(" + x + ", sum(" + y + "))"
		}
		return x + " == sum(" + y + ")"
	}
	z := name(2)
	sym := map[op]string{opAdd: "+", opSub: "-", opMul: "*", opDiv: "/"}[f.op]
	return eq(x, y+" "+sym+" "+z)
}
