package deps

import (
	"fmt"
	"go/ast"
	"go/token"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	// Named apart: the package's type source is the engine's view of it.
	srcset "github.com/culprit-go/culprit/source"
)

// UnitKind says what a unit of execution is.
type UnitKind uint8

// Unit kinds.
const (
	UnitSimple UnitKind = iota // an assignment, declaration, expression, send, go or defer statement
	UnitCond                   // the condition of an if or a for, a case clause's expressions
	UnitRange                  // the header of a range loop: defines its key and value
	UnitTag                    // a switch's tag or a type switch's guard
	UnitSelect                 // a select statement's decision
	UnitReturn                 // a return statement
	UnitJoin                   // a point of the control-flow graph without code (an endless for)
)

// A unit is the smallest piece of code whose executions the engine tells
// apart: a simple statement, a condition, a loop header. Every event of a
// trace maps to the innermost unit that holds its site.
type unit struct {
	id    int
	kind  UnitKind
	fn    *function
	node  ast.Node // the statement or expression; nil for UnitJoin
	pos   token.Pos
	end   token.Pos
	line  int
	col   int
	lhs   []ast.Expr // assigned operands (simple statements, range headers)
	rhs   []ast.Expr // their values, when paired one to one with lhs
	opAss bool       // +=, ++: each assigned operand also reads itself
	bare  bool       // a return without results (named results)
	calls bool       // its call can end the function (panic, t.Fatal, os.Exit)
	succ  []int      // control-flow successors (unit ids, fn.exit for the exit)
	ctrl  []int      // units it is statically control dependent on
	// dom says that its one controller dominates it: it cannot run
	// before that controller ran (false in a loop's first iteration for
	// a controller that decides only whether the loop goes on).
	dom bool

	// Found once, on first use (nil: not yet): the calls that may write
	// through their arguments (writerCalls) and the sink calls (sinks,
	// Node unset).
	writers []writerCall
	sinks   []Sink
	// The read plan of the unit's own node (readKey says with which
	// operands assigned): most reads are of it, found here without the
	// plans map's hash of two interfaces.
	readPlan *readPlan
	readKey  planKey

	// An if's condition: its statement, and the variables each branch
	// assigns (found on first use): a read after the branch that was
	// not taken may depend on the decision (potential dependence).
	ifs      *ast.IfStmt
	branches *[2][]string
	panics   *[2]bool // whether each branch may panic (avoided.go)
	// A for loop's condition: its statement, and whether its body (and
	// an if's branches) make calls given variables (effects.go).
	loop    *ast.ForStmt
	calling *[2]bool
}

// function is one function declaration or literal of a source file.
type function struct {
	file    *file
	decl    ast.Node // *ast.FuncDecl or *ast.FuncLit
	body    *ast.BlockStmt
	name    string // short name: Middle, T.M, F.func1
	parent  *function
	locals  map[string]bool // names declared in it (parameters, results, :=, var, range)
	results []string        // result names, "" for unnamed
	units   []*unit
	exit    int                // id of the exit node (len(units) after building)
	entry   int                // id of the unit that runs first (exit for an empty body)
	scopes  map[string]scopeOf // scopeOf's answers, by key
	retName string             // "<F() return value>"
	effName string             // "<F() writes>"
	owned   map[string]bool    // owns's answers, by key
}

// file is one parsed source file.
type file struct {
	path      string
	sf        *srcset.File // its text, syntax and positions
	fset      *token.FileSet
	tf        *token.File
	ast       *ast.File
	src       []byte
	funcs     []*function
	units     []*unit // every unit of the file, sorted by position
	decls     map[*ast.Object]token.Pos
	keys      map[*ast.Ident]string          // key's answers
	texts     map[ast.Node]string            // text's answers
	entries   map[*ast.CallExpr]string       // entryName's answers
	stmtNames map[*ast.CallExpr]string       // exprName's answers
	calls     map[[2]token.Pos]*ast.CallExpr // findCall's answers
	// globals are the package-level variable names of the file's
	// directory (source.globals).
	globals map[string]bool
	imports map[string]bool // imported's answers
}

