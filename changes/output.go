package changes

import (
	"fmt"
	"slices"
	"strings"

	"github.com/culprit-go/culprit/internal/textdiff"
)

// A FileLines is one file's part of a set of atoms: the good side's
// lines it deletes and the bad side's lines it inserts, 1-based ranges.
type FileLines struct {
	File      string   `json:"file"`
	GoodLines [][2]int `json:"good_lines"`
	BadLines  [][2]int `json:"bad_lines"`
	// DeletedAfter is, for each run of deleted lines, the bad side's
	// line after which they stood (0: at the top).
	DeletedAfter []int `json:"deleted_after"`
}

// Lines returns the files and lines of a set of atoms.
func (c *Change) Lines(set []int) []FileLines {
	byFile := map[int]*FileLines{}
	var order []int
	for _, a := range set {
		at := c.atoms[a]
		f := c.Files[at.file]
		fl, ok := byFile[at.file]
		if !ok {
			fl = &FileLines{File: f.Path, GoodLines: [][2]int{}, BadLines: [][2]int{}, DeletedAfter: []int{}}
			byFile[at.file] = fl
			order = append(order, at.file)
		}
		o := f.ops[at.op]
		if o.Kind == '-' {
			if n := len(fl.GoodLines); n == 0 || fl.GoodLines[n-1][1] != o.A {
				fl.DeletedAfter = append(fl.DeletedAfter, o.B)
			}
			fl.GoodLines = addLine(fl.GoodLines, o.A+1)
		} else {
			fl.BadLines = addLine(fl.BadLines, o.B+1)
		}
	}
	slices.Sort(order)
	var out []FileLines
	for _, i := range order {
		out = append(out, *byFile[i])
	}
	return out
}

// addLine adds line l to sorted ranges, in increasing order of calls.
func addLine(rs [][2]int, l int) [][2]int {
	if n := len(rs); n > 0 && rs[n-1][1] == l-1 {
		rs[n-1][1] = l
		return rs
	}
	return append(rs, [2]int{l, l})
}

// Diff returns the change of the atoms of set as a unified diff with
// git's headers, which git apply accepts on the good side.
func (c *Change) Diff(set []int) string {
	contents := c.Apply(set)
	var b strings.Builder
	for _, f := range c.Files {
		cand := contents[f.Path]
		if cand.Exists == f.GoodExists && cand.Data == f.good() {
			continue
		}
		b.WriteString(fileDiff(f.Path, f.good(), cand.Data, f.GoodExists, cand.Exists))
	}
	return b.String()
}

// fileDiff is one file's unified diff, three lines of context.
func fileDiff(path, a, b string, aExists, bExists bool) string {
	x, y := textdiff.Lines(a), textdiff.Lines(b)
	ops := textdiff.Edits(x, y)
	var out strings.Builder
	fmt.Fprintf(&out, "diff --git a/%s b/%s\n", path, path)
	from, to := "a/"+path, "b/"+path
	switch {
	case !aExists:
		out.WriteString("new file mode 100644\n")
		from = "/dev/null"
	case !bExists:
		out.WriteString("deleted file mode 100644\n")
		to = "/dev/null"
	}
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", from, to)
	textdiff.Hunks(&out, x, y, ops)
	return out.String()
}
