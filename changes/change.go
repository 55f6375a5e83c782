package changes

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"path"
	"slices"
	"strings"

	"github.com/culprit-go/culprit/internal/textdiff"
)

// A Change is the difference between two trees, file by file, cut into
// atoms: each line deleted from the good side and each line inserted
// from the bad side. A candidate is a set of atoms applied to the good
// side.
type Change struct {
	Files []*File
	atoms []atom
}

// A File is one file's change.
type File struct {
	Path                  string   // slash path from the tree's root
	Good, Bad             []string // lines, each with its newline
	GoodExists, BadExists bool
	ops                   []textdiff.Op
	atomOf                []int // atom of each op, -1 for kept lines
	whole                 bool  // one unit at every level: non-Go files
	goodText              string
}

type atom struct{ file, op int }

// Level names a granularity of the change's units.
type Level string

// The levels, coarse to fine.
const (
	Decls Level = "decls" // a Go declaration's changes, a non-Go file's changes
	Hunks Level = "hunks" // a run of changed lines
	Lines Level = "lines" // a changed line (a deleted line with the one replacing it)
)

// Levels are the levels delta debugging goes through.
var Levels = []Level{Decls, Hunks, Lines}

// newChange computes the change between the good and bad contents of
// the files given (absent: nil, exists false).
func newChange(files []fileSides) *Change {
	c := &Change{}
	slices.SortFunc(files, func(a, b fileSides) int { return strings.Compare(a.path, b.path) })
	for _, fs := range files {
		f := &File{Path: fs.path, GoodExists: fs.goodExists, BadExists: fs.badExists}
		f.Good, f.Bad = textdiff.Lines(fs.good), textdiff.Lines(fs.bad)
		f.goodText = fs.good
		base := path.Base(fs.path)
		// Go files are cut into declarations, hunks and lines; other
		// files (test data, go.mod, go.sum) change as a whole: a test
		// reading a file half changed tells nothing.
		f.whole = !strings.HasSuffix(base, ".go") || binary(fs.good) || binary(fs.bad)
		f.ops = textdiff.Edits(f.Good, f.Bad)
		f.atomOf = make([]int, len(f.ops))
		n := 0
		for i, o := range f.ops {
			f.atomOf[i] = -1
			if o.Kind != ' ' {
				f.atomOf[i] = len(c.atoms)
				c.atoms = append(c.atoms, atom{len(c.Files), i})
				n++
			}
		}
		if n == 0 {
			// Equal, or an empty file created or deleted: no line
			// carries it.
			continue
		}
		c.Files = append(c.Files, f)
		for i := range f.atomOf {
			if f.atomOf[i] >= 0 {
				c.atoms[f.atomOf[i]].file = len(c.Files) - 1
			}
		}
	}
	return c
}

// fileSides is a file's content on both sides.
type fileSides struct {
	path                  string
	good, bad             string
	goodExists, badExists bool
}

func binary(s string) bool { return strings.IndexByte(s, 0) >= 0 }

// Size returns the change's number of atoms (changed lines) and hunks.
func (c *Change) Size() (lines, hunks int) {
	for _, f := range c.Files {
		hunks += len(f.hunks())
	}
	return len(c.atoms), hunks
}

// All is the set of every atom.
func (c *Change) All() []int {
	s := make([]int, len(c.atoms))
	for i := range s {
		s[i] = i
	}
	return s
}

// hunks returns the op ranges [i, j) of the file's runs of changes.
func (f *File) hunks() [][2]int {
	var out [][2]int
	for i := 0; i < len(f.ops); {
		if f.ops[i].Kind == ' ' {
			i++
			continue
		}
		j := i
		for j < len(f.ops) && f.ops[j].Kind != ' ' {
			j++
		}
		out = append(out, [2]int{i, j})
		i = j
	}
	return out
}

