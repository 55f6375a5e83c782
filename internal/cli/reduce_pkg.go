package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/culprit-go/culprit/reduce"
	reducecmd "github.com/culprit-go/culprit/reduce/command"
	"github.com/culprit-go/culprit/reduce/gosyntax"
	"github.com/culprit-go/culprit/reduce/oracle"
	"github.com/culprit-go/culprit/reduce/rewrite"
)

// goPackage is what reduce's package mode needs of go list -json.
type goPackage struct {
	Dir, ImportPath, Name, ForTest                               string
	GoFiles, CgoFiles, TestGoFiles, XTestGoFiles, IgnoredGoFiles []string
	Module                                                       *struct {
		Path, Dir, GoMod string
		Main             bool
	}
	Error *struct{ Err string }
}

// pkgReduction is a reduction of a Go package against go test -run.
type pkgReduction struct {
	pkg      *goPackage
	rel      string        // the package's directory, relative to its module's
	deps     []*goPackage  // the packages of the module it imports, tests included
	files    []string      // the files reduced, relative to the module's directory
	withDeps bool          // the files of deps are reduced too
	run      string        // the -run regular expression
	result   string        // the result module's directory
	staging  string        // where the reducer keeps the best package files so far
	vet      bool          // go test runs go vet: the original fails only with it
	timeout  time.Duration // the test binary's time limit (go test -timeout), once learned
}

// buildAllowance is what the time limit of a candidate's go test adds to
// its test binary's for the build: a build slowed by other work on the
// machine is not a candidate that hangs.
const buildAllowance = 5 * time.Minute

// goTest returns go test's arguments for the package directory, with the
// extra flags before -run.
func (p *pkgReduction) goTest(extra ...string) []string {
	args := append([]string{"go", "test", "-count=1"}, extra...)
	if p.timeout > 0 {
		args = append(args, "-timeout="+p.timeout.String())
	}
	if !p.vet {
		// Candidates that go vet rejects (a format string cut short)
		// would be tests lost; the original's failure does not need it.
		args = append(args, "-vet=off")
	}
	return append(args, "-run", p.run, ".")
}

// newPkgReducer builds the reducer of package mode: the package's Go
// files (tests included) reduced while go test -run still fails the same
// way. Candidates reach go test through an -overlay file, so the
// package's own files stay untouched.
func newPkgReducer(f *reduceFlags, patterns []string, hasCmd bool) (*reducecmd.Reducer, *pkgReduction, error) {
	switch {
	case hasCmd || f.script != "":
		return nil, nil, errors.New("-run reduces a package against go test: give no COMMAND or --test")
	case len(patterns) > 1:
		return nil, nil, fmt.Errorf("-run: one package expected, got %d: %s", len(patterns), strings.Join(patterns, " "))
	case f.match != "" || f.ignoreOutput:
		return nil, nil, errors.New("-run: the failure is learned from go test's output; --match and --ignore-output do not apply")
	case f.mode != "min":
		return nil, nil, errors.New("-run: only --mode min")
	case f.jobs < 1:
		return nil, nil, fmt.Errorf("--jobs %d: want at least 1", f.jobs)
	}
	pattern := "."
	if len(patterns) == 1 {
		pattern = patterns[0]
	}
	pkg, err := listPackage(pattern)
	if err != nil {
		return nil, nil, err
	}
	if pkg.Module == nil || pkg.Module.Dir == "" {
		return nil, nil, fmt.Errorf("-run: %s is not in a module", pkg.ImportPath)
	}
	rel, err := filepath.Rel(pkg.Module.Dir, pkg.Dir)
	if err != nil {
		return nil, nil, err
	}
	p := &pkgReduction{pkg: pkg, rel: rel, run: f.run, withDeps: f.deps}
	if p.deps, err = moduleDeps(pkg); err != nil {
		return nil, nil, err
	}
	p.result = f.out
	if p.result == "" {
		p.result = filepath.Base(pkg.Dir) + ".reduced"
	}
	if p.result, err = filepath.Abs(p.result); err != nil {
		return nil, nil, err
	}
	if _, err := os.Stat(p.result); err == nil {
		return nil, nil, fmt.Errorf("result directory %s exists; remove it or give -o", p.result)
	}
	p.staging = p.result + ".package"

	in := &reducecmd.Input{Name: filepath.Base(pkg.Module.Dir), Dir: true}
	for _, name := range pkg.goFiles() {
		p.files = append(p.files, filepath.Join(rel, name))
	}
	if p.withDeps {
		for _, d := range p.deps {
			drel, err := filepath.Rel(pkg.Module.Dir, d.Dir)
			if err != nil {
				return nil, nil, err
			}
			for _, name := range append(append([]string(nil), d.GoFiles...), d.CgoFiles...) {
				p.files = append(p.files, filepath.Join(drel, name))
			}
		}
	}
	slices.Sort(p.files)
	for _, name := range p.files {
		path := filepath.Join(pkg.Module.Dir, name)
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, nil, err
		}
		info, err := os.Stat(path)
		if err != nil {
			return nil, nil, err
		}
		in.Files = append(in.Files, reducecmd.File{Path: filepath.ToSlash(name), Data: data, Mode: info.Mode().Perm()})
	}
	if len(in.Files) == 0 {
		return nil, nil, fmt.Errorf("-run: %s has no Go files", pkg.ImportPath)
	}
	r := &reducecmd.Reducer{Input: in, Mode: reduce.Min, Jobs: f.jobs, Repeat: f.repeat, Output: p.staging}
	if f.levels != "" {
		if r.Levels, err = reducecmd.ParseLevels(f.levels); err != nil {
			return nil, nil, fmt.Errorf("--levels: %v", err)
		}
	} else {
		// Each test is a go test build; the tree passes do the fine
		// work, and what the tokens and bytes levels add is mostly
		// layout, which the gofmt-formatted result puts back.
		r.Levels = []reducecmd.Level{reducecmd.Files, reducecmd.Lines}
	}
	if f.levels == "" || f.lang != "" {
		lang := f.lang
		if lang == "" {
			lang = "go"
		}
		if r.Syntax, err = syntaxOf(lang, true, true); err != nil {
			return nil, nil, err
		}
	}
	if err := p.prune(r); err != nil {
		return nil, nil, err
	}
	r.Command = oracle.Command{
		Args:    p.goTest("-overlay={}.overlay.json"),
		Dir:     pkg.Dir,
		Timeout: f.timeout,
		Before:  p.overlay,
	}
	r.Judge.Rule = oracle.GoPanic
	return r, p, nil
}

