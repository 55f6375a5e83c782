package instrument

import (
	"go/ast"
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
// the order they appear: a copy would rename the instrumented ones) or a
// go statement.

// plainPrefix starts the name of a label in a plain copy.
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

// copyable reports whether body gets a plain copy (see above).
func (r *fileRewriter) copyable(fs *funcState, body *ast.BlockStmt) bool {
	if !r.noInline || r.isTest || r.made == nil || !fs.stream || r.events&trace.EventFunc == 0 || len(body.List) == 0 {
		return false
	}
	ok := true
	ast.Inspect(body, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.FuncLit, *ast.GoStmt:
			ok = false
		}
		return ok
	})
	return ok
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
