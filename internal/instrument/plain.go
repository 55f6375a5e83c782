package instrument

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/culprit-go/culprit/trace"
)

// Plain copies. Compiled without inlining (noInline, the slicing and
// flow runs), every probe of a function that records stream events is a
// call, and a muted activation (one its function's sampling left out)
// still makes each of them, to be told that it records nothing. Most
// activations of a hot function are muted, so a muted activation runs a
// second copy of the body instead, with the counters of statements and
// branches only:
//
//	func f(x int) int {_culpritT := Enter(...); defer ...; if _culpritT.Mute {
//		<the body, counters only>
//	} else {
//		<the body, instrumented>
//	}}
//
// The copy is in the same function, so that the stack a test sees (its
// depth, runtime.Caller) is the same in both, and a //line comment after
// every edit keeps its positions the original ones. Its labels are
// renamed (labels are the function's); its counters are the instrumented
// body's own sites, so the spectra cannot tell the copies apart.
//
// A body is copied only when the copy cannot change what a test sees: not
// a test file's (tests, examples and their helpers take little time and
// carry directives the go command reads), and not a body with a function
// literal (the compiler numbers a function's literals, f.func1 and on, in
// the order they appear: a copy would rename the instrumented ones), a
// go statement or a type declaration (see plainable), and none in a file
// over maxPlainFile.

// plainPrefix starts the names of a plain copy's labels and of plain
// functions.
const plainPrefix = "_culpritP"

// siteReuse gives a plain copy's pass the sites the instrumented pass
// added for the same statements and branches, in the order it added
// them.
type siteReuse struct {
	made   map[trace.Site][]uint32
	taken  map[trace.Site]int
	missed bool // a site the instrumented pass did not add: no copy
}

func (u *siteReuse) take(s trace.Site) uint32 {
	ids := u.made[s]
	n := u.taken[s]
	if n >= len(ids) {
		u.missed = true
		return 0
	}
	u.taken[s] = n + 1
	return ids[n]
}

// maxPlainFile is the size of the largest file whose functions get plain
// copies: generated files of megabytes (modernc.org/sqlite's lib, a
// transpiled C library) take their compile's time and memory already,
// and would take twice as much.
const maxPlainFile = 1 << 20

// copyable reports whether body gets a plain copy (see above).
func (r *fileRewriter) copyable(fs *funcState, body *ast.BlockStmt) bool {
	return r.plainFile() && r.made != nil && fs.stream && r.plainable(body)
}

// plainFile reports whether the file's functions may get plain copies.
func (r *fileRewriter) plainFile() bool {
	return r.noInline && !r.isTest && len(r.src) <= maxPlainFile && r.events&trace.EventFunc != 0 && r.events&trace.StreamEvents != 0
}

// plainable reports whether a body may be copied: it has statements, no
// function literal, go statement or type declaration, and no statement
// of its own block declares with := a variable beside a parameter or
// result it assigns (x, err := f(), err a result). The copies stand in
// blocks of their own, where such a statement would declare a second err
// instead, the result left alone.
func (r *fileRewriter) plainable(body *ast.BlockStmt) bool {
	if len(body.List) == 0 {
		return false
	}
	for _, s := range body.List {
		as, ok := unlabel(s).(*ast.AssignStmt)
		if !ok || as.Tok != token.DEFINE {
			continue
		}
		for _, l := range as.Lhs {
			if id, ok := l.(*ast.Ident); ok {
				if v, ok := r.info.Uses[id].(*types.Var); ok && v.Pos() < body.Lbrace {
					return false
				}
			}
		}
	}
	ok := true
	ast.Inspect(body, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.FuncLit, *ast.GoStmt, *ast.TypeSpec:
			// A type declared in the body would be two types, one per
			// copy: a value the plain copy made would not equal one
			// the instrumented body made (a context key's).
			ok = false
		}
		return ok
	})
	return ok
}

// Plain functions. A muted activation's callees would each test at their
// entry whether they are sampled, and most are not: brotli's TestIssue22
// entered functions 1.5 billion times in muted activations, 1.2 billion
// of them called by a muted activation. So a function with a plain copy
// that some plain copy calls also gets a plain function, _culpritPf (a
// method _culpritPm of the same receiver), whose body is that copy, and a
// plain copy calls the plain functions of the package's functions and
// methods it calls statically: a muted activation's callees run plain
// too, with no entry. Their activations are sampled among those that
// sampled activations make: one that a muted activation made had no
// caller the graph knew, its parameters came from nowhere it could name.
// Counting them as the entry would (a load and a store of the site's
// counter per call, to call the function itself for the calls it would
// sample) took brotli's slice from 97 to 84 s, not counting them to 52 s,
// the same faults in the slices of the sixteen modules' injected faults
// and of the real-fault corpus. A plain function is another function: a
// stack taken in a muted activation names it (at the original
// positions).

