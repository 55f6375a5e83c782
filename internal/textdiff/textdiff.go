package textdiff

import (
	"fmt"
	"strings"
)

// An Op is one step of a line edit script: a line kept (' '), deleted
// from a ('-') or inserted from b ('+'). A and B are the line's indices
// in a and b; for an insertion A is where it goes in a, for a deletion B
// where it would be in b.
type Op struct {
	Kind byte
	A, B int
}

// Lines cuts text into lines, each with its newline; the last line may
// lack one.
func Lines(s string) []string {
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

// Edits returns a shortest edit script turning a into b: a common prefix
// and suffix kept aside, the rest aligned on the lines that occur once
// on each side (patience diff) and diffed between them by Myers's
// algorithm. Within a run of changes, the deletions come first.
func Edits(a, b []string) []Op {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var ops []Op
	for i := 0; i < pre; i++ {
		ops = append(ops, Op{' ', i, i})
	}
	for _, o := range patience(a[pre:len(a)-suf], b[pre:len(b)-suf]) {
		o.A += pre
		o.B += pre
		ops = append(ops, o)
	}
	for i := 0; i < suf; i++ {
		ops = append(ops, Op{' ', len(a) - suf + i, len(b) - suf + i})
	}
	return ops
}

// patience is the patience diff (Bram Cohen's): the lines that occur
// once on each side, in the longest sequence in the same order on both,
// anchor the alignment, and the parts between anchors are diffed in
// turn, by Myers's algorithm where no line is unique. Code aligned so
// keeps declarations together instead of matching their braces and
// blank lines across declarations.
func patience(a, b []string) []Op {
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
		return Myers(a, b)
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
	var ops []Op
	ai, bi := 0, 0
	for k := len(anchors) - 1; k >= -1; k-- {
		ae, be := len(a), len(b)
		if k >= 0 {
			ae, be = anchors[k].i, anchors[k].j
		}
		for _, o := range Edits(a[ai:ae], b[bi:be]) {
			o.A += ai
			o.B += bi
			ops = append(ops, o)
		}
		if k >= 0 {
			ops = append(ops, Op{' ', ae, be})
			ai, bi = ae+1, be+1
		}
	}
	return deletionsFirst(ops)
}

// Myers returns a shortest edit script turning a into b by Myers's
// O(ND) greedy algorithm (1986) alone, with the trace kept for the path
// back. Deletions come before insertions within a change. Edits, which
// anchors it on unique lines, reads better on code.
func Myers(a, b []string) []Op {
	n, m := len(a), len(b)
	if n == 0 || m == 0 {
		var ops []Op
		for i := 0; i < n; i++ {
			ops = append(ops, Op{'-', i, 0})
		}
		for j := 0; j < m; j++ {
			ops = append(ops, Op{'+', n, j})
		}
		return ops
	}
	maxD := n + m
	off := maxD + 1
	v := make([]int, 2*maxD+3)
	var trace [][]int
	d := 0
found:
	for ; d <= maxD; d++ {
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
	var rev []Op
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
			rev = append(rev, Op{' ', x, y})
		}
		if pk == k+1 {
			y--
			rev = append(rev, Op{'+', x, y})
		} else {
			x--
			rev = append(rev, Op{'-', x, y})
		}
	}
	for x > 0 && y > 0 {
		x--
		y--
		rev = append(rev, Op{' ', x, y})
	}
	ops := make([]Op, len(rev))
	for i, o := range rev {
		ops[len(rev)-1-i] = o
	}
	return deletionsFirst(ops)
}

// deletionsFirst puts the deletions of each run of changes before its
// insertions.
func deletionsFirst(ops []Op) []Op {
	out := make([]Op, 0, len(ops))
	for i := 0; i < len(ops); {
		if ops[i].Kind == ' ' {
			out = append(out, ops[i])
			i++
			continue
		}
		j := i
		for j < len(ops) && ops[j].Kind != ' ' {
			j++
		}
		for _, o := range ops[i:j] {
			if o.Kind == '-' {
				out = append(out, o)
			}
		}
		for _, o := range ops[i:j] {
			if o.Kind == '+' {
				out = append(out, o)
			}
		}
		i = j
	}
	return out
}

// context is the number of unchanged lines around each change in a hunk.
const context = 3

// Hunks writes the hunks of the unified diff of the edit script ops from
// a to b (what follows the --- and +++ lines), three lines of context,
// and reports whether there was a change. A last line without a newline
// is marked as diff marks it.
func Hunks(out *strings.Builder, a, b []string, ops []Op) bool {
	changed := false
	line := func(prefix byte, s string) {
		out.WriteByte(prefix)
		out.WriteString(s)
		if !strings.HasSuffix(s, "\n") {
			out.WriteString("\n\\ No newline at end of file\n")
		}
	}
	for i := 0; i < len(ops); {
		if ops[i].Kind == ' ' {
			i++
			continue
		}
		changed = true
		// A hunk ends after more than 2*context unchanged lines.
		start, end := i, i
		for j := i; j < len(ops); j++ {
			if ops[j].Kind != ' ' {
				end = j + 1
				continue
			}
			if j-end >= 2*context {
				break
			}
		}
		lo, hi := max(start-context, 0), min(end+context, len(ops))
		aStart, bStart, aLen, bLen := ops[lo].A+1, ops[lo].B+1, 0, 0
		for _, o := range ops[lo:hi] {
			if o.Kind != '+' {
				aLen++
			}
			if o.Kind != '-' {
				bLen++
			}
		}
		if aLen == 0 {
			aStart--
		}
		if bLen == 0 {
			bStart--
		}
		fmt.Fprintf(out, "@@ -%s +%s @@\n", hunkRange(aStart, aLen), hunkRange(bStart, bLen))
		for _, o := range ops[lo:hi] {
			if o.Kind == '+' {
				line('+', b[o.B])
			} else {
				line(o.Kind, a[o.A])
			}
		}
		i = hi
	}
	return changed
}

// Unified returns the unified diff turning a into b, under the names
// aName and bName, or "" when they are equal; script computes the edit
// script (Edits or Myers).
func Unified(aName, bName, a, b string, script func(a, b []string) []Op) string {
	x, y := Lines(a), Lines(b)
	var hunks strings.Builder
	if !Hunks(&hunks, x, y, script(x, y)) {
		return ""
	}
	return "--- " + aName + "\n+++ " + bName + "\n" + hunks.String()
}

func hunkRange(start, n int) string {
	if n == 1 {
		return fmt.Sprint(start)
	}
	return fmt.Sprintf("%d,%d", start, n)
}
