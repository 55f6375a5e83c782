package instrument

import (
	"fmt"
	"go/ast"
	"go/build/constraint"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// This file keeps what the Go toolchain reads from comments as it was:
// build constraints, examples' output comments and the user's //line
// directives. Every insertion is followed by a /*line*/ comment (see
// apply); these rules say where such a comment may not go and what it
// must say.

// raisedVersion is the language version an instrumented file older than
// it is compiled at. Value-wrapping records call generic functions
// (go1.18) whose type arguments are inferred from untyped constants and
// core types (go1.21). Raising a file from any version before go1.21 to
// go1.21 changes no program's meaning: the versions between only add to
// the language (the loop variable change is go1.22), and GODEBUG defaults
// follow the main module's go line, which stays as written.
const raisedVersion = 21

// raiseMin is the toolchain a raised file needs: a //go:build line naming
// a newer version than go.mod's raises the file's version from go1.21 on.
const raiseMin = 21

// headerConstraints returns the file's build constraint lines before the
// package clause: the //go:build line (nil if none) and the +build lines.
func headerConstraints(f *ast.File) (goBuild *ast.Comment, plusBuild []*ast.Comment) {
	for _, g := range f.Comments {
		if g.Pos() >= f.Package {
			break
		}
		for _, c := range g.List {
			switch {
			case constraint.IsGoBuild(c.Text):
				if goBuild == nil {
					goBuild = c
				}
			case constraint.IsPlusBuild(c.Text):
				plusBuild = append(plusBuild, c)
			}
		}
	}
	return goBuild, plusBuild
}

// raiseVersion edits the file's build constraints so that the compiler
// takes it as go1.21: the //go:build line gets "&& go1.21", or, without
// one, apply writes "//go:build go1.21" first. A file included by its
// plus-build lines is included without them (the go command chose it
// under the same build configuration), and they are renamed so that vet
// does not compare them with the new line.
func (r *fileRewriter) raiseVersion() {
	goBuild, plus := headerConstraints(r.file)
	want := fmt.Sprintf("go1.%d", raisedVersion)
	if goBuild != nil {
		expr, err := constraint.Parse(goBuild.Text)
		if err != nil {
			return // go list would have refused the file
		}
		text := "//go:build (" + expr.String() + ") && " + want
		r.bare(r.offset(goBuild.Pos()), r.offset(goBuild.End()), text)
	} else {
		r.prelude = "//go:build " + want + "\n\n"
	}
	for _, c := range plus {
		r.bare(r.offset(c.Pos()), r.offset(c.End()), strings.Replace(c.Text, "+build", "_build", 1))
	}
	r.raised = true
}

// bare replaces original text with an edit that no /*line*/ comment
// follows: for whole-line comments, whose replacement keeps the lines.
func (r *fileRewriter) bare(off, end int, text string) {
	r.seq++
	r.edits = append(r.edits, insertion{off: off, end: end, seq: r.seq, text: text, bare: true})
}

// outputRe is how go/doc and vet recognize an example's output comment.
var outputRe = regexp.MustCompile(`(?i)^[[:space:]]*(unordered )?output:`)

// exampleOutput marks where no /*line*/ comment may go in an example
// function: go test takes the last comment group of the body as the
// expected output, and vet wants the output comment last. From the end of
// the token before the output comment to the closing brace, edits stand
// without their comment (they hold no newline, so only the columns after
// them on their line move), and one comment after the brace restores the
// positions.
func (r *fileRewriter) exampleOutput(fd *ast.FuncDecl) {
	if !r.isTest || fd.Recv != nil || !strings.HasPrefix(fd.Name.Name, "Example") || fd.Body == nil {
		return
	}
	var last *ast.CommentGroup
	for _, g := range r.file.Comments {
		if g.Pos() > fd.Body.Lbrace && g.End() <= fd.Body.Rbrace {
			last = g
		}
	}
	if last == nil || !outputRe.MatchString(last.Text()) {
		return
	}
	start := r.offset(last.Pos())
	for start > 0 && strings.IndexByte(" \t\r\n", r.src[start-1]) >= 0 {
		start--
	}
	end := r.offset(fd.Body.Rbrace)
	r.quiet = append(r.quiet, [2]int{start, end})
	// A restoring comment after the brace, outside the function.
	r.insert(end+1, false, 1000, "")
}

// inQuiet reports whether an edit at off stands without its comment.
func (r *fileRewriter) inQuiet(off int) bool {
	for _, q := range r.quiet {
		if off >= q[0] && off <= q[1] {
			return true
		}
	}
	return false
}

// lineNames maps the file names of the user's //line directives, as
// go/token resolves them, to the names as written, which is what the
// compiler reports.
func (r *fileRewriter) lineNames() map[string]string {
	if r.namesDone {
		return r.names
	}
	r.names, r.namesDone = r.readLineNames(), true
	return r.names
}

// readLineNames is lineNames, read from the file's comments.
func (r *fileRewriter) readLineNames() map[string]string {
	var names map[string]string
	dir := filepath.Dir(r.path)
	for _, g := range r.file.Comments {
		for _, c := range g.List {
			var text string
			switch {
			case strings.HasPrefix(c.Text, "//line "):
				text = c.Text[len("//line "):]
			case strings.HasPrefix(c.Text, "/*line "):
				text = strings.TrimSuffix(c.Text[len("/*line "):], "*/")
			default:
				continue
			}
			name := lineDirectiveFile(text)
			if name == "" {
				continue
			}
			resolved := filepath.Clean(name)
			if !filepath.IsAbs(resolved) {
				resolved = filepath.Join(dir, resolved)
			}
			if names == nil {
				names = map[string]string{}
			}
			names[resolved] = name
		}
	}
	return names
}

// lineDirectiveFile returns the file name of a line directive's text
// ("name:line" or "name:line:col"), "" if it has none.
func lineDirectiveFile(text string) string {
	text = strings.TrimSpace(text)
	numbers := 0
	for numbers < 2 {
		i := strings.LastIndexByte(text, ':')
		if i < 0 {
			break
		}
		if _, err := strconv.Atoi(text[i+1:]); err != nil {
			break
		}
		text = text[:i]
		numbers++
	}
	if numbers == 0 {
		return ""
	}
	return text
}

// restore returns the /*line*/ comment that gives the original text at
// off its position: the physical one, or the one the user's //line
// directives give it.
func (r *fileRewriter) restore(off int, names map[string]string) string {
	p := r.tokFile.PositionFor(r.tokFile.Pos(off), names != nil)
	name := r.path
	if names != nil && p.Filename != r.path {
		name = p.Filename
		if raw, ok := names[p.Filename]; ok {
			name = raw
		}
	}
	if p.Column == 0 {
		return fmt.Sprintf("/*line %s:%d*/", name, p.Line)
	}
	return fmt.Sprintf("/*line %s:%d:%d*/", name, p.Line, p.Column)
}
