package source

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Set is the source files of one program, each read once: a File per
// name, and the errors of those that could not be read.
type Set struct {
	fsys  fs.FS // relative names are read from it; nil: the working directory
	fset  *token.FileSet
	files map[string]*File
	errs  map[string]error
	vars  map[string]map[string]Decl // Vars' answers, by directory
}

// New returns an empty Set reading relative names from fsys, or relative
// to the working directory when fsys is nil; absolute names are read
// from the operating system's file system.
func New(fsys fs.FS) *Set {
	return &Set{fsys: fsys, fset: token.NewFileSet(), files: map[string]*File{}, errs: map[string]error{}}
}

// FileSet returns the file set the Set's files are parsed into: the
// positions of every File's syntax are in it.
func (s *Set) FileSet() *token.FileSet { return s.fset }

// key returns the name a file is kept by, and whether it is read from
// the Set's fs.FS: names that clean to the same path are one file.
func (s *Set) key(name string) (string, bool) {
	if s.fsys != nil && !filepath.IsAbs(name) {
		return path.Clean(name), true
	}
	return filepath.Clean(name), false
}

// File returns the file name, read on the first call: the error, when
// it cannot be read, is the file system's, unwrapped (it names the
// file), and is returned again on later calls.
func (s *Set) File(name string) (*File, error) {
	k, inFS := s.key(name)
	if f, ok := s.files[k]; ok {
		return f, nil
	}
	if err, ok := s.errs[k]; ok {
		return nil, err
	}
	var data []byte
	var err error
	switch {
	case !inFS:
		data, err = os.ReadFile(name)
	case !fs.ValidPath(k):
		err = &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	default:
		data, err = fs.ReadFile(s.fsys, k)
	}
	if err != nil {
		s.errs[k] = err
		return nil, err
	}
	f := &File{set: s, name: name, data: data, text: string(data)}
	s.files[k] = f
	return f, nil
}

// Lines returns the lines of the file name with tabs expanded
// (File.Display), nil when it cannot be read.
func (s *Set) Lines(name string) []string {
	f, err := s.File(name)
	if err != nil {
		return nil
	}
	return f.Display()
}

// File is the text of one source file.
type File struct {
	set  *Set
	name string // the name it was first asked for: its syntax's file name
	data []byte
	text string // data, whose substrings Line returns

	starts  []int    // the offset of each line's start, made on first use
	display []string // Display's answer

	parsed bool
	syntax *ast.File
	tf     *token.File
	err    error // the parse's
}

// Name returns the name the file was first asked for.
func (f *File) Name() string { return f.name }

// Bytes returns the file's contents, not to be modified.
func (f *File) Bytes() []byte { return f.data }

// lineStarts returns the offsets at which the file's lines start. The
// lines are the text split at newlines, but for the empty piece after a
// final newline: "a\nb\n" has two lines, "" one, empty.
func (f *File) lineStarts() []int {
	if f.starts == nil {
		text := bytes.TrimSuffix(f.data, []byte("\n"))
		f.starts = make([]int, 1, bytes.Count(text, []byte("\n"))+1)
		for i, c := range text {
			if c == '\n' {
				f.starts = append(f.starts, i+1)
			}
		}
	}
	return f.starts
}

// LineCount returns the number of lines of the file (see Line).
func (f *File) LineCount() int { return len(f.lineStarts()) }

// Line returns the text of line n (1-based) without its newline, as it
// is (tabs and a carriage return kept), "" when the file has no line n.
func (f *File) Line(n int) string {
	starts := f.lineStarts()
	if n < 1 || n > len(starts) {
		return ""
	}
	end := len(strings.TrimSuffix(f.text, "\n"))
	if n < len(starts) {
		end = starts[n] - 1
	}
	return f.text[starts[n-1]:end]
}

// Display returns the file's lines (see Line) with tabs expanded, as
// the code views show them; made once, not to be modified.
func (f *File) Display() []string {
	if f.display == nil {
		n := f.LineCount()
		f.display = make([]string, n)
		for i := range n {
			f.display[i] = Expand(f.Line(i + 1))
		}
	}
	return f.display
}

// Expand returns a line of code as the views show it: each tab four
// spaces.
func Expand(line string) string { return strings.ReplaceAll(line, "\t", "    ") }

// Syntax returns the file parsed (object resolution included, no
// comments), its positions in the Set's FileSet; parsed on the first
// call. The error is the parser's, unwrapped.
func (f *File) Syntax() (*ast.File, error) {
	if !f.parsed {
		f.parsed = true
		f.syntax, f.err = parser.ParseFile(f.set.fset, f.name, f.data, 0)
		if f.err != nil {
			f.syntax = nil
		} else {
			f.tf = f.set.fset.File(f.syntax.Pos())
		}
	}
	return f.syntax, f.err
}

// Token returns the token.File of the file's syntax, nil when it cannot
// be parsed.
func (f *File) Token() *token.File {
	f.Syntax()
	return f.tf
}

// Pos returns the position of a 1-based line and byte column of the
// file's syntax, token.NoPos when the file cannot be parsed or has no
// such line (the column is not checked against the line's length).
func (f *File) Pos(line, col int) token.Pos {
	tf := f.Token()
	if tf == nil || line < 1 || line > tf.LineCount() {
		return token.NoPos
	}
	return tf.LineStart(line) + token.Pos(col-1)
}

// Position returns the line and column of a position of the file's
// syntax, as the Set's FileSet gives it (//line directives applied).
func (f *File) Position(p token.Pos) token.Position { return f.set.fset.Position(p) }

// Text returns the source text of a node of the file's syntax, "" when
// it is not in the file.
func (f *File) Text(n ast.Node) string {
	tf := f.Token()
	if tf == nil {
		return ""
	}
	base, size := token.Pos(tf.Base()), tf.Size()
	p, e := n.Pos(), n.End()
	if p < base || e > base+token.Pos(size) || p > e {
		return ""
	}
	return f.text[tf.Offset(p):tf.Offset(e)]
}
