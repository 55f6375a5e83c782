// Package gosyntax is the rewrite.Syntax of Go source files.
//
// Largest subtrees first, it proposes to delete comments, declarations,
// struct fields and interface methods, the elements of composite literals
// (outer literals first), statements (block by block from
// the function bodies down, case clauses included), method receivers,
// result lists with the values of the return statements, function
// parameters together with the matching argument of every call in the
// file, and call arguments; to replace an if by its then- or else-branch, a loop, block,
// labeled, go or defer statement by its body or call, a switch by one of
// its clauses; an expression by an operand (a binary expression by either
// side, a call by its first or last argument, a parenthesized, unary,
// index or selector expression by its operand) or by the zero value of
// its type; to inline a variable used once and a function called once; to shorten identifiers and
// string and number literals. Each alternative for a node is a separate
// round, so an if may become its then-branch, its else-branch, or
// nothing.
//
// Candidates are parsed, lose the imports the edits made unused, and are
// gofmt-formatted; a candidate that does not parse is rejected, unless the
// original file did not parse either: then a candidate is accepted as it
// is when its syntax errors are among the original's (compared by
// message, without positions), since it fails no worse, and the rounds
// edit the partial syntax tree that go/parser recovers around the errors.
// Unless
// NoTypes is set, candidates are also type-checked with go/types and
// rejected when they have a type error the original file did not have
// (other than something declared, imported or evaluated and not used):
// on a file that type-checks, only type-correct candidates are tested,
// and on a file with a compile error, only candidates whose errors are
// among the original's.
package gosyntax

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/format"
	"go/importer"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"path"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/tools/go/ast/astutil"

	"github.com/culprit-go/culprit/reduce/rewrite"
)

// Syntax is the Go syntax. It remembers the syntax and type errors of the
// first text it sees for each path (the original), so use one Syntax per
// reduction. The zero value is ready to use.
type Syntax struct {
	// NoTypes turns off the go/types check of candidates: every candidate
	// that parses is tested, and zero values are only proposed for
	// literals.
	NoTypes bool
	// Compiled says that the oracle compiles the candidates (go build,
	// go test): something declared and not used, which the compiler
	// rejects, is then a new type error like any other, not one that
	// later rounds clean up, and such candidates are skipped untested.
	Compiled bool

	mu   sync.Mutex // guards the fields below and serializes type checks
	imp  types.Importer
	base map[string]*original // by path

	used    map[string]map[string]bool // usedNamesOf, by text: the current text of each file
	pkgBase map[string]map[string]bool // CheckSet: the type errors of each original package, by directory
}

// original is what a file's original text got wrong.
type original struct {
	syntax map[string]bool // messages of its syntax errors; empty when it parses
	types  map[string]bool // messages of its type errors, when it parses
}

// Name returns "go".
func (*Syntax) Name() string { return "go" }

// ErrTypes: a candidate has a type error that the original does not have.
var ErrTypes = errors.New("new type error")

// ErrSyntax: a candidate does not parse, and the original either parses or
// does not have that syntax error.
var ErrSyntax = errors.New("new syntax error")

// among reports whether the syntax errors of err are among those of the
// original; if not, it returns the first message that is not.
func among(err error, orig map[string]bool) (string, bool) {
	for m := range syntaxErrors(err) {
		if !orig[m] {
			return m, false
		}
	}
	return "", true
}

// blankLines matches runs of blank lines.
var blankLines = regexp.MustCompile(`\n[ \t]*\n(?:[ \t]*\n)+`)

// syntaxErrors returns the messages of a parse error (without their
// positions).
func syntaxErrors(err error) map[string]bool {
	msgs := map[string]bool{}
	var list scanner.ErrorList
	if errors.As(err, &list) {
		for _, e := range list {
			msgs[e.Msg] = true
		}
	} else if err != nil {
		msgs[err.Error()] = true
	}
	return msgs
}

// typeErrors type-checks a parsed file and returns the messages of its
// errors, and the type information when it has none.
func (s *Syntax) typeErrors(fset *token.FileSet, f *ast.File) (map[string]bool, *types.Info) {
	return s.packageErrors(fset, []*ast.File{f})
}