// prune sets the reducer's shortcuts: the declarations of the package
// that the tests -run selects do not reach go, in one test, then the
// package's files are joined into one (and its test files into one).
func (p *pkgReduction) prune(r *reducecmd.Reducer) error {
	if r.Syntax == nil {
		return nil
	}
	syn, ok := r.Syntax("x.go").(*gosyntax.Syntax)
	if !ok {
		return nil
	}
	// go test matches the tests' names with the part of -run before the
	// first slash (the rest selects subtests).
	re, err := regexp.Compile(strings.SplitN(p.run, "/", 2)[0])
	if err != nil {
		return fmt.Errorf("-run: %v", err)
	}
	root := func(name string) bool {
		for _, prefix := range []string{"Test", "Fuzz", "Example"} {
			if strings.HasPrefix(name, prefix) && re.MatchString(name) {
				return true
			}
		}
		return false
	}
	dir := filepath.ToSlash(p.rel)
	// Through the Go files as rewrite's: the result keeps each file's
	// mode, and a file the shortcut joined into another goes.
	through := func(edit func([]rewrite.File) []rewrite.File) func([]reducecmd.File) []reducecmd.File {
		return func(files []reducecmd.File) []reducecmd.File {
			rfiles := make([]rewrite.File, len(files))
			mode := map[string]fs.FileMode{}
			for i, f := range files {
				rfiles[i] = rewrite.File{Path: f.Path, Data: f.Data}
				mode[f.Path] = f.Mode
			}
			edited := edit(rfiles)
			if edited == nil {
				return nil
			}
			out := make([]reducecmd.File, len(edited))
			for i, f := range edited {
				out[i] = reducecmd.File{Path: f.Path, Data: f.Data, Mode: mode[f.Path]}
			}
			return out
		}
	}
	r.Shortcuts = []func([]reducecmd.File) []reducecmd.File{
		through(func(files []rewrite.File) []rewrite.File { return syn.Prune(files, dir, root) }),
		through(func(files []rewrite.File) []rewrite.File { return syn.Merge(files, dir) }),
	}
	return nil
}