// Units cuts the atoms of set into the units of a level, each a sorted
// set of atoms, in the order of the files and lines. The units of a
// level are unions of the units of the next one.
func (c *Change) Units(level Level, set []int) [][]int {
	in := make(map[int]bool, len(set))
	for _, a := range set {
		in[a] = true
	}
	var units [][]int
	add := func(u []int) {
		var kept []int
		for _, a := range u {
			if in[a] {
				kept = append(kept, a)
			}
		}
		if len(kept) > 0 {
			slices.Sort(kept)
			units = append(units, kept)
		}
	}
	for _, f := range c.Files {
		hs := f.hunks()
		if f.whole || level == Decls && !strings.HasSuffix(f.Path, ".go") {
			var u []int
			for _, h := range hs {
				u = append(u, f.hunkAtoms(h)...)
			}
			add(u)
			continue
		}
		switch level {
		case Decls:
			for _, group := range f.declGroups(hs) {
				var u []int
				for _, h := range group {
					u = append(u, f.hunkAtoms(hs[h])...)
				}
				add(u)
			}
		case Hunks:
			for _, h := range hs {
				add(f.hunkAtoms(h))
			}
		default:
			for _, h := range hs {
				var del, ins []int
				for i := h[0]; i < h[1]; i++ {
					if f.ops[i].Kind == '-' {
						del = append(del, f.atomOf[i])
					} else {
						ins = append(ins, f.atomOf[i])
					}
				}
				for _, u := range c.pairLines(f, del, ins) {
					add(u)
				}
			}
		}
	}
	return units
}

func (f *File) hunkAtoms(h [2]int) []int {
	var out []int
	for i := h[0]; i < h[1]; i++ {
		out = append(out, f.atomOf[i])
	}
	return out
}

// declGroups groups the hunks of a Go file by the top-level declarations
// they touch, on either side (a declaration's doc comment belongs to
// it): hunks touching one declaration, or a declaration and the one
// that replaced it, are one group. A hunk outside every declaration is
// a group of its own.
func (f *File) declGroups(hs [][2]int) [][]int {
	good, goodNames := declLines(f.Good)
	bad, badNames := declLines(f.Bad)
	parent := make([]int, len(hs))
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return parent[i]
	}
	owner := map[[2]int]int{} // (side, decl) -> a hunk touching it
	// A good and a bad declaration that share a kept line are one
	// declaration, changed: the first hunk touching either owns both.
	same := map[[2]int][2]int{}
	// So are two declarations of the same name.
	byName := map[string]int{}
	for i, n := range goodNames {
		if n != "" {
			byName[n] = i
		}
	}
	for j, n := range badNames {
		if i, ok := byName[n]; ok && n != "" {
			same[[2]int{1, j}] = [2]int{0, i}
		}
	}
	for _, o := range f.ops {
		if o.Kind == ' ' && good[o.A] >= 0 && bad[o.B] >= 0 {
			g, b := [2]int{0, good[o.A]}, [2]int{1, bad[o.B]}
			if _, ok := same[b]; !ok {
				same[b] = g
			}
		}
	}
	canon := func(k [2]int) [2]int {
		if g, ok := same[k]; ok {
			return g
		}
		return k
	}
	for h, r := range hs {
		for i := r[0]; i < r[1]; i++ {
			o := f.ops[i]
			key := [2]int{0, -1}
			if o.Kind == '-' {
				key = [2]int{0, good[o.A]}
			} else {
				key = [2]int{1, bad[o.B]}
			}
			if key[1] < 0 {
				continue
			}
			key = canon(key)
			if other, ok := owner[key]; ok {
				parent[find(h)] = find(other)
			} else {
				owner[key] = h
			}
		}
	}
	var groups [][]int
	index := map[int]int{}
	for h := range hs {
		r := find(h)
		k, ok := index[r]
		if !ok {
			k = len(groups)
			index[r] = k
			groups = append(groups, nil)
		}
		groups[k] = append(groups[k], h)
	}
	return groups
}

// declLines maps each line of a Go file to the index of the top-level
// declaration holding it (its doc comment included), -1 outside any;
// all -1 when the file does not parse. It also returns each
// declaration's name: "import", a function's or method's name (with its
// receiver's type), the first name a type, var or const declares.
func declLines(lines []string) ([]int, []string) {
	out := make([]int, len(lines))
	var names []string
	for i := range out {
		out[i] = -1
	}
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "x.go", strings.Join(lines, ""), parser.ParseComments|parser.SkipObjectResolution)
	if err != nil && file == nil {
		return out, nil
	}
	for k, d := range file.Decls {
		names = append(names, declName(d))
		start := d.Pos()
		if doc := docOf(d); doc != nil {
			start = doc.Pos()
		}
		from, to := fset.Position(start).Line, fset.Position(d.End()).Line
		for l := from; l <= to && l-1 < len(out); l++ {
			if l >= 1 {
				out[l-1] = k
			}
		}
	}
	return out, names
}