// packageErrors type-checks the files of a package together.
func (s *Syntax) packageErrors(fset *token.FileSet, files []*ast.File) (map[string]bool, *types.Info) {
	f := files[0]
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.imp == nil {
		s.imp = importer.Default()
	}
	msgs := map[string]bool{}
	info := &types.Info{
		Types: map[ast.Expr]types.TypeAndValue{},
		Defs:  map[*ast.Ident]types.Object{},
		Uses:  map[*ast.Ident]types.Object{},
	}
	conf := types.Config{
		Importer: s.imp,
		Error: func(err error) {
			var te types.Error
			if errors.As(err, &te) {
				msgs[te.Msg] = true
			} else {
				msgs[err.Error()] = true
			}
		},
	}
	conf.Check(f.Name.Name, fset, files, info)
	return msgs, info
}

// baseline returns what the original of path got wrong, recording it from
// text the first time.
func (s *Syntax) baseline(path string, text []byte) *original {
	s.mu.Lock()
	b, ok := s.base[path]
	s.mu.Unlock()
	if ok {
		return b
	}
	b = &original{}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, text, parser.SkipObjectResolution)
	if err != nil {
		b.syntax = syntaxErrors(err)
	} else if !s.NoTypes {
		b.types, _ = s.typeErrors(fset, f)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.base == nil {
		s.base = map[string]*original{}
	}
	if old, ok := s.base[path]; ok {
		return old
	}
	s.base[path] = b
	return b
}

// Normalize parses the candidate, deletes the imports that were used in
// old and no longer are and the empty groups (var (), import ()) that
// deletions leave, formats it as gofmt does and, unless NoTypes is
// set, rejects it when it has a type error the original does not have.
// When the original does not parse, a candidate that does not parse
// either is returned unchanged if its syntax errors are among the
// original's, and rejected otherwise.
func (s *Syntax) Normalize(path string, old, candidate []byte) ([]byte, error) {
	base := s.baseline(path, old)
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, candidate, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return s.unparsable(path, base, candidate, err)
	}
	if len(f.Imports) > 0 {
		usedBefore := s.usedNamesOf(old)
		usedNow := usedNames(f)
		for _, imp := range append([]*ast.ImportSpec(nil), f.Imports...) {
			name := importName(imp)
			if name != "_" && name != "." && usedBefore[name] && !usedNow[name] {
				p, _ := strconv.Unquote(imp.Path.Value)
				var alias string
				if imp.Name != nil {
					alias = imp.Name.Name
				}
				astutil.DeleteNamedImport(fset, f, alias, p)
			}
		}
	}
	dropEmptyGroups(f)
	var b bytes.Buffer
	if err := format.Node(&b, fset, f); err != nil {
		return nil, fmt.Errorf("go: format: %w", err)
	}
	// The type check looks at the tree that was formatted: its errors'
	// messages, all that is compared, are those of the output.
	if err := s.newTypeError(fset, f, base); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Check does what Normalize does but format: it tells whether Normalize
// would accept the candidate, in a third of the time. The levels check
// their candidates with it.
func (s *Syntax) Check(path string, old, candidate []byte) error {
	base := s.baseline(path, old)
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, candidate, parser.SkipObjectResolution)
	if err != nil {
		_, err := s.unparsable(path, base, candidate, err)
		return err
	}
	// The imports Normalize would delete only leave errors about
	// something unused, which are benign, but when the oracle compiles
	// the candidate as it is (Compiled: the levels run it unformatted).
	return s.newTypeError(fset, f, base)
}

// CheckSet type-checks the Go files of each directory of the candidate
// together, as the package they make (its external test package apart),
// and returns an error wrapping ErrTypes when a package has a type error
// that the original package does not have (other than something unused).
// The files of one directory are checked alone by Check; this finds what
// deleting a declaration breaks in the other files. A directory whose
// files did not change, or one of whose files does not parse, is not
// checked. With NoTypes it accepts everything.
func (s *Syntax) CheckSet(old, candidate []rewrite.File) error {
	if s.NoTypes {
		return nil
	}
	byDir := func(files []rewrite.File) map[string][]rewrite.File {
		m := map[string][]rewrite.File{}
		for _, f := range files {
			if strings.HasSuffix(f.Path, ".go") {
				m[path.Dir(f.Path)] = append(m[path.Dir(f.Path)], f)
			}
		}
		return m
	}
	olds, cands := byDir(old), byDir(candidate)
	for dir, cfiles := range cands {
		ofiles := olds[dir]
		if len(ofiles) < 2 || sameFiles(ofiles, cfiles) {
			continue // one file is checked alone; nothing changed
		}
		base, ok := s.packageBaseline(dir, ofiles)
		if !ok {
			continue
		}
		msgs, ok := s.dirErrors(cfiles)
		if !ok {
			continue
		}
		for m := range msgs {
			if !base[m] && !s.benign(m) {
				return fmt.Errorf("go: %s: %s: %w", dir, m, ErrTypes)
			}
		}
	}
	return nil
}