// imported reports whether name is the name of a package the file
// imports: its declared name, or its path's last element (a major
// version suffix, "v3", and a ".v3" skipped: "gopkg.in/yaml.v3" is
// yaml).
func (f *file) imported(name string) bool {
	if is, ok := f.imports[name]; ok {
		return is
	}
	if f.imports == nil {
		f.imports = map[string]bool{}
	}
	is := f.importsName(name)
	f.imports[name] = is
	return is
}

func (f *file) importsName(name string) bool {
	for _, imp := range f.ast.Imports {
		if imp.Name != nil {
			if imp.Name.Name == name {
				return true
			}
			continue
		}
		path, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			continue
		}
		elems := strings.Split(path, "/")
		last := elems[len(elems)-1]
		if len(elems) > 1 && len(last) > 1 && last[0] == 'v' && strings.Trim(last[1:], "0123456789") == "" {
			last = elems[len(elems)-2]
		}
		if i := strings.IndexByte(last, '.'); i > 0 {
			last = last[:i]
		}
		if strings.ReplaceAll(last, "-", "_") == name || last == name {
			return true
		}
	}
	return false
}

// key identifies the variable an identifier names by its declaring
// position: "x#1234" for a variable declared in a function (so shadowed
// names stay apart), the bare name for package-level variables and
// identifiers the parser could not resolve.
func (f *file) key(id *ast.Ident) string {
	if id == nil {
		return ""
	}
	if k, ok := f.keys[id]; ok {
		return k
	}
	k := f.resolveKey(id)
	f.keys[id] = k
	return k
}

// resolveKey computes key.
func (f *file) resolveKey(id *ast.Ident) string {
	obj := id.Obj
	if obj == nil || obj.Kind != ast.Var {
		return id.Name
	}
	p, ok := f.decls[obj]
	if !ok {
		if d, isNode := obj.Decl.(ast.Node); isNode {
			ast.Inspect(d, func(n ast.Node) bool {
				if p.IsValid() {
					return false
				}
				if x, isID := n.(*ast.Ident); isID && x.Obj == obj && x.Name == obj.Name {
					p = x.Pos()
				}
				return true
			})
		}
		inFunc := false
		for _, fn := range f.funcs {
			if fn.decl.Pos() <= p && p < fn.decl.End() {
				inFunc = true
				break
			}
		}
		if !inFunc {
			p = token.NoPos
		}
		f.decls[obj] = p
	}
	if !p.IsValid() {
		return id.Name
	}
	return id.Name + "#" + strconv.Itoa(int(p))
}

// splitKey returns a variable key's name and declaring position.
func splitKey(k string) (string, token.Pos) {
	i := strings.IndexByte(k, '#')
	if i < 0 {
		return k, token.NoPos
	}
	n, _ := strconv.Atoi(k[i+1:])
	return k[:i], token.Pos(n)
}

// owns reports whether fn declares the variable of key k.
func (fn *function) owns(k string) bool {
	if o, ok := fn.owned[k]; ok {
		return o
	}
	name, p := splitKey(k)
	o := fn.locals[name] && (!p.IsValid() || fn.decl.Pos() <= p && p < fn.decl.End() && fn.innermostOf(p))
	if fn.owned == nil {
		fn.owned = map[string]bool{}
	}
	fn.owned[k] = o
	return o
}

// innermostOf reports whether no function literal nested in fn holds p.
func (fn *function) innermostOf(p token.Pos) bool {
	for _, g := range fn.file.funcs {
		if g != fn && g.decl.Pos() <= p && p < g.decl.End() && fn.decl.Pos() <= g.decl.Pos() && g.decl.End() <= fn.decl.End() {
			return false
		}
	}
	return true
}

// paramKey returns the key of fn's parameter, receiver or named result
// called name.
func (fn *function) paramKey(name string) string {
	var ft *ast.FuncType
	var recv *ast.FieldList
	switch d := fn.decl.(type) {
	case *ast.FuncDecl:
		ft, recv = d.Type, d.Recv
	case *ast.FuncLit:
		ft = d.Type
	}
	for _, fl := range []*ast.FieldList{recv, ft.Params, ft.Results} {
		if fl == nil {
			continue
		}
		for _, f := range fl.List {
			for _, id := range f.Names {
				if id.Name == name {
					return fn.file.key(id)
				}
			}
		}
	}
	return name
}