// cloneSet returns the functions and methods of a package's files (rs,
// one package's) that get a plain function: those whose bodies get a
// plain copy, and that a plain copy calls.
func cloneSet(rs []*fileRewriter) map[*types.Func]bool {
	cands := map[*types.Func]bool{}
	type body struct {
		r *fileRewriter
		b *ast.BlockStmt
	}
	var bodies []body
	for _, r := range rs {
		if !r.plainFile() {
			continue
		}
		for _, d := range r.file.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || fd.Name.Name == "_" || fd.Recv == nil && (fd.Name.Name == "init" || fd.Name.Name == "main") {
				continue
			}
			if skipDirective(fd.Doc) != "" || !r.keep(fd, funcName(r.pkg, fd)) || r.testParam(fd.Type) != "" {
				continue
			}
			if !r.inlined && r.smallPointerFunc(fd.Type, fd.Body) || !r.plainable(fd.Body) {
				continue
			}
			if obj, ok := r.info.Defs[fd.Name].(*types.Func); ok {
				cands[obj] = true
				bodies = append(bodies, body{r, fd.Body})
			}
		}
	}
	set := map[*types.Func]bool{}
	for _, b := range bodies {
		ast.Inspect(b.b, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if f, _ := b.r.callee(call); f != nil && cands[f] {
					set[f] = true
				}
			}
			return true
		})
	}
	return set
}

// cloned returns the identifier naming the function or method a call
// calls statically, when it has a plain function.
func (r *fileRewriter) cloned(call *ast.CallExpr) (*ast.Ident, bool) {
	f, id := r.callee(call)
	return id, f != nil && r.clones[f]
}

// callee returns the function or method (its generic origin) a call calls
// statically, and the identifier naming it; nil when not known.
func (r *fileRewriter) callee(call *ast.CallExpr) (*types.Func, *ast.Ident) {
	fun := ast.Unparen(call.Fun)
	switch x := fun.(type) {
	case *ast.IndexExpr:
		fun = ast.Unparen(x.X)
	case *ast.IndexListExpr:
		fun = ast.Unparen(x.X)
	}
	var id *ast.Ident
	var obj types.Object
	switch x := fun.(type) {
	case *ast.Ident:
		id, obj = x, r.info.Uses[x]
	case *ast.SelectorExpr:
		sel := r.info.Selections[x]
		if sel == nil || sel.Kind() != types.MethodVal {
			return nil, nil
		}
		id, obj = x.Sel, sel.Obj()
	default:
		return nil, nil
	}
	f, ok := obj.(*types.Func)
	if !ok {
		return nil, nil
	}
	return f.Origin(), id
}

// plainFunc returns the declaration of fd's plain function, whose body is
// text (plainBody's), or the body as written when text is "".
func (r *fileRewriter) plainFunc(fd *ast.FuncDecl, text string) string {
	names := r.lineNames()
	if text == "" {
		from := r.offset(fd.Body.Lbrace) + 1
		text = r.restore(from, names) + string(r.src[from:r.offset(fd.Body.Rbrace)])
	}
	var b strings.Builder
	b.WriteString(r.restore(r.offset(fd.Pos()), names))
	b.WriteString("func ")
	if fd.Recv != nil {
		b.Write(r.src[r.offset(fd.Recv.Opening) : r.offset(fd.Recv.Closing)+1])
		b.WriteString(" ")
	}
	b.WriteString(plainPrefix + fd.Name.Name)
	if tp := fd.Type.TypeParams; tp != nil {
		b.Write(r.src[r.offset(tp.Opening) : r.offset(tp.Closing)+1])
	}
	b.Write(r.src[r.offset(fd.Type.Params.Opening):r.offset(fd.Type.End())])
	b.WriteString(" {" + text + "\n}")
	return b.String()
}

// plainBody returns the text of body's plain copy, from after its opening
// brace to before its closing one, or false when it cannot be made.
func (r *fileRewriter) plainBody(fs *funcState, body *ast.BlockStmt) (string, bool) {
	reuse := &siteReuse{made: r.made, taken: map[trace.Site]int{}}
	p := &fileRewriter{rtImport: r.rtImport, fset: r.fset, info: r.info, pkg: r.pkg, file: r.file,
		tokFile: r.tokFile, src: r.src, path: r.path, events: r.events &^ trace.StreamEvents,
		isTest: r.isTest, ctrBase: r.ctrBase, race: r.race, inlined: r.inlined, small: r.small,
		funcs: r.funcs, tests: r.tests, toolchain: r.toolchain, raised: r.raised, quiet: r.quiet,
		goRoots: map[*ast.FuncLit]uint32{}, lits: map[*ast.BlockStmt]*ast.FuncLit{}, reuse: reuse}
	pfs := &funcState{name: fs.name, generic: fs.generic, modern: fs.modern}
	p.stmtList(pfs, body.List)
	if reuse.missed || pfs.usesT {
		return "", false
	}
	p.redirectExits(body)
	ast.Inspect(body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if id, ok := r.cloned(call); ok {
				p.replace(p.offset(id.Pos()), p.offset(id.End()), plainPrefix+id.Name)
			}
		}
		return true
	})
	ast.Inspect(body, func(n ast.Node) bool {
		switch s := n.(type) {
		case *ast.LabeledStmt:
			p.replace(p.offset(s.Label.Pos()), p.offset(s.Label.End()), plainPrefix+s.Label.Name)
		case *ast.BranchStmt:
			if s.Label != nil {
				p.replace(p.offset(s.Label.Pos()), p.offset(s.Label.End()), plainPrefix+s.Label.Name)
			}
		}
		return true
	})
	p.sortEdits()
	from, to := r.offset(body.Lbrace)+1, r.offset(body.Rbrace)
	names := r.lineNames()
	var out strings.Builder
	out.WriteString(r.restore(from, names))
	p.write(&out, from, to, names)
	return out.String(), true
}
