package flow

import "sort"

// Reduce returns the transitive reduction of an acyclic graph's edges:
// an edge u->v is removed when v is also reached from u through a longer
// path. Several kinds between the same pair count as one pair (kept or
// removed together). It returns the edges kept, how many were removed, and
// false (with the edges unchanged) when the graph has a cycle.
//
// Reduction removes information: after it, that a value was used directly
// (x@1 = x@0 + y@1, not only through y@1) can no longer be read off the
// graph.
func Reduce(edges []Edge) ([]Edge, int, bool) {
	succ := map[int][]int{}
	indeg := map[int]int{}
	nodes := map[int]bool{}
	pair := map[[2]int]bool{}
	for _, e := range edges {
		nodes[e.From], nodes[e.To] = true, true
		if e.From == e.To {
			return edges, 0, false
		}
		p := [2]int{e.From, e.To}
		if !pair[p] {
			pair[p] = true
			succ[e.From] = append(succ[e.From], e.To)
			indeg[e.To]++
		}
	}
	// Topological order (Kahn), smallest id first for determinism.
	var ready []int
	for n := range nodes {
		if indeg[n] == 0 {
			ready = append(ready, n)
		}
	}
	sort.Ints(ready)
	var order []int
	for len(ready) > 0 {
		n := ready[0]
		ready = ready[1:]
		order = append(order, n)
		for _, m := range succ[n] {
			if indeg[m]--; indeg[m] == 0 {
				ready = append(ready, m)
			}
		}
	}
	if len(order) != len(nodes) {
		return edges, 0, false
	}
	pos := make(map[int]int, len(order))
	for i, n := range order {
		pos[n] = i
	}
	words := (len(order) + 63) / 64
	reachSet := make([][]uint64, len(order)) // strict descendants, by position
	has := func(set []uint64, i int) bool { return set[i/64]&(1<<(i%64)) != 0 }
	drop := map[[2]int]bool{}
	for i := len(order) - 1; i >= 0; i-- {
		u := order[i]
		set := make([]uint64, words)
		ss := append([]int(nil), succ[u]...)
		// Nearest successors first: a successor reached from an earlier
		// (in topological order) one is implied.
		sort.Slice(ss, func(a, b int) bool { return pos[ss[a]] < pos[ss[b]] })
		for _, v := range ss {
			j := pos[v]
			if has(set, j) {
				drop[[2]int{u, v}] = true
				continue
			}
			set[j/64] |= 1 << (j % 64)
			for w, x := range reachSet[j] {
				set[w] |= x
			}
		}
		reachSet[i] = set
	}
	var out []Edge
	for _, e := range edges {
		if !drop[[2]int{e.From, e.To}] {
			out = append(out, e)
		}
	}
	return out, len(drop), true
}