// source holds the parsed files a trace names and the package-level
// variables of their packages: the engine's view of the files of set,
// which reads each once and keeps them for whoever renders the run
// (Run.Files).
type source struct {
	set     *srcset.Set
	fset    *token.FileSet // set's
	files   map[string]*file
	globals map[string]map[string]bool // directory -> package-level variable names
	// declared holds, per directory, where each package-level variable
	// is declared: of every Go file of the directory, those the trace
	// names and those it does not (srcset.Set.Vars).
	declared map[string]map[string]declSite
	missing  map[string]error // files that could not be parsed
}

// declSite is where a package-level variable is declared.
type declSite struct {
	path      string
	line, col int
}

func newSource() *source {
	set := srcset.New(nil)
	return &source{set: set, fset: set.FileSet(), files: map[string]*file{}, globals: map[string]map[string]bool{},
		declared: map[string]map[string]declSite{}, missing: map[string]error{}}
}

// Files returns the source files the replay read, each read once: those
// who render the run (flow, the reports, the web view) read them from
// it. A run built without sources returns an empty Set.
func (r *Run) Files() *srcset.Set {
	if r.src == nil {
		return srcset.New(nil)
	}
	return r.src.set
}

// declare finds the package-level variables of dir once.
func (s *source) declare(dir string) {
	if s.declared[dir] != nil {
		return
	}
	s.declared[dir] = map[string]declSite{}
	if s.globals[dir] == nil {
		s.globals[dir] = map[string]bool{}
	}
	for name, d := range s.set.Vars(dir) {
		s.declared[dir][name] = declSite{d.Path, d.Line, d.Col}
		s.globals[dir][name] = true
	}
}

// file parses path once; it returns nil when the file cannot be read.
func (s *source) file(path string) *file {
	if f, ok := s.files[path]; ok {
		return f
	}
	if _, bad := s.missing[path]; bad {
		return nil
	}
	sf, err := s.set.File(path)
	if err != nil {
		s.missing[path] = err
		return nil
	}
	af, err := sf.Syntax()
	if err != nil {
		s.missing[path] = fmt.Errorf("parse %s: %w", path, err)
		return nil
	}
	f := &file{path: path, sf: sf, fset: s.fset, tf: sf.Token(), ast: af, src: sf.Bytes(), decls: map[*ast.Object]token.Pos{}, keys: map[*ast.Ident]string{}}
	s.files[path] = f
	dir := filepath.Dir(path)
	s.declare(dir)
	f.globals = s.globals[dir]
	for _, d := range af.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.VAR {
			for _, sp := range gd.Specs {
				for _, n := range sp.(*ast.ValueSpec).Names {
					s.globals[dir][n.Name] = true
				}
			}
		}
	}
	f.build()
	return f
}

// pos converts a 1-based line and byte column to a position in f.
func (f *file) pos(line, col int) token.Pos { return f.sf.Pos(line, col) }

// unitAt returns the innermost unit holding pos (the shortest, the
// latest of those as long), or nil. The units are sorted by position:
// it looks back from the last that starts at pos or before, and stops
// where a unit that starts earlier could not be shorter than the best
// so far (a file of a million units, sqlite's generated code, is
// searched for each statement the test ran).
func (f *file) unitAt(pos token.Pos) *unit {
	i := sort.Search(len(f.units), func(i int) bool { return f.units[i].pos > pos })
	var best *unit
	for i--; i >= 0; i-- {
		u := f.units[i]
		if best != nil && pos-u.pos+1 > best.end-best.pos {
			break // it would hold pos and be longer
		}
		if u.kind != UnitJoin && pos < u.end && (best == nil || u.end-u.pos < best.end-best.pos) {
			best = u
		}
	}
	return best
}

// funcAt returns the function whose body opens at pos, or nil.
func (f *file) funcAt(pos token.Pos) *function {
	for _, fn := range f.funcs {
		if fn.body.Lbrace == pos {
			return fn
		}
	}
	return nil
}

