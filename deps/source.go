package deps

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
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
}

// file is one parsed source file.
type file struct {
	path  string
	fset  *token.FileSet
	tf    *token.File
	ast   *ast.File
	src   []byte
	funcs []*function
	units []*unit // every unit of the file, sorted by position
	decls map[*ast.Object]token.Pos
	keys  map[*ast.Ident]string          // key's answers
	texts map[ast.Node]string            // text's answers
	calls map[[2]token.Pos]*ast.CallExpr // findCall's answers
	// globals are the package-level variable names of the file's
	// directory (source.globals).
	globals map[string]bool
}

// imported reports whether name is the name of a package the file
// imports: its declared name, or its path's last element (a major
// version suffix, "v3", and a ".v3" skipped: "gopkg.in/yaml.v3" is
// yaml).
func (f *file) imported(name string) bool {
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
	name, p := splitKey(k)
	return fn.locals[name] && (!p.IsValid() || fn.decl.Pos() <= p && p < fn.decl.End() && fn.innermostOf(p))
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
// variables of their packages.
type source struct {
	fset    *token.FileSet
	files   map[string]*file
	globals map[string]map[string]bool // directory -> package-level variable names
	missing map[string]error           // files that could not be parsed
}

func newSource() *source {
	return &source{fset: token.NewFileSet(), files: map[string]*file{}, globals: map[string]map[string]bool{}, missing: map[string]error{}}
}

// file parses path once; it returns nil when the file cannot be read.
func (s *source) file(path string) *file {
	if f, ok := s.files[path]; ok {
		return f
	}
	if _, bad := s.missing[path]; bad {
		return nil
	}
	src, err := os.ReadFile(path)
	if err != nil {
		s.missing[path] = err
		return nil
	}
	af, err := parser.ParseFile(s.fset, path, src, 0)
	if err != nil {
		s.missing[path] = fmt.Errorf("parse %s: %w", path, err)
		return nil
	}
	f := &file{path: path, fset: s.fset, tf: s.fset.File(af.Pos()), ast: af, src: src, decls: map[*ast.Object]token.Pos{}, keys: map[*ast.Ident]string{}}
	s.files[path] = f
	dir := filepath.Dir(path)
	if s.globals[dir] == nil {
		s.globals[dir] = map[string]bool{}
	}
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
func (f *file) pos(line, col int) token.Pos {
	if line < 1 || line > f.tf.LineCount() {
		return token.NoPos
	}
	return f.tf.LineStart(line) + token.Pos(col-1)
}

// unitAt returns the innermost unit holding pos, or nil.
func (f *file) unitAt(pos token.Pos) *unit {
	var best *unit
	for _, u := range f.units {
		if u.pos > pos {
			break
		}
		if u.kind != UnitJoin && pos < u.end && (best == nil || u.end-u.pos <= best.end-best.pos) {
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

// cfgBuilder builds one function's units and control-flow graph.
type cfgBuilder struct {
	fn     *function
	labels map[string]int // label -> entry unit
	gotos  []fixup
	loop   []target // innermost last
}

type fixup struct {
	from  int
	label string
}

// target is where break and continue go inside a loop, switch or select.
type target struct {
	label  string
	brk    int
	cont   int // -1 for a switch or select
	isLoop bool
}

func (fn *function) buildCFG() {
	b := &cfgBuilder{fn: fn, labels: map[string]int{}}
	// The exit node's id is only known at the end: use -1 and patch.
	fn.entry = b.seq(fn.body.List, -1)
	fn.exit = len(fn.units)
	if fn.entry == -1 {
		fn.entry = fn.exit
	}
	for _, g := range b.gotos {
		if t, ok := b.labels[g.label]; ok {
			fn.units[g.from].succ = append(fn.units[g.from].succ, t)
		}
	}
	for _, u := range fn.units {
		for i, s := range u.succ {
			if s == -1 {
				u.succ[i] = fn.exit
			}
		}
	}
	fn.controlDeps()
}

func (b *cfgBuilder) add(kind UnitKind, n ast.Node, pos, end token.Pos, succ ...int) *unit {
	f := b.fn.file
	p := f.fset.Position(pos)
	u := &unit{id: len(b.fn.units), kind: kind, fn: b.fn, node: n, pos: pos, end: end, line: p.Line, col: p.Column}
	u.succ = append(u.succ, succ...)
	b.fn.units = append(b.fn.units, u)
	return u
}

func (b *cfgBuilder) seq(list []ast.Stmt, succ int) int {
	for i := len(list) - 1; i >= 0; i-- {
		succ = b.stmt(list[i], succ, "")
	}
	return succ
}

// stmt adds the units of s, which continues at succ, and returns its entry.
func (b *cfgBuilder) stmt(s ast.Stmt, succ int, label string) int {
	switch s := s.(type) {
	case nil, *ast.EmptyStmt:
		return succ
	case *ast.BlockStmt:
		return b.seq(s.List, succ)
	case *ast.LabeledStmt:
		// The label's entry is known after building the statement; a
		// goto to it from inside is patched at the end.
		e := b.stmt(s.Stmt, succ, s.Label.Name)
		b.labels[s.Label.Name] = e
		return e
	case *ast.ReturnStmt:
		u := b.add(UnitReturn, s, s.Pos(), s.End(), -1)
		u.bare = len(s.Results) == 0
		return u.id
	case *ast.BranchStmt:
		u := b.add(UnitJoin, s, s.Pos(), s.End())
		switch s.Tok {
		case token.GOTO:
			b.gotos = append(b.gotos, fixup{u.id, s.Label.Name})
		case token.BREAK, token.CONTINUE:
			for i := len(b.loop) - 1; i >= 0; i-- {
				t := b.loop[i]
				if s.Label != nil && t.label != s.Label.Name {
					continue
				}
				if s.Tok == token.CONTINUE && !t.isLoop {
					continue
				}
				if s.Tok == token.BREAK {
					u.succ = append(u.succ, t.brk)
				} else {
					u.succ = append(u.succ, t.cont)
				}
				break
			}
		case token.FALLTHROUGH:
			u.succ = append(u.succ, succ) // patched by the switch
		}
		return u.id
	case *ast.IfStmt:
		els := succ
		if s.Else != nil {
			els = b.stmt(s.Else, succ, "")
		}
		then := b.seq(s.Body.List, succ)
		c := b.add(UnitCond, s.Cond, s.Cond.Pos(), s.Cond.End(), then, els)
		return b.init(s.Init, c.id)
	case *ast.ForStmt:
		head := b.add(UnitJoin, s, s.For, s.For+3)
		if s.Cond != nil {
			head.kind, head.node, head.pos, head.end = UnitCond, s.Cond, s.Cond.Pos(), s.Cond.End()
		}
		// "for {" leaves only by break, return or panic: its head is a
		// join, given a way out to the loop's successor all the same, so
		// that the loop is not taken to end for sure (then what a break
		// guards would post-dominate its condition and depend on
		// nothing). Units it controls depend on its own controllers
		// (controlDeps).
		head.succ = append(head.succ, succ)
		cont := head.id
		if s.Post != nil {
			cont = b.simple(s.Post, head.id)
		}
		b.loop = append(b.loop, target{label, succ, cont, true})
		body := b.seq(s.Body.List, cont)
		b.loop = b.loop[:len(b.loop)-1]
		head.succ = append([]int{body}, head.succ...)
		return b.init(s.Init, head.id)
	case *ast.RangeStmt:
		head := b.add(UnitRange, s, s.For, s.Body.Lbrace, succ)
		if s.Tok != token.ILLEGAL {
			for _, l := range []ast.Expr{s.Key, s.Value} {
				if l != nil {
					head.lhs = append(head.lhs, l)
					if id, ok := l.(*ast.Ident); ok && s.Tok == token.DEFINE {
						b.fn.locals[id.Name] = true
					}
				}
			}
		}
		b.loop = append(b.loop, target{label, succ, head.id, true})
		body := b.seq(s.Body.List, head.id)
		b.loop = b.loop[:len(b.loop)-1]
		head.succ = append([]int{body}, head.succ...)
		return head.id
	case *ast.SwitchStmt:
		var tag *unit
		if s.Tag != nil {
			tag = b.add(UnitTag, s.Tag, s.Tag.Pos(), s.Tag.End())
		}
		e := b.clauses(s.Body, succ, label)
		if tag != nil {
			tag.succ = append(tag.succ, e)
			e = tag.id
		}
		return b.init(s.Init, e)
	case *ast.TypeSwitchStmt:
		tag := b.add(UnitTag, s.Assign, s.Assign.Pos(), s.Assign.End())
		if as, ok := s.Assign.(*ast.AssignStmt); ok {
			tag.lhs = as.Lhs
			b.fn.locals[as.Lhs[0].(*ast.Ident).Name] = true
		}
		tag.succ = append(tag.succ, b.clauses(s.Body, succ, label))
		return b.init(s.Init, tag.id)
	case *ast.SelectStmt:
		sel := b.add(UnitSelect, s, s.Select, s.Select+6)
		b.loop = append(b.loop, target{label, succ, -1, false})
		for _, c := range s.Body.List {
			cc := c.(*ast.CommClause)
			e := b.seq(cc.Body, succ)
			if cc.Comm != nil {
				e = b.simple(cc.Comm, e)
			}
			sel.succ = append(sel.succ, e)
		}
		b.loop = b.loop[:len(b.loop)-1]
		if len(sel.succ) == 0 {
			sel.succ = append(sel.succ, -1) // select {} blocks forever
		}
		return sel.id
	case *ast.DeclStmt:
		gd, ok := s.Decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.VAR {
			return succ
		}
		return b.simple(s, succ)
	default:
		return b.simple(s, succ)
	}
}

// init adds an if's or switch's init statement before entry.
func (b *cfgBuilder) init(s ast.Stmt, entry int) int {
	if s == nil {
		return entry
	}
	return b.simple(s, entry)
}

// clauses adds a switch's case clauses: tests in order, the default's
// body after the last test fails.
func (b *cfgBuilder) clauses(body *ast.BlockStmt, succ int, label string) int {
	b.loop = append(b.loop, target{label, succ, -1, false})
	defer func() { b.loop = b.loop[:len(b.loop)-1] }()
	n := len(body.List)
	entries := make([]int, n)
	next := succ
	for i := n - 1; i >= 0; i-- {
		cc := body.List[i].(*ast.CaseClause)
		entries[i] = b.seq(cc.Body, succ)
		// fallthrough: the last statement of the body goes to the next body.
		if k := len(cc.Body); k > 0 {
			if br, ok := cc.Body[k-1].(*ast.BranchStmt); ok && br.Tok == token.FALLTHROUGH {
				u := b.fn.units[entries[i]]
				for _, x := range b.fn.units {
					if x.node == br {
						u = x
					}
				}
				u.succ = []int{next}
			}
		}
		next = entries[i]
	}
	fail := succ
	for i := n - 1; i >= 0; i-- {
		if body.List[i].(*ast.CaseClause).List == nil {
			fail = entries[i]
		}
	}
	for i := n - 1; i >= 0; i-- {
		cc := body.List[i].(*ast.CaseClause)
		if cc.List == nil {
			continue
		}
		t := b.add(UnitCond, cc, cc.Case, cc.Colon, entries[i], fail)
		fail = t.id
	}
	return fail
}

// simple adds a unit for a simple statement.
func (b *cfgBuilder) simple(s ast.Stmt, succ int) int {
	u := b.add(UnitSimple, s, s.Pos(), s.End(), succ)
	switch s := s.(type) {
	case *ast.AssignStmt:
		u.lhs = s.Lhs
		if len(s.Lhs) == len(s.Rhs) {
			u.rhs = s.Rhs
		}
		u.opAss = s.Tok != token.ASSIGN && s.Tok != token.DEFINE
		if s.Tok == token.DEFINE {
			for _, l := range s.Lhs {
				if id, ok := l.(*ast.Ident); ok {
					b.fn.locals[id.Name] = true
				}
			}
		}
	case *ast.IncDecStmt:
		u.lhs = []ast.Expr{s.X}
		u.opAss = true
	case *ast.DeclStmt:
		for _, sp := range s.Decl.(*ast.GenDecl).Specs {
			vs := sp.(*ast.ValueSpec)
			for i, n := range vs.Names {
				b.fn.locals[n.Name] = true
				u.lhs = append(u.lhs, n)
				if len(vs.Values) == len(vs.Names) {
					u.rhs = append(u.rhs, vs.Values[i])
				}
			}
		}
		if len(u.rhs) != len(u.lhs) {
			u.rhs = nil
		}
	case *ast.ExprStmt:
		if c, ok := s.X.(*ast.CallExpr); ok && endsFunction(c) {
			u.calls = true
			u.succ = []int{-1}
		}
	}
	return u.id
}

// endsFunction reports whether a call statement never returns normally:
// panic, os.Exit, log.Fatal*, runtime.Goexit, t.Fatal*, t.FailNow, t.Skip*.
func endsFunction(c *ast.CallExpr) bool {
	switch f := c.Fun.(type) {
	case *ast.Ident:
		return f.Name == "panic"
	case *ast.SelectorExpr:
		switch f.Sel.Name {
		case "Exit", "Fatal", "Fatalf", "Fatalln", "FailNow", "Goexit", "Skip", "Skipf", "SkipNow", "Panic", "Panicf", "Panicln":
			return true
		}
	}
	return false
}

// controlDeps computes each unit's static control dependencies from the
// post-dominators of the function's control-flow graph (Ferrante,
// Ottenstein and Warren): u depends on d when d has a successor that u
// post-dominates and u does not strictly post-dominate d.
func (fn *function) controlDeps() {
	n := len(fn.units) + 1 // + exit
	exit := fn.exit
	succ := func(i int) []int {
		if i == exit {
			return nil
		}
		return fn.units[i].succ
	}
	pdom := dominators(n, exit, succ, true)
	has := func(set []uint64, i int) bool { return set[i/64]&(1<<(i%64)) != 0 }
	for d := 0; d < len(fn.units); d++ {
		ss := succ(d)
		if len(ss) < 2 {
			continue
		}
		for u := 0; u < len(fn.units); u++ {
			if u == d || has(pdom[d], u) {
				continue // u post-dominates d: runs whatever d decides
			}
			for _, s := range ss {
				if has(pdom[s], u) {
					fn.units[u].ctrl = append(fn.units[u].ctrl, d)
					break
				}
			}
		}
	}
	// A join never runs: what it controls depends on what controls the
	// join ("for {": its body on the decisions that looped back).
	for _, u := range fn.units {
		var out []int
		seen := map[int]bool{}
		var add func(c int)
		add = func(c int) {
			if seen[c] {
				return
			}
			seen[c] = true
			if fn.units[c].kind == UnitJoin {
				for _, cc := range fn.units[c].ctrl {
					add(cc)
				}
				return
			}
			out = append(out, c)
		}
		for _, c := range u.ctrl {
			add(c)
		}
		u.ctrl = out
	}
	// A loop's condition depends on itself; drop self edges.
	for _, u := range fn.units {
		out := u.ctrl[:0]
		for _, c := range u.ctrl {
			if c != u.id {
				out = append(out, c)
			}
		}
		u.ctrl = out
	}
	fn.dominance()
}

// dominators returns, for a graph of n nodes, the set (a bitset) of the
// nodes that dominate each node as seen from root: every path from root
// to it passes them. next gives the edges walked back: a node's
// predecessors for dominators, its successors (with root the exit) for
// post-dominators. A node with no such edge has itself alone (no way in,
// or none out: an endless loop's join). down iterates from the last
// node, which converges faster along successors.
func dominators(n, root int, next func(int) []int, down bool) [][]uint64 {
	words := (n + 63) / 64
	dom := make([][]uint64, n)
	for i := range dom {
		dom[i] = make([]uint64, words)
		if i == root {
			dom[i][i/64] |= 1 << (i % 64)
			continue
		}
		for w := range dom[i] {
			dom[i][w] = ^uint64(0)
		}
	}
	tmp := make([]uint64, words)
	for changed := true; changed; {
		changed = false
		for k := 0; k < n; k++ {
			i := k
			if down {
				i = n - 1 - k
			}
			if i == root {
				continue
			}
			ps := next(i)
			for w := range tmp {
				tmp[w] = 0
				if len(ps) > 0 {
					tmp[w] = ^uint64(0)
				}
			}
			for _, p := range ps {
				for w := range tmp {
					tmp[w] &= dom[p][w]
				}
			}
			tmp[i/64] |= 1 << (i % 64)
			for w := range tmp {
				if tmp[w] != dom[i][w] {
					copy(dom[i], tmp)
					changed = true
					break
				}
			}
		}
	}
	return dom
}

// dominance sets each unit's dom: whether its one static controller
// dominates it (every path from the function's entry to it runs the
// controller first), from the dominators of the control-flow graph.
func (fn *function) dominance() {
	n := len(fn.units)
	if n == 0 || fn.entry >= n {
		return
	}
	preds := make([][]int, n)
	for _, u := range fn.units {
		for _, s := range u.succ {
			if s >= 0 && s < n {
				preds[s] = append(preds[s], u.id)
			}
		}
	}
	dom := dominators(n, fn.entry, func(i int) []int { return preds[i] }, false)
	for _, u := range fn.units {
		if len(u.ctrl) == 1 {
			c := u.ctrl[0]
			u.dom = dom[u.id][c/64]&(1<<(c%64)) != 0
		}
	}
}

// text returns the source text of n.
func (f *file) text(n ast.Node) string {
	if t, ok := f.texts[n]; ok {
		return t
	}
	t := string(f.src[f.tf.Offset(n.Pos()):f.tf.Offset(n.End())])
	if f.texts == nil {
		f.texts = map[ast.Node]string{}
	}
	f.texts[n] = t
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
