package deps

import (
	"cmp"
	"go/ast"
	"go/token"
	"slices"
	"strings"
)

// Writes made by code that is not instrumented: fmt.Sscan(s, &n),
// json.Unmarshal(data, &v), binary.Read(r, order, &x), r.Read(buf),
// sort.Ints(xs) write what their arguments point to, and the trace holds
// no write record of it. An argument &x, or a pointer, slice or map
// argument (as its read's value says: the engine has no types), of a
// call that the trace shows made (a call record) but whose callee it
// shows never entered is a possible write of that variable at the call:
// a definition depending on the call (on every argument), added to what
// a later read of the variable sees without replacing it. Calls known to
// only read their arguments (fmt.Print*, strings.*, the writers' Write
// methods...) write nothing; the builtins delete and clear write their
// first argument.

// callWrites defines, for each call of u's execution in into code that
// is not instrumented, what its arguments may have been written through.
// ids are the nodes the execution defined so far; def defines a node of
// it.
func (b *builder) callWrites(fr *frame, in *instance, u *unit, ids []int, def func(string, token.Pos, []int) int) {
	var top *ast.CallExpr // the call a call statement is: its node is the statement's
	if s, ok := u.node.(*ast.ExprStmt); ok {
		top, _ = ast.Unparen(s.X).(*ast.CallExpr)
	}
	f := u.fn.file
	for _, w := range u.writerCalls() {
		entered, called := in.calls[w.call.End()]
		if !w.builtin && (!called || entered) {
			continue
		}
		var from []int
		made := false
		targets := make([]ast.Expr, 0, len(w.args)+1)
		for _, a := range w.args {
			if target := writtenOperand(a, in, w.builtin); target != nil {
				targets = append(targets, target)
			}
		}
		if w.recv != nil && in.refs[w.recv.Pos()] != "*os.File" {
			targets = append(targets, w.recv)
		}
		for _, target := range targets {
			r := rootIdent(target)
			if r == nil || r.Name == "nil" {
				continue
			}
			key := f.key(r)
			if !b.isVar(fr, key) {
				continue
			}
			if !made {
				from, made = b.callFrom(fr, in, w.call, top, ids), true
			}
			// A method's write of a variable it was called on replaces
			// what the variable held: the call read it (sb.WriteString's
			// node depends on sb's definitions), so nothing is lost, and
			// a loop of writes keeps one definition, not one per call.
			_, whole := ast.Unparen(target).(*ast.Ident)
			id := def(f.text(target), target.Pos(), from)
			b.possiblyWritten(fr, key, id, whole && target == w.recv)
			if b.view.relevance() && fr.refBy != nil {
				fr.effect(id)
			}
		}
	}
}

// writerCall is a call of a unit that may write through its arguments
// when it goes into code that is not instrumented: the arguments it may
// write through, as its callee says (argWritten), whether it is the
// builtin delete or clear, and the receiver of a method that may write
// its receiver (recvWritten: sb.WriteString(s), n.Add(1)).
type writerCall struct {
	call    *ast.CallExpr
	args    []ast.Expr
	recv    ast.Expr
	builtin bool
}

// writerCalls returns the calls of u's code (not in function literals)
// that may write through their arguments, found once.
func (u *unit) writerCalls() []writerCall {
	if u.writers != nil {
		return u.writers
	}
	u.writers = []writerCall{} // known: none
	var roots []ast.Node
	switch n := u.node.(type) {
	case *ast.CaseClause:
		for _, x := range n.List {
			roots = append(roots, x)
		}
	case *ast.RangeStmt:
		roots = append(roots, n.X)
	case *ast.ReturnStmt, *ast.SelectStmt, nil:
		// What a return passes on is not read in this frame after it.
	default:
		roots = append(roots, n)
	}
	f := u.fn.file
	for _, root := range roots {
		ast.Inspect(root, func(m ast.Node) bool {
			if _, lit := m.(*ast.FuncLit); lit {
				return false
			}
			c, ok := m.(*ast.CallExpr)
			if !ok {
				return true
			}
			w := writerCall{call: c, builtin: builtinWriter(c)}
			callee := f.text(c.Fun)
			for i, a := range c.Args {
				if w.builtin && i > 0 || !w.builtin && !argWritten(callee, i) {
					continue
				}
				w.args = append(w.args, a)
			}
			if sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr); ok && !w.builtin && recvWritten(sel.Sel.Name) {
				switch ast.Unparen(sel.X).(type) {
				case *ast.Ident, *ast.SelectorExpr, *ast.IndexExpr, *ast.StarExpr:
					w.recv = sel.X
				}
			}
			if len(w.args) > 0 || w.recv != nil {
				u.writers = append(u.writers, w)
			}
			return true
		})
	}
	return u.writers
}