// innermostFunc returns the innermost function holding pos, or nil.
func (f *file) innermostFunc(pos token.Pos) *function {
	var best *function
	for _, fn := range f.funcs {
		if fn.body.Lbrace <= pos && pos <= fn.body.Rbrace && (best == nil || fn.body.Lbrace >= best.body.Lbrace) {
			best = fn
		}
	}
	return best
}

// build finds the file's functions and builds each one's units,
// control-flow graph and control dependencies.
func (f *file) build() {
	var visit func(n ast.Node, parent *function, name string)
	count := map[string]int{}
	visit = func(n ast.Node, parent *function, name string) {
		ast.Inspect(n, func(n ast.Node) bool {
			var ft *ast.FuncType
			var body *ast.BlockStmt
			var recv *ast.FieldList
			fname := name
			switch x := n.(type) {
			case *ast.FuncDecl:
				ft, body, recv = x.Type, x.Body, x.Recv
				fname = x.Name.Name
				if recv != nil && len(recv.List) > 0 {
					fname = recvType(recv.List[0].Type) + "." + fname
				}
			case *ast.FuncLit:
				if parent == nil {
					return true
				}
				ft, body = x.Type, x.Body
				count[parent.name]++
				fname = fmt.Sprintf("%s.func%d", parent.name, count[parent.name])
			default:
				return true
			}
			if body == nil {
				return false
			}
			fn := &function{file: f, decl: n, body: body, name: fname, parent: parent, locals: map[string]bool{}}
			declare(fn.locals, recv)
			declare(fn.locals, ft.Params)
			if ft.Results != nil {
				for _, fl := range ft.Results.List {
					if len(fl.Names) == 0 {
						fn.results = append(fn.results, "")
					}
					for _, id := range fl.Names {
						fn.results = append(fn.results, id.Name)
						fn.locals[id.Name] = true
					}
				}
			}
			f.funcs = append(f.funcs, fn)
			fn.buildCFG()
			visit(body, fn, fname)
			return false
		})
	}
	visit(f.ast, nil, "")
	for _, fn := range f.funcs {
		f.units = append(f.units, fn.units...)
	}
	sort.SliceStable(f.units, func(i, j int) bool { return f.units[i].pos < f.units[j].pos })
}

func recvType(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.StarExpr:
		return recvType(x.X)
	case *ast.IndexExpr:
		return recvType(x.X)
	case *ast.IndexListExpr:
		return recvType(x.X)
	case *ast.Ident:
		return x.Name
	}
	return "?"
}

func declare(m map[string]bool, fl *ast.FieldList) {
	if fl == nil {
		return
	}
	for _, f := range fl.List {
		for _, id := range f.Names {
			m[id.Name] = true
		}
	}
}

// text returns the source text of n.
func (f *file) text(n ast.Node) string {
	if t, ok := f.texts[n]; ok {
		return t
	}
	t := f.sf.Text(n)
	if f.texts == nil {
		f.texts = map[ast.Node]string{}
	}
	f.texts[n] = t
	return t
}

// entryName is the name of the node of a call's entry, "<f()>", made
// once per call site (it was a string made at every call replayed).
func (f *file) entryName(c *ast.CallExpr) string {
	if t, ok := f.entries[c]; ok {
		return t
	}
	t := "<" + f.text(c.Fun) + "()>"
	if f.entries == nil {
		f.entries = map[*ast.CallExpr]string{}
	}
	f.entries[c] = t
	return t
}

// rootIdent returns the identifier an operand starts from (see rootName).
func rootIdent(e ast.Expr) *ast.Ident {
	for {
		switch x := e.(type) {
		case *ast.Ident:
			if x.Name == "_" {
				return nil
			}
			return x
		case *ast.ParenExpr:
			e = x.X
		case *ast.SelectorExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.CallExpr:
			// A conversion's operand: *(*T)(p) = v writes through p.
			if !conversion(x) || len(x.Args) != 1 {
				return nil
			}
			e = x.Args[0]
		default:
			return nil
		}
	}
}