func declName(d ast.Decl) string {
	switch d := d.(type) {
	case *ast.FuncDecl:
		name := "func " + d.Name.Name
		if d.Recv != nil && len(d.Recv.List) > 0 {
			name = "method " + types.ExprString(d.Recv.List[0].Type) + "." + d.Name.Name
		}
		return name
	case *ast.GenDecl:
		if d.Tok == token.IMPORT {
			return "import"
		}
		for _, sp := range d.Specs {
			switch sp := sp.(type) {
			case *ast.TypeSpec:
				return "type " + sp.Name.Name
			case *ast.ValueSpec:
				if len(sp.Names) > 0 && sp.Names[0].Name != "_" {
					return d.Tok.String() + " " + sp.Names[0].Name
				}
			}
		}
	}
	return ""
}

// apply returns the content of file f with the atoms in applied, and
// whether the file exists then.
func (f *File) apply(applied func(int) bool) (string, bool) {
	var b strings.Builder
	plus, allMinus := false, true
	for i, o := range f.ops {
		switch o.Kind {
		case ' ':
			b.WriteString(f.Good[o.A])
		case '-':
			if !applied(f.atomOf[i]) {
				b.WriteString(f.Good[o.A])
				allMinus = false
			}
		case '+':
			if applied(f.atomOf[i]) {
				b.WriteString(f.Bad[o.B])
				plus = true
			}
		}
	}
	exists := true
	switch {
	case !f.GoodExists:
		exists = plus
	case !f.BadExists:
		exists = !allMinus
	}
	return b.String(), exists
}

// good returns the file's content on the good side.
func (f *File) good() string { return f.goodText }

// Apply returns, for each file of the change, its content with the
// atoms of set applied to the good side, and whether it exists.
func (c *Change) Apply(set []int) map[string]Content {
	in := make([]bool, len(c.atoms))
	for _, a := range set {
		in[a] = true
	}
	out := make(map[string]Content, len(c.Files))
	for _, f := range c.Files {
		s, ok := f.apply(func(a int) bool { return in[a] })
		out[f.Path] = Content{Data: s, Exists: ok}
	}
	return out
}

// Content is a file's content in a candidate.
type Content struct {
	Data   string
	Exists bool
}

func docOf(d any) *ast.CommentGroup {
	switch d := d.(type) {
	case *ast.FuncDecl:
		return d.Doc
	case *ast.GenDecl:
		return d.Doc
	}
	return nil
}

// pairLines makes the line units of a hunk: a deleted line and the
// inserted line most like it (in order, by similarity) are one unit,
// a modified line; the other lines are units of their own.
func (c *Change) pairLines(f *File, del, ins []int) [][]int {
	text := func(a int) string {
		o := f.ops[c.atoms[a].op]
		if o.Kind == '-' {
			return strings.TrimSpace(f.Good[o.A])
		}
		return strings.TrimSpace(f.Bad[o.B])
	}
	n, m := len(del), len(ins)
	// score[i][j]: the best total similarity pairing del[i:] with ins[j:].
	score := make([][]float64, n+1)
	for i := range score {
		score[i] = make([]float64, m+1)
	}
	sim := func(i, j int) float64 { return similarity(text(del[i]), text(ins[j])) }
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			best := max(score[i+1][j], score[i][j+1])
			if s := sim(i, j); s >= 0.5 {
				best = max(best, s+score[i+1][j+1])
			}
			score[i][j] = best
		}
	}
	var units [][]int
	i, j := 0, 0
	for i < n && j < m {
		if s := sim(i, j); s >= 0.5 && score[i][j] == s+score[i+1][j+1] {
			units = append(units, []int{del[i], ins[j]})
			i++
			j++
		} else if score[i][j] == score[i+1][j] {
			units = append(units, []int{del[i]})
			i++
		} else {
			units = append(units, []int{ins[j]})
			j++
		}
	}
	for ; i < n; i++ {
		units = append(units, []int{del[i]})
	}
	for ; j < m; j++ {
		units = append(units, []int{ins[j]})
	}
	return units
}

// similarity is the share of two lines their common prefix and suffix
// make up, between 0 and 1.
func similarity(a, b string) float64 {
	if a == "" && b == "" {
		return 1
	}
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	s := 0
	for s < len(a)-p && s < len(b)-p && a[len(a)-1-s] == b[len(b)-1-s] {
		s++
	}
	return 2 * float64(p+s) / float64(len(a)+len(b))
}