func sameFiles(a, b []rewrite.File) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Path != b[i].Path || string(a[i].Data) != string(b[i].Data) {
			return false
		}
	}
	return true
}

// packageBaseline returns the type errors of the original files of a
// directory, recording them from files the first time.
func (s *Syntax) packageBaseline(dir string, files []rewrite.File) (map[string]bool, bool) {
	s.mu.Lock()
	b, ok := s.pkgBase[dir]
	s.mu.Unlock()
	if ok {
		return b, b != nil
	}
	b, parsed := s.dirErrors(files)
	if !parsed {
		b = nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pkgBase == nil {
		s.pkgBase = map[string]map[string]bool{}
	}
	if old, ok := s.pkgBase[dir]; ok {
		return old, old != nil
	}
	s.pkgBase[dir] = b
	return b, b != nil
}

// dirErrors type-checks the Go files of one directory together, those of
// the external test package (package x_test) apart. It reports false when a file does not parse.
func (s *Syntax) dirErrors(files []rewrite.File) (map[string]bool, bool) {
	fset := token.NewFileSet()
	byName := map[string][]*ast.File{}
	var names []string
	for _, f := range files {
		af, err := parser.ParseFile(fset, f.Path, f.Data, parser.SkipObjectResolution)
		if err != nil {
			return nil, false
		}
		// The external test package apart, the files make one package:
		// a file whose package clause differs is an error go/types
		// reports.
		name := "package"
		if strings.HasSuffix(af.Name.Name, "_test") {
			name = "external test"
		}
		if byName[name] == nil {
			names = append(names, name)
		}
		byName[name] = append(byName[name], af)
	}
	msgs := map[string]bool{}
	for _, name := range names {
		m, _ := s.packageErrors(fset, byName[name])
		for k := range m {
			msgs[k] = true
		}
	}
	return msgs, true
}

// unparsable decides on a candidate that does not parse: it is accepted,
// with its runs of blank lines squeezed, when the original does not parse
// either and its syntax errors are among the original's.
func (s *Syntax) unparsable(path string, base *original, candidate []byte, err error) ([]byte, error) {
	if len(base.syntax) == 0 {
		return nil, fmt.Errorf("go: %w", err)
	}
	if m, ok := among(err, base.syntax); !ok {
		return nil, fmt.Errorf("go: %s: %w", m, ErrSyntax)
	}
	// It cannot be formatted; squeezing its runs of blank lines, which
	// deletions leave behind, is the layout that is left.
	squeezed := blankLines.ReplaceAll(candidate, []byte("\n\n"))
	if len(squeezed) < len(candidate) {
		_, err := parser.ParseFile(token.NewFileSet(), path, squeezed, parser.SkipObjectResolution)
		if _, ok := among(err, base.syntax); ok {
			return squeezed, nil
		}
	}
	return candidate, nil
}

// newTypeError returns an error wrapping ErrTypes when the file has a
// type error that the original does not have and that is not benign;
// nil with NoTypes.
func (s *Syntax) newTypeError(fset *token.FileSet, f *ast.File, base *original) error {
	if s.NoTypes {
		return nil
	}
	msgs, _ := s.typeErrors(fset, f)
	for m := range msgs {
		if !base.types[m] && !s.benign(m) {
			return fmt.Errorf("go: %s: %w", m, ErrTypes)
		}
	}
	return nil
}

// dropEmptyGroups deletes the grouped declarations left without specs,
// but those that hold a comment.
func dropEmptyGroups(f *ast.File) {
	decls := f.Decls[:0]
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && len(g.Specs) == 0 && g.Lparen.IsValid() && !holdsComment(f, g) {
			continue
		}
		decls = append(decls, d)
	}
	f.Decls = decls
}

func holdsComment(f *ast.File, n ast.Node) bool {
	for _, c := range f.Comments {
		if c.Pos() >= n.Pos() && c.End() <= n.End() {
			return true
		}
	}
	return false
}