// callFrom returns what a possible write by call c depends on: in a call
// statement, the statement's node (the write may be done by a later call
// of it: reflect.ValueOf(&y).Elem().SetInt(x)); else the call's node
// (execution-level graphs) or what the call reads.
func (b *builder) callFrom(fr *frame, in *instance, c, top *ast.CallExpr, ids []int) []int {
	if top != nil && len(ids) > 0 {
		return []int{ids[0]}
	}
	if id, ok := in.callIDs[c.End()]; ok {
		return []int{id}
	}
	return b.view.callRead(fr, in, c)
}

// writtenOperand returns the operand an argument of a call may have
// written: x of &x, &x.f, &x[i], x[i:j]; the argument itself when it is a
// variable, field or element read as a pointer (but an *os.File),
// slice or map (or any first argument of a builtin writer); nil
// otherwise.
func writtenOperand(a ast.Expr, in *instance, builtin bool) ast.Expr {
	a = ast.Unparen(a)
	if u, ok := a.(*ast.UnaryExpr); ok && u.Op == token.AND {
		switch x := ast.Unparen(u.X).(type) {
		case *ast.Ident, *ast.SelectorExpr, *ast.IndexExpr:
			return x
		}
		return nil
	}
	switch x := a.(type) {
	case *ast.Ident, *ast.SelectorExpr, *ast.IndexExpr, *ast.StarExpr:
	case *ast.SliceExpr:
		// x[i:j] is a slice of x's storage (an array's: no read of
		// it is recorded).
		switch ast.Unparen(x.X).(type) {
		case *ast.Ident, *ast.SelectorExpr, *ast.IndexExpr, *ast.StarExpr:
			return ast.Unparen(x.X)
		}
		return nil
	default:
		return nil
	}
	if builtin {
		return a
	}
	switch t := in.refs[a.Pos()]; {
	case t == "*os.File":
		// Writing to a file changes nothing the program reads back
		// through the variable (fmt.Fprintln(w, x) with w os.Stdout).
		return nil
	case strings.HasPrefix(t, "*"), strings.HasPrefix(t, "[]"), strings.HasPrefix(t, "map["):
		return a
	}
	return nil
}

// builtinWriter reports whether c calls the builtin delete or clear.
func builtinWriter(c *ast.CallExpr) bool {
	id, ok := ast.Unparen(c.Fun).(*ast.Ident)
	return ok && id.Obj == nil && (id.Name == "delete" || id.Name == "clear") && len(c.Args) > 0
}

// isVar reports whether key names a variable fr sees: a local of its
// function or an enclosing one, or a package-level variable of its
// package (not a package name).
func (b *builder) isVar(fr *frame, key string) bool {
	f, sc := fr.holder(key)
	return f != nil || sc.global != ""
}

// possiblyWritten adds id to what the variable of key holds (or, with
// replace, makes it all it holds): a later read sees it besides what it
// saw before, and so does a read of storage
// instrumented code wrote through the variable (an element, a field).
// In execution-level graphs the elements and fields named for the
// variable are read through it from now on: id depends on them.
func (b *builder) possiblyWritten(fr *frame, key string, id int, replace bool) {
	b.define(fr, key, id, replace)
	b.view.mayHaveWritten(fr, key, id)
	var full []memKey // storage holding more than maxReaching now
	for k := range b.storage(varRef{b.owner(fr, key), key}, false) {
		if defs := b.mem[k]; defs != nil {
			defs = defs.with(id)
			b.mem[k] = defs
			if len(defs) > maxReaching {
				full = append(full, k)
			}
		}
	}
	// Joined in order: a join is a node, and the graph's numbering
	// must not depend on a map's order.
	slices.SortFunc(full, func(a, c memKey) int {
		if a.addr != c.addr {
			return cmp.Compare(a.addr, c.addr)
		}
		return strings.Compare(a.key, c.key)
	})
	for _, k := range full {
		b.mem[k] = b.bound(fr, key, b.mem[k], id)
	}
}

// storage returns the storage written through a variable (its own
// address, elements and fields of what it refers to), reset to nothing
// when reset.
func (b *builder) storage(v varRef, reset bool) map[memKey]bool {
	m := b.gmem
	if v.fr != nil {
		m = v.fr.wmem
	}
	if m == nil {
		m = map[string]map[memKey]bool{}
		if v.fr != nil {
			v.fr.wmem = m
		} else {
			b.gmem = m
		}
	}
	if reset || m[v.key] == nil {
		m[v.key] = map[memKey]bool{}
	}
	return m[v.key]
}

