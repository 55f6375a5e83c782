package deps

import (
	"fmt"
	"go/token"
	"math"
	"sort"
	"strings"
)

// The versions of an execution-level graph's sites (versioned.fresh),
// bounded per site (MaxVersions) and in all (the budget of nodes,
// Options.MaxNodes): past a bound, a site's or a position's latest
// version stands for its later definitions.

// posKey is a position of a file and a name without its index: the
// elements written or read there ("xs[3]", "xs[4]") are one.
type posKey struct {
	name string
	file string
	pos  token.Pos
}

// unindexed is name with its first index and what follows as "[]":
// "xs[3]" and "xs[4]" are "xs[]", not "xs".
func unindexed(name string) string {
	if i := strings.IndexByte(name, '['); i > 0 {
		return name[:i] + "[]"
	}
	return name
}

// siteVersions is how many versions a site made and its latest.
type siteVersions struct {
	n, last int
}

// MaxVersions bounds the versions of one site in an execution-level
// graph: above the events a site records in full under culprit slice's
// and flow's default sampling (10,000), so that only runs recorded in
// full (-calls -1) reach it.
var MaxVersions = 1 << 14

func newVersioned(b *builder, budget int) *versioned {
	return &versioned{builder: b, count: map[string]int{}, elems: map[scopeKey]map[string]int{}, inputs: map[string]int{}, sites: map[nodeKey]siteVersions{},
		budget: max(budget, 0), next: max(budget, 0), atPos: map[posKey]siteVersions{}}
}

// fresh returns a new node for a definition of name at pos (up to
// MaxVersions per site).
func (b *versioned) fresh(name string, f *file, pos token.Pos, fn *function) int {
	site := nodeKey{name, f, pos}
	sv := b.sites[site]
	if sv.n >= MaxVersions {
		if b.reused == 0 {
			b.note(fmt.Sprintf("a site defined more than %d versions (%s at %s): its latest version stands for the later ones", MaxVersions, name, f.fset.Position(pos)))
		}
		return b.reuse(sv.last)
	}
	at := posKey{unindexed(name), f.path, pos}
	pv := b.atPos[at]
	if b.limit > 0 && pv.n >= b.limit {
		b.merged++
		if sv.n > 0 {
			return b.reuse(sv.last)
		}
		return b.reuse(pv.last)
	}
	p := f.fset.Position(pos)
	n := &Node{ID: len(b.g.Nodes), Var: name, File: f.path, Line: p.Line, Col: p.Column, Versioned: Versioned{Seq: len(b.g.Nodes) + 1 + b.reused}}
	if fn != nil {
		n.Func = fn.name
	}
	k := n.Func + "\x00" + name
	n.Version = b.count[k]
	b.count[k]++
	b.g.Nodes = append(b.g.Nodes, n)
	b.sites[site] = siteVersions{n: sv.n + 1, last: n.ID}
	b.atPos[at] = siteVersions{n: pv.n + 1, last: n.ID}
	if b.budget > 0 && len(b.g.Nodes) >= b.next {
		b.tighten()
	}
	return n.ID
}

// reuse gives a definition the version id: its latest, standing for it.
func (b *versioned) reuse(id int) int {
	b.reused++
	b.g.Nodes[id].Seq = len(b.g.Nodes) + b.reused
	return id
}

// tighten caps the versions a position may make, the nodes having
// reached the budget: at the most that would have left half the budget
// made (the positions that made more stop; those that made fewer may
// go on up to it). The next time comes when half the headroom left is
// used, so that the nodes stay under twice the budget (and a node per
// position made after).
func (b *versioned) tighten() {
	b.rounds++
	counts := make([]int, 0, len(b.atPos))
	for _, pv := range b.atPos {
		counts = append(counts, pv.n)
	}
	limit := waterLevel(counts, b.budget/2)
	if b.limit > 0 {
		limit = min(limit, b.limit-1)
	}
	b.limit = max(1, limit)
	b.next = len(b.g.Nodes) + max(b.budget>>b.rounds, 1)
	if b.limit == 1 {
		b.next = math.MaxInt // a version per position: no more to cap
	}
}

// waterLevel returns the greatest cap c such that the counts, each
// capped at c, add up to at most total (0 when none does).
func waterLevel(counts []int, total int) int {
	sort.Sort(sort.Reverse(sort.IntSlice(counts)))
	// Capped at c, counts[:k] (those above c) add k*c, the rest their
	// own: with rest the sum of counts[k:], c = (total-rest)/k for the
	// first k at which that c is at least counts[k].
	rest := 0
	for _, n := range counts {
		rest += n
	}
	for k := 1; k <= len(counts); k++ {
		rest -= counts[k-1]
		if rest > total {
			continue
		}
		c := (total - rest) / k
		if k == len(counts) || c >= counts[k] {
			return min(c, counts[k-1])
		}
	}
	return 0
}
