package changes

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"golang.org/x/tools/go/gcexportdata"
)

// A checker tells, in-process, whether a candidate's Go code builds: the
// packages of the module that hold a changed file, and those that import
// them, are parsed and type-checked (go/parser, go/types) with the
// candidate's files; the other packages come from the good tree's
// export data (go list -export), which they cannot tell apart from the
// candidate's since they import no changed package. Packages with cgo,
// and those that import one, are not checked. The checker is trusted
// only if it accepts the good and the bad sides.
type checker struct {
	mu      sync.Mutex
	root    string // the good tree
	pkgs    map[string]*listedPkg
	order   []*listedPkg // the checked packages, dependencies first
	fset    *token.FileSet
	parsed  map[string]*ast.File // unchanged files, by absolute path
	imports map[string]*types.Package
	sizes   types.Sizes
	dir     string // where go list runs
	env     []string
}

type listedPkg struct {
	ImportPath, Dir, Name string
	GoFiles, CgoFiles     []string
	Export                string
	Imports               []string
	ImportMap             map[string]string
	Standard              bool
	Module                *struct {
		Main      bool
		GoVersion string
	}
	Error *struct{ Err string }

	rel     string // Dir relative to the tree's root, slash
	checked bool   // type-checked from source
}

// newChecker returns the in-process build check of the candidates of
// ch on r's tree, or nil when it cannot be made or cannot be trusted.
func newChecker(ctx context.Context, r *runner, ch *Change, env []string) func(*Change, map[string]Content) bool {
	var goFiles []*File
	for _, f := range ch.Files {
		if strings.HasSuffix(f.Path, ".go") && !strings.HasSuffix(f.Path, "_test.go") {
			goFiles = append(goFiles, f)
		}
	}
	if len(goFiles) == 0 {
		return nil
	}
	c := &checker{root: r.base, pkgs: map[string]*listedPkg{}, fset: token.NewFileSet(), parsed: map[string]*ast.File{}, imports: map[string]*types.Package{}}
	c.sizes = types.SizesFor("gc", runtime.GOARCH)
	c.dir, c.env = filepath.Join(r.base, filepath.FromSlash(r.rel)), env
	list, err := c.list(ctx, "./...")
	if err != nil {
		return nil
	}
	changedDirs := map[string]bool{}
	for _, f := range goFiles {
		changedDirs[path.Dir(f.Path)] = true
	}
	// The packages to check: those in a changed directory, and their
	// importers; not those with cgo or importing one.
	skip := map[string]bool{}
	for _, p := range list {
		if p.Standard || p.rel == "" || p.Module == nil || !p.Module.Main {
			continue
		}
		affected := changedDirs[p.rel]
		broken := len(p.CgoFiles) > 0
		for _, imp := range p.Imports {
			if q := c.pkgs[imp]; q != nil && q.checked {
				affected = true
			}
			broken = broken || skip[imp]
		}
		if !affected {
			continue
		}
		if broken {
			skip[p.ImportPath] = true
			continue
		}
		p.checked = true
		c.order = append(c.order, p)
	}
	if len(c.order) == 0 {
		return nil
	}
	check := func(_ *Change, contents map[string]Content) bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.check(contents)
	}
	if !check(ch, ch.Apply(nil)) || !check(ch, ch.Apply(ch.All())) {
		return nil
	}
	return check
}

// list runs go list -export -deps on the good tree and records the
// packages it lists, dependencies first.
func (c *checker) list(ctx context.Context, pattern string) ([]*listedPkg, error) {
	cmd := exec.CommandContext(ctx, "go", "list", "-e", "-export", "-deps",
		"-json=ImportPath,Dir,Name,GoFiles,CgoFiles,Export,Imports,ImportMap,Standard,Module,Error", pattern)
	cmd.Dir = c.dir
	cmd.Env = c.env
	out, err := cmd.Output()
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	var list []*listedPkg
	for dec.More() {
		p := &listedPkg{}
		if err := dec.Decode(p); err != nil {
			return nil, err
		}
		if p.Error != nil {
			return nil, errors.New(p.Error.Err)
		}
		if rel, err := filepath.Rel(c.root, p.Dir); err == nil && (filepath.IsLocal(rel) || rel == ".") {
			p.rel = filepath.ToSlash(rel)
		}
		if _, ok := c.pkgs[p.ImportPath]; !ok {
			c.pkgs[p.ImportPath] = p
		}
		list = append(list, p)
	}
	return list, nil
}