// recvWritten reports whether a method called name, of code that is not
// instrumented, may write its receiver (a pointer receiver, or a value
// holding a pointer): false for the names of methods known to only read
// it (String, Len, Load...) and for testing.T's. The engine has no
// types: a method of a package-level name (strings.Builder's WriteString)
// and a package's function (strings.Repeat) are told apart by whether
// the name before the dot is a variable.
func recvWritten(name string) bool {
	switch name {
	case "String", "GoString", "Error", "Unwrap", "Text", "Value", "Err", "Key", "Peek", "Buffered", "Available", "Len", "Cap", "Load", "Bytes", "Equal", "Compare", "Cmp", "Sign",
		"IsZero", "IsNil", "IsValid", "Kind", "Type", "Name", "Interface", "Int", "Uint", "Float", "Bool", "Pointer",
		"Before", "After", "Since", "Unix", "UnixNano", "UnixMilli", "Format", "AppendFormat", "MarshalJSON", "MarshalText",
		"Run", "Cleanup", "Parallel", "Setenv", "Chdir", "TempDir", "Context", "Deadline", "Fail", "FailNow", "Failed",
		"Skipped", "Attr", "Output", "Elapsed", "ReportAllocs", "ResetTimer", "StartTimer", "StopTimer", "ReportMetric":
		return false
	}
	switch {
	case name == "Helper", strings.HasPrefix(name, "Log"), strings.HasPrefix(name, "Error"), strings.HasPrefix(name, "Fatal"),
		strings.HasPrefix(name, "Skip"), strings.HasPrefix(name, "Is"), strings.HasPrefix(name, "Has"):
		return false
	}
	return true
}

// argWritten reports whether a call of callee (as written: "fmt.Sscan",
// "dec.Decode") may write through its argument i: false for the calls
// known to only read theirs.
func argWritten(callee string, i int) bool {
	pkg, name := "", callee
	if j := strings.LastIndexByte(callee, '.'); j >= 0 {
		pkg, name = callee[:j], callee[j+1:]
	}
	switch pkg {
	case "fmt":
		switch {
		case strings.HasPrefix(name, "Fprint"):
			return i == 0 // the writer
		case strings.HasPrefix(name, "Print"), strings.HasPrefix(name, "Sprint"), strings.HasPrefix(name, "Append"), name == "Errorf":
			return false
		}
		return true // Sscan, Fscan, Scan...
	case "errors":
		return name == "As" && i == 1
	case "utf8":
		return name == "EncodeRune" && i == 0
	case "maps":
		return (name == "Copy" || name == "DeleteFunc") && i == 0
	case "sort":
		return !strings.HasPrefix(name, "Search") && !strings.HasPrefix(name, "IsSorted") && !strings.HasSuffix(name, "AreSorted")
	case "slices":
		switch name {
		case "Sort", "SortFunc", "SortStableFunc", "Reverse", "Delete", "DeleteFunc", "Compact", "CompactFunc", "Insert", "Replace":
			return i == 0
		}
		return false
	case "json", "xml", "gob":
		return !strings.HasPrefix(name, "Marshal") && name != "Valid" && name != "NewEncoder" && name != "NewDecoder"
	case "io":
		switch name {
		case "Copy", "CopyN", "CopyBuffer", "WriteString":
			return i == 0 // the writer
		}
		return true // ReadFull, ReadAtLeast, ReadAll: the reader and the buffer
	case "binary":
		return name != "Write" || i == 0
	case "hex", "base64", "base32", "base64.StdEncoding", "base64.URLEncoding", "base64.RawStdEncoding", "base64.RawURLEncoding", "base32.StdEncoding", "base32.HexEncoding":
		// hex.Encode(dst, src), base64.StdEncoding.Decode(dst, src):
		// the destination, not the source.
		return i == 0 && (name == "Encode" || name == "Decode" || name == "AppendEncode" || name == "AppendDecode")
	case "log", "slog", "strings", "strconv", "math", "bits", "unicode", "bytes", "path", "filepath", "time", "os", "cmp":
		return false
	}
	switch {
	case name == "Write", name == "WriteString", name == "WriteByte", name == "WriteRune", name == "Encode",
		name == "Helper", strings.HasPrefix(name, "Print"), strings.HasPrefix(name, "Log"), strings.HasPrefix(name, "Error"),
		strings.HasPrefix(name, "Fatal"), strings.HasPrefix(name, "Skip"), strings.HasPrefix(name, "Info"),
		strings.HasPrefix(name, "Warn"), strings.HasPrefix(name, "Debug"):
		return false
	}
	return true
}