// usedNamesOf returns usedNames of a text, remembering it: the
// candidates of a round or a level all derive from the current texts of
// the files.
func (s *Syntax) usedNamesOf(text []byte) map[string]bool {
	s.mu.Lock()
	if used, ok := s.used[string(text)]; ok {
		s.mu.Unlock()
		return used
	}
	s.mu.Unlock()
	used := map[string]bool{}
	if f, err := parser.ParseFile(token.NewFileSet(), "", text, parser.SkipObjectResolution); err == nil {
		used = usedNames(f)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.used) >= 64 {
		s.used = nil // the texts of rounds gone by
	}
	if s.used == nil {
		s.used = map[string]map[string]bool{}
	}
	s.used[string(text)] = used
	return used
}

// benign reports whether a type error only says that something is
// unused: deleting code makes such errors on the way to a smaller
// program, and the next rounds delete what is unused. None is when the
// oracle compiles the candidates.
func (s *Syntax) benign(msg string) bool {
	return !s.Compiled && (strings.HasPrefix(msg, "declared and not used") || strings.HasSuffix(msg, "imported and not used") ||
		strings.Contains(msg, "is not used"))
}

// importName is the name an import declares: its alias, or a guess from
// the last element of its path ("yaml" for "gopkg.in/yaml.v3").
func importName(imp *ast.ImportSpec) string {
	if imp.Name != nil {
		return imp.Name.Name
	}
	p, _ := strconv.Unquote(imp.Path.Value)
	name := path.Base(p)
	if i := strings.IndexByte(name, '.'); i > 0 {
		name = name[:i]
	}
	if strings.HasPrefix(name, "v") {
		if _, err := strconv.Atoi(name[1:]); err == nil && len(name) > 1 {
			name = path.Base(path.Dir(p))
		}
	}
	name = strings.TrimPrefix(name, "go-")
	return strings.ReplaceAll(name, "-", "")
}

// usedNames returns the identifiers used as the operand of a selector
// (pkg.Name, x.f): the candidates for import names in use.
func usedNames(f *ast.File) map[string]bool {
	used := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok {
				used[id.Name] = true
			}
		}
		return true
	})
	return used
}

// Edits proposes the edits of one round on text; see the package
// documentation for the rounds.
func (s *Syntax) Edits(path string, text []byte, round int) (edits []rewrite.Edit, more bool) {
	defer func() {
		// A partial tree may hold nodes without valid positions: give up
		// the round rather than the reduction.
		if recover() != nil {
			edits, more = nil, false
		}
	}()
	rounds := s.rounds(path, text)
	if round >= len(rounds) {
		return nil, false
	}
	return rounds[round].edits(), round+1 < len(rounds)
}

// Keys returns the keys of the rounds of Edits on text (rewrite.Keyed),
// so that the rounds of the files of a package run kind by kind, depth
// by depth, across the files.
func (s *Syntax) Keys(path string, text []byte) (keys []rewrite.Key) {
	defer func() {
		if recover() != nil {
			keys = nil
		}
	}()
	for _, r := range s.rounds(path, text) {
		keys = append(keys, r.key)
	}
	return keys
}

// RoundName names round of Edits on text (rewrite.Named): "decls",
// "stmts", "literals"; "" when there is no such round.
func (s *Syntax) RoundName(path string, text []byte, round int) (name string) {
	defer func() {
		if recover() != nil {
			name = ""
		}
	}()
	if rs := s.rounds(path, text); round < len(rs) {
		return rs[round].name
	}
	return ""
}

// rounds analyzes text and returns its rounds.
func (s *Syntax) rounds(path string, text []byte) []round {
	s.baseline(path, text)
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, text, parser.ParseComments|parser.SkipObjectResolution)
	if f == nil || f.Name == nil {
		return nil
	}
	// A file with syntax errors is edited through the partial tree that
	// go/parser recovers around them (with bad nodes where it could not);
	// Normalize accepts the candidates whose errors are among the
	// original's.
	tf := fset.File(f.Package)
	if tf == nil {
		return nil
	}
	a := &analysis{text: text, fset: fset, file: f, tf: tf}
	if !s.NoTypes && err == nil {
		_, a.info = s.typeErrors(fset, f)
	}
	a.collect()
	return a.rounds()
}