// check type-checks the packages with the candidate's contents.
func (c *checker) check(contents map[string]Content) bool {
	done := map[string]*types.Package{}
	for _, p := range c.order {
		files, ok := c.files(p, contents)
		if !ok {
			return false
		}
		conf := types.Config{
			Importer: importerFunc(func(imp string) (*types.Package, error) { return c.importPkg(p, imp, done) }),
			Sizes:    c.sizes,
			Error:    func(error) {},
		}
		if p.Module != nil && p.Module.GoVersion != "" {
			conf.GoVersion = "go" + p.Module.GoVersion
		}
		pkg, err := conf.Check(p.ImportPath, c.fset, files, nil)
		if err != nil {
			return false
		}
		done[p.ImportPath] = pkg
	}
	return true
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// importPkg resolves an import of p: a checked package from this
// candidate, any other from the good tree's export data.
func (c *checker) importPkg(p *listedPkg, imp string, done map[string]*types.Package) (*types.Package, error) {
	if imp == "unsafe" {
		return types.Unsafe, nil
	}
	if m, ok := p.ImportMap[imp]; ok {
		imp = m
	}
	if pkg, ok := done[imp]; ok {
		return pkg, nil
	}
	if pkg, ok := c.imports[imp]; ok && pkg.Complete() {
		return pkg, nil
	}
	q := c.pkgs[imp]
	if q == nil {
		// An import the good side does not have.
		c.list(context.Background(), imp)
		q = c.pkgs[imp]
	}
	if q == nil || q.Export == "" || q.checked {
		return nil, os.ErrNotExist
	}
	f, err := os.Open(q.Export)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rd, err := gcexportdata.NewReader(f)
	if err != nil {
		return nil, err
	}
	return gcexportdata.Read(rd, c.fset, c.imports, imp)
}

// files parses the package's Go files in the candidate: its files on
// the good side, changed or deleted, and the new ones its build
// constraints accept. It reports false on a syntax error.
func (c *checker) files(p *listedPkg, contents map[string]Content) ([]*ast.File, bool) {
	names := slices.Clone(p.GoFiles)
	for fp, ct := range contents {
		if path.Dir(fp) != p.rel || !strings.HasSuffix(fp, ".go") || strings.HasSuffix(fp, "_test.go") || !ct.Exists {
			continue
		}
		name := path.Base(fp)
		if slices.Contains(names, name) {
			continue
		}
		ctxt := build.Default
		ctxt.OpenFile = func(string) (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(ct.Data)), nil }
		if ok, err := ctxt.MatchFile(p.Dir, name); err == nil && ok {
			names = append(names, name)
		}
	}
	var files []*ast.File
	for _, name := range names {
		rel := name
		if p.rel != "." {
			rel = p.rel + "/" + name
		}
		abs := filepath.Join(p.Dir, name)
		if ct, ok := contents[rel]; ok {
			if !ct.Exists {
				continue
			}
			f, err := parser.ParseFile(c.fset, abs, ct.Data, parser.SkipObjectResolution)
			if err != nil {
				return nil, false
			}
			if f.Name.Name != p.Name {
				return nil, false
			}
			files = append(files, f)
			continue
		}
		f, ok := c.parsed[abs]
		if !ok {
			var err error
			f, err = parser.ParseFile(c.fset, abs, nil, parser.SkipObjectResolution)
			if err != nil {
				return nil, false
			}
			c.parsed[abs] = f
		}
		files = append(files, f)
	}
	return files, true
}