// rootName returns the variable an assigned or read operand starts from:
// x for x, x.f, x[i], *x, *(*T)(x); "" when there is none.
func rootName(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.Ident:
			if x.Name == "_" {
				return ""
			}
			return x.Name
		case *ast.ParenExpr:
			e = x.X
		case *ast.SelectorExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.CallExpr:
			if !conversion(x) || len(x.Args) != 1 {
				return ""
			}
			e = x.Args[0]
		default:
			return ""
		}
	}
}

// idents returns the identifiers n reads, in order, leaving out field and
// method names, keys of struct literals, function literals and the
// operands it assigns (but not what they index).
func idents(n ast.Node, assigned []ast.Expr) []*ast.Ident {
	skip := map[ast.Node]bool{}
	for _, l := range assigned {
		// x = v does not read x; x.f = v and x[i] = v read x (and i).
		if id, ok := ast.Unparen(l).(*ast.Ident); ok {
			skip[id] = true
		}
	}
	var out []*ast.Ident
	ast.Inspect(n, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.SelectorExpr:
			ast.Inspect(x.X, func(m ast.Node) bool {
				if _, ok := m.(*ast.FuncLit); ok {
					return false
				}
				if id, ok := m.(*ast.Ident); ok && !skip[id] {
					out = append(out, id)
				}
				return true
			})
			return false
		case *ast.KeyValueExpr:
			if _, ok := x.Key.(*ast.Ident); ok {
				ast.Inspect(x.Value, func(m ast.Node) bool {
					if id, ok := m.(*ast.Ident); ok {
						out = append(out, id)
					}
					_, lit := m.(*ast.FuncLit)
					return !lit
				})
				return false
			}
		case *ast.Ident:
			if !skip[x] {
				out = append(out, x)
			}
		}
		return true
	})
	return out
}

// shortFunc returns the last element of a pkgpath.Name function name:
// "Middle", "T.M", "TestX.func".
func shortFunc(name string) string {
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	if i := strings.IndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	return name
}

// stmtAt returns the statement of fn's body spanning exactly [pos, end)
// (labels left out), nil when there is none.
func (fn *function) stmtAt(pos, end token.Pos) ast.Stmt {
	var found ast.Stmt
	ast.Inspect(fn.body, func(n ast.Node) bool {
		if found != nil || n == nil || n.End() <= pos || n.Pos() > pos {
			return false
		}
		if _, lit := n.(*ast.FuncLit); lit {
			return false
		}
		if s, ok := n.(ast.Stmt); ok && s.Pos() == pos && s.End() == end {
			if _, labeled := s.(*ast.LabeledStmt); !labeled {
				found = s
				return false
			}
		}
		return true
	})
	return found
}

// firstEvaluated returns the node of the unit that runs first when s
// starts: s itself for a simple statement, an if's or switch's init, else
// its condition, tag or first case test; a for loop's init, else its
// condition. It returns nil when s evaluates nothing as it starts: a
// block, "for {" and "for ; ; post" (the post runs after the body), a
// switch without a tag whose clauses test nothing, break, continue, goto.
func firstEvaluated(s ast.Stmt) ast.Node {
	switch s := s.(type) {
	case *ast.BlockStmt, *ast.BranchStmt, *ast.EmptyStmt, *ast.LabeledStmt:
		return nil
	case *ast.IfStmt:
		if s.Init != nil {
			return s.Init
		}
		return s.Cond
	case *ast.ForStmt:
		if s.Init != nil {
			return s.Init
		}
		if s.Cond != nil {
			return s.Cond
		}
		return nil
	case *ast.SwitchStmt:
		if s.Init != nil {
			return s.Init
		}
		if s.Tag != nil {
			return s.Tag
		}
		for _, c := range s.Body.List {
			if cc := c.(*ast.CaseClause); cc.List != nil {
				return cc
			}
		}
		return nil
	case *ast.TypeSwitchStmt:
		if s.Init != nil {
			return s.Init
		}
		return s.Assign
	}
	return s
}

// unitOf returns fn's unit whose node is n, nil when there is none.
func (fn *function) unitOf(n ast.Node) *unit {
	if n == nil {
		return nil
	}
	for _, u := range fn.units {
		if u.node == n {
			return u
		}
	}
	return nil
}

// hasCall reports whether e calls a function (conversions included),
// outside function literals.
func hasCall(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			found = true
		}
		return !found
	})
	return found
}