// goFiles lists the package's Go files that go test compiles.
func (pkg *goPackage) goFiles() []string {
	var out []string
	for _, l := range [][]string{pkg.GoFiles, pkg.CgoFiles, pkg.TestGoFiles, pkg.XTestGoFiles} {
		out = append(out, l...)
	}
	slices.Sort(out)
	return out
}

// listPackage runs go list on one package.
func listPackage(pattern string) (*goPackage, error) {
	out, err := exec.Command("go", "list", "-e", "-json", pattern).Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return nil, fmt.Errorf("go list %s: %s", pattern, strings.TrimSpace(string(ee.Stderr)))
		}
		return nil, fmt.Errorf("go list %s: %w", pattern, err)
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	var pkgs []*goPackage
	for dec.More() {
		var p goPackage
		if err := dec.Decode(&p); err != nil {
			return nil, fmt.Errorf("go list %s: %w", pattern, err)
		}
		pkgs = append(pkgs, &p)
	}
	switch {
	case len(pkgs) != 1:
		return nil, fmt.Errorf("-run: %s is %d packages; give one", pattern, len(pkgs))
	case pkgs[0].Error != nil:
		return nil, fmt.Errorf("go list %s: %s", pattern, pkgs[0].Error.Err)
	}
	return pkgs[0], nil
}

// overlay writes the -overlay file of the candidate package directory at
// path: each Go file of the package is replaced by the candidate's, or
// deleted when the candidate has none.
func (p *pkgReduction) overlay(path string) error {
	replace := map[string]string{}
	for _, name := range p.files {
		cand := filepath.Join(path, name)
		if _, err := os.Stat(cand); err != nil {
			cand = ""
		}
		replace[filepath.Join(p.pkg.Module.Dir, name)] = cand
	}
	data, err := json.Marshal(map[string]any{"Replace": replace})
	if err != nil {
		return err
	}
	return os.WriteFile(path+".overlay.json", data, 0o644)
}

