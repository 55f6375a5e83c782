package changes

import "strings"

// An op is one step of a line edit script: a line kept (' '), deleted
// from the good side ('-') or inserted from the bad side ('+'). g and b
// are the line's indices on the sides it belongs to.
type op struct {
	kind byte
	g, b int
}

// splitLines cuts text into lines, each with its newline; the last line
// may lack one.
func splitLines(s string) []string {
	var out []string
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

// editScript returns a shortest edit script turning a into b (Myers
// 1986), with a common prefix and suffix kept aside.
func editScript(a, b []string) []op {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var ops []op
	for i := 0; i < pre; i++ {
		ops = append(ops, op{' ', i, i})
	}
	for _, o := range patience(a[pre:len(a)-suf], b[pre:len(b)-suf]) {
		o.g += pre
		o.b += pre
		ops = append(ops, o)
	}
	for i := 0; i < suf; i++ {
		ops = append(ops, op{' ', len(a) - suf + i, len(b) - suf + i})
	}
	return ops
}

// patience is the patience diff (Bram Cohen's): the lines that occur
// once on each side, in the longest sequence in the same order on both,
// anchor the alignment, and the parts between anchors are diffed in
// turn, by Myers's algorithm where no line is unique. Code aligned so
// keeps declarations together instead of matching their braces and
// blank lines across declarations.
func patience(a, b []string) []op {
	type count struct{ a, b, ai, bi int }
	counts := map[string]*count{}
	for i, l := range a {
		c := counts[l]
		if c == nil {
			c = &count{}
			counts[l] = c
		}
		c.a++
		c.ai = i
	}
	for j, l := range b {
		if c := counts[l]; c != nil {
			c.b++
			c.bi = j
		}
	}
	// The unique common lines in a's order, then the longest increasing
	// subsequence of their positions in b.
	type pair struct{ i, j int }
	var uniq []pair
	for i, l := range a {
		if c := counts[l]; c.a == 1 && c.b == 1 && strings.TrimSpace(l) != "" {
			uniq = append(uniq, pair{i, c.bi})
		}
	}
	if len(uniq) == 0 {
		return myers(a, b)
	}
	// LIS by patience sorting.
	tails := []int{} // indices into uniq
	prev := make([]int, len(uniq))
	for k, p := range uniq {
		lo, hi := 0, len(tails)
		for lo < hi {
			m := (lo + hi) / 2
			if uniq[tails[m]].j < p.j {
				lo = m + 1
			} else {
				hi = m
			}
		}
		prev[k] = -1
		if lo > 0 {
			prev[k] = tails[lo-1]
		}
		if lo == len(tails) {
			tails = append(tails, k)
		} else {
			tails[lo] = k
		}
	}
	var anchors []pair
	for k := tails[len(tails)-1]; k >= 0; k = prev[k] {
		anchors = append(anchors, uniq[k])
	}
	var ops []op
	ai, bi := 0, 0
	for k := len(anchors) - 1; k >= -1; k-- {
		ae, be := len(a), len(b)
		if k >= 0 {
			ae, be = anchors[k].i, anchors[k].j
		}
		for _, o := range editScript(a[ai:ae], b[bi:be]) {
			o.g += ai
			o.b += bi
			ops = append(ops, o)
		}
		if k >= 0 {
			ops = append(ops, op{' ', ae, be})
			ai, bi = ae+1, be+1
		}
	}
	return normalize(ops)
}

// myers is Myers's O(ND) greedy algorithm with the trace kept for the
// path back. Deletions come before insertions within a change.
func myers(a, b []string) []op {
	n, m := len(a), len(b)
	if n == 0 || m == 0 {
		var ops []op
		for i := 0; i < n; i++ {
			ops = append(ops, op{'-', i, 0})
		}
		for j := 0; j < m; j++ {
			ops = append(ops, op{'+', n, j})
		}
		return ops
	}
	max := n + m
	off := max + 1
	v := make([]int, 2*max+3)
	var trace [][]int
	d := 0
found:
	for ; d <= max; d++ {
		trace = append(trace, append([]int(nil), v...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || k != d && v[off+k-1] < v[off+k+1] {
				x = v[off+k+1]
			} else {
				x = v[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[off+k] = x
			if x >= n && y >= m {
				break found
			}
		}
	}
	// Walk back.
	var rev []op
	x, y := n, m
	for ; d > 0; d-- {
		vv := trace[d]
		k := x - y
		var pk int
		if k == -d || k != d && vv[off+k-1] < vv[off+k+1] {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := vv[off+pk]
		py := px - pk
		for x > px && y > py {
			x--
			y--
			rev = append(rev, op{' ', x, y})
		}
		if pk == k+1 {
			y--
			rev = append(rev, op{'+', x, y})
		} else {
			x--
			rev = append(rev, op{'-', x, y})
		}
	}
	for x > 0 && y > 0 {
		x--
		y--
		rev = append(rev, op{' ', x, y})
	}
	ops := make([]op, len(rev))
	for i, o := range rev {
		ops[len(rev)-1-i] = o
	}
	return normalize(ops)
}

// normalize puts the deletions of each run of changes before its
// insertions.
func normalize(ops []op) []op {
	out := make([]op, 0, len(ops))
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			out = append(out, ops[i])
			i++
			continue
		}
		j := i
		for j < len(ops) && ops[j].kind != ' ' {
			j++
		}
		for _, o := range ops[i:j] {
			if o.kind == '-' {
				out = append(out, o)
			}
		}
		for _, o := range ops[i:j] {
			if o.kind == '+' {
				out = append(out, o)
			}
		}
		i = j
	}
	return out
}
