package command

import (
	"fmt"
	"path"
	"strings"
)

// treeDiff renders the difference between the passing and the failing
// files as a unified diff, file by file.
func treeDiff(in *Input, passName, failName string, pass, fail []File) string {
	var b strings.Builder
	byPath := func(files []File) map[string][]byte {
		m := map[string][]byte{}
		for _, f := range files {
			m[f.Path] = f.Data
		}
		return m
	}
	p, f := byPath(pass), byPath(fail)
	for _, file := range in.Files {
		a, inA := p[file.Path]
		c, inC := f[file.Path]
		if !inA && !inC || inA && inC && string(a) == string(c) {
			continue
		}
		from, to := passName, failName
		if in.Dir {
			from, to = path.Join(passName, file.Path), path.Join(failName, file.Path)
		}
		if !inA {
			from = "/dev/null"
		}
		if !inC {
			to = "/dev/null"
		}
		b.WriteString(unified(from, to, a, c))
	}
	return b.String()
}

// unified returns a unified diff, with three lines of context, turning a
// into b.
func unified(aName, bName string, a, b []byte) string {
	x, y := splitLines(a), splitLines(b)
	ops := editScript(x, y)
	changed := false
	for _, op := range ops {
		changed = changed || op.kind != ' '
	}
	if !changed {
		return ""
	}
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", aName, bName)
	const context = 3
	// Group the edits into hunks separated by more than 2*context equal lines.
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		start := i
		end := i
		for j := i; j < len(ops); j++ {
			if ops[j].kind != ' ' {
				end = j + 1
				continue
			}
			if j-end >= 2*context {
				break
			}
		}
		lo, hi := max(start-context, 0), min(end+context, len(ops))
		var aStart, bStart, aLen, bLen int
		aStart, bStart = ops[lo].ai+1, ops[lo].bi+1
		for _, op := range ops[lo:hi] {
			if op.kind != '+' {
				aLen++
			}
			if op.kind != '-' {
				bLen++
			}
		}
		if aLen == 0 {
			aStart--
		}
		if bLen == 0 {
			bStart--
		}
		fmt.Fprintf(&out, "@@ -%s +%s @@\n", hunkRange(aStart, aLen), hunkRange(bStart, bLen))
		for _, op := range ops[lo:hi] {
			out.WriteByte(op.kind)
			out.WriteString(op.line)
			if !strings.HasSuffix(op.line, "\n") {
				out.WriteString("\n\\ No newline at end of file\n")
			}
		}
		i = hi
	}
	return out.String()
}

func hunkRange(start, n int) string {
	if n == 1 {
		return fmt.Sprint(start)
	}
	return fmt.Sprintf("%d,%d", start, n)
}

func splitLines(b []byte) []string {
	var lines []string
	for len(b) > 0 {
		i := strings.IndexByte(string(b), '\n') + 1
		if i == 0 {
			i = len(b)
		}
		lines = append(lines, string(b[:i]))
		b = b[i:]
	}
	return lines
}

// An edit is one line of an edit script: kept (' '), deleted from a
// ('-') or inserted from b ('+'); ai and bi are the line's position (or
// the position before which it goes) in a and b.
type edit struct {
	kind   byte
	line   string
	ai, bi int
}

// editScript computes a shortest edit script from x to y with Myers'
// O((N+M)D) algorithm.
func editScript(x, y []string) []edit {
	n, m := len(x), len(y)
	maxD := n + m
	off := maxD + 1
	v := make([]int, 2*maxD+3)
	var trace [][]int
	for d := 0; d <= maxD; d++ {
		trace = append(trace, append([]int(nil), v...))
		for k := -d; k <= d; k += 2 {
			var i int
			if k == -d || k != d && v[off+k-1] < v[off+k+1] {
				i = v[off+k+1]
			} else {
				i = v[off+k-1] + 1
			}
			j := i - k
			for i < n && j < m && x[i] == y[j] {
				i++
				j++
			}
			v[off+k] = i
			if i >= n && j >= m {
				return backtrack(x, y, trace, d, off)
			}
		}
	}
	return nil
}

// backtrack walks the saved frontiers back from the end point, reached
// in d steps, to build the edit script. trace[d] is the frontier before
// step d.
func backtrack(x, y []string, trace [][]int, d, off int) []edit {
	var rev []edit
	i, j := len(x), len(y)
	for ; d > 0; d-- {
		v := trace[d]
		k := i - j
		prevK := k - 1 // came from the left: a deletion
		if k == -d || k != d && v[off+k-1] < v[off+k+1] {
			prevK = k + 1 // came from above: an insertion
		}
		pi := v[off+prevK]
		pj := pi - prevK
		for i > pi && j > pj {
			i, j = i-1, j-1
			rev = append(rev, edit{' ', x[i], i, j})
		}
		if prevK == k+1 {
			rev = append(rev, edit{'+', y[pj], pi, pj})
		} else {
			rev = append(rev, edit{'-', x[pi], pi, pj})
		}
		i, j = pi, pj
	}
	for i > 0 && j > 0 {
		i, j = i-1, j-1
		rev = append(rev, edit{' ', x[i], i, j})
	}
	out := make([]edit, len(rev))
	for k, e := range rev {
		out[len(rev)-1-k] = e
	}
	return out
}