// assemble makes the result a module of its own: the original's go.mod
// and go.sum, the packages of the module the package needs (as they
// are), the reduced Go files, and the package's other files (testdata).
func (p *pkgReduction) assemble() error {
	mod := p.pkg.Module
	pkgDir := filepath.Join(p.result, p.rel)
	if err := os.MkdirAll(pkgDir, 0o755); err != nil {
		return err
	}
	for _, name := range []string{"go.mod", "go.sum"} {
		if err := copyFile(filepath.Join(mod.Dir, name), filepath.Join(p.result, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	for _, d := range p.deps {
		rel, err := filepath.Rel(mod.Dir, d.Dir)
		if err != nil {
			return err
		}
		// A reduced package gets its Go files from the reduction.
		keep := func(string) bool { return true }
		if p.withDeps {
			keep = func(name string) bool { return !strings.HasSuffix(name, ".go") }
		}
		if err := copyTopFiles(d.Dir, filepath.Join(p.result, rel), keep); err != nil {
			return err
		}
	}
	// The package's files other than its Go files: testdata, embedded
	// files.
	gofiles := p.pkg.goFiles()
	isGo := func(name string) bool {
		return slices.Contains(gofiles, name) || slices.Contains(p.pkg.IgnoredGoFiles, name)
	}
	if err := copyTopFiles(p.pkg.Dir, pkgDir, func(name string) bool { return !isGo(name) }); err != nil {
		return err
	}
	if err := os.CopyFS(filepath.Join(pkgDir, "testdata"), os.DirFS(filepath.Join(p.pkg.Dir, "testdata"))); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return os.CopyFS(p.result, os.DirFS(p.staging))
}

// moduleDeps lists the packages of the main module that the package and
// its tests import, directly or not.
func moduleDeps(pkg *goPackage) ([]*goPackage, error) {
	out, err := exec.Command("go", "list", "-e", "-deps", "-test", "-json", pkg.ImportPath).Output()
	if err != nil {
		return nil, fmt.Errorf("go list -deps %s: %w", pkg.ImportPath, err)
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	var deps []*goPackage
	seen := map[string]bool{pkg.Dir: true}
	for dec.More() {
		var d goPackage
		if err := dec.Decode(&d); err != nil {
			return nil, fmt.Errorf("go list -deps %s: %w", pkg.ImportPath, err)
		}
		// Test variants ("p [p.test]") and the test main have the
		// directory of a package listed anyway.
		if d.Module == nil || !d.Module.Main || d.Dir == "" || seen[d.Dir] || d.ForTest != "" || strings.HasSuffix(d.ImportPath, ".test") {
			continue
		}
		seen[d.Dir] = true
		deps = append(deps, &d)
	}
	return deps, nil
}

// copyTopFiles copies the regular files directly in src that keep says
// to keep into dst.
func copyTopFiles(src, dst string, keep func(name string) bool) error {
	entries, err := os.ReadDir(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	for _, e := range entries {
		if e.Type().IsRegular() && keep(e.Name()) {
			if err := copyFile(filepath.Join(src, e.Name()), filepath.Join(dst, e.Name())); err != nil {
				return err
			}
		}
	}
	return nil
}

func copyFile(src, dst string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	info, err := os.Stat(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, data, info.Mode().Perm())
}

// reproduce is the one-line command that reproduces the failure in the
// result.
func (p *pkgReduction) reproduce() string {
	target := "./" + filepath.ToSlash(p.rel)
	if p.rel == "." {
		target = "."
	}
	vet := " -vet=off"
	if p.vet {
		vet = ""
	}
	return fmt.Sprintf("cd %s && go test -count=1%s -run '%s' %s", p.result, vet, p.run, target)
}

// verify runs the result's command and tells whether it fails as the
// original did.
func (p *pkgReduction) verify(ctx context.Context, r *reducecmd.Reducer) error {
	cmd := oracle.Command{
		Args:           p.goTest(),
		InCandidateDir: true, // in the directory of the path below
		Timeout:        r.Command.Timeout,
	}
	run, err := cmd.Run(ctx, filepath.Join(p.result, p.rel, "go.mod"))
	if err != nil {
		return err
	}
	if o := r.Judge.Classify(run); o != reduce.Fail {
		return fmt.Errorf("the result does not fail as the original did (%s: %s)", o, run.Describe())
	}
	return nil
}

// reducePackage runs package mode and reports.
func reducePackage(e *env, f *reduceFlags, r *reducecmd.Reducer, p *pkgReduction) int {
	pr := newProgress(e.stderr, f.verbose)
	r.OnStatus = pr.status
	if f.verbose {
		r.OnTest = func(ev reducecmd.Event) { logTest(e.stderr, ev) }
	}
	err := r.Check(e.ctx)
	if errors.Is(err, oracle.ErrNotFailing) && !p.vet {
		// The failure may be go vet's, which go test runs first.
		p.vet = true
		r.Command.Args = p.goTest("-overlay={}.overlay.json")
		err = r.Check(e.ctx)
	}
	if err == nil {
		// The time limit learned from the original (or --timeout) is
		// the test binary's, which go test -timeout stops with a panic
		// of its own; the build gets more.
		p.timeout = r.Command.Timeout
		r.Command.Args = p.goTest("-overlay={}.overlay.json")
		r.Command.Timeout = p.timeout + buildAllowance
	}
	sum, interrupted, code := runReducer(e, r, err, pr)
	if code >= 0 {
		return code
	}
	sum.Timeout = p.timeout
	if err := p.assemble(); err != nil {
		errorf(e, "reduce: assemble the result: %v", err)
		return exitFail
	}
	os.RemoveAll(p.staging)
	verr := error(nil)
	if !interrupted {
		verr = p.verify(context.Background(), r)
	}
	command := p.reproduce()
	if f.json {
		js := reduceSummary{
			Mode:           r.Mode.String(),
			Levels:         sum.Levels,
			OriginalBytes:  sum.OriginalBytes,
			FinalBytes:     sum.FinalBytes,
			Result:         p.result,
			Command:        command,
			Tests:          sum.Tests,
			CacheHits:      sum.CacheHits,
			Skipped:        sum.Skipped,
			Sweeps:         sum.Sweeps,
			Seconds:        sum.Elapsed.Seconds(),
			TimeoutSeconds: sum.Timeout.Seconds(),
			Interrupted:    interrupted,
		}
		b, _ := json.MarshalIndent(js, "", "  ")
		fmt.Fprintf(e.stdout, "%s\n", b)
	}
	report(e.stderr, r, sum, p.result)
	fmt.Fprintf(e.stderr, "reproduce: %s\n", command)
	switch {
	case interrupted:
		errorf(e, "reduce: interrupted; the best package so far is in %s", p.result)
		return exitInterrupted
	case verr != nil:
		errorf(e, "reduce: %v", verr)
		return exitFail
	}
	return exitOK
}
