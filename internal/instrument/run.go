package instrument

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
)

// ProgramRun is the name of the run a program's main function makes in
// the trace: a test record of kind trace.TestFunc named "main", whose
// parent is test 0 (package initialization).
const ProgramRun = "main"

// Program says what program to run.
type Program struct {
	// Config says how to instrument and record: Packages holds exactly
	// one main package; GoFlags are go build flags (-tags, -race...);
	// Stdout and Stderr receive the program's own output, unchanged;
	// Instrument nil instruments the main module's packages the program
	// imports.
	Config
	Args  []string  // the program's arguments
	Stdin io.Reader // its standard input; nil is no input
}

// RunProgram instruments a main package, builds it with go build
// -overlay (the runtime injected as for tests) and runs the binary with
// the program's arguments and standard input, its standard output and
// error passed through. Result.ExitCode is the program's exit status; the
// returned error is about culprit's own work, or the build's failure
// (go build's output then went to Stderr).
//
// The program's main function runs as a named run, ProgramRun, in the
// trace, which is written when main returns, at os.Exit and log.Fatal*
// in instrumented code, and when main's goroutine (or one started by a
// go statement with a function literal) panics.
func RunProgram(ctx context.Context, prog Program) (*Result, error) {
	cfg := prog.Config
	if len(cfg.Packages) > 1 {
		return nil, usageErrorf("one main package to run, not %d (%s)", len(cfg.Packages), strings.Join(cfg.Packages, " "))
	}
	if cfg.Instrument == nil {
		// The program's own packages: those of the main module it imports.
		mods, err := moduleImports(ctx, cfg)
		if err != nil {
			return nil, err
		}
		cfg.Instrument = mods
	}
	b, err := prepare(ctx, &cfg, true)
	if err != nil {
		return nil, err
	}
	defer b.close()
	res := b.res
	exe := filepath.Join(b.work, "bin", "prog")
	args := []string{"build", "-overlay", b.overlay, "-o", exe}
	args = append(args, insertFlags(cfg.GoFlags, b.gcflags)...)
	args = append(args, cfg.Packages...)
	build := exec.CommandContext(ctx, "go", args...)
	build.Dir = b.dir
	build.Env = b.env
	build.Stdout = cfg.Stderr
	build.Stderr = cfg.Stderr
	if err := build.Run(); err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return nil, fmt.Errorf("go build %s failed", strings.Join(cfg.Packages, " "))
		}
		return nil, fmt.Errorf("run go build: %w", err)
	}
	cmd := exec.CommandContext(ctx, exe, prog.Args...)
	cmd.Dir = b.dir
	cmd.Env = b.env
	cmd.Stdin = prog.Stdin
	cmd.Stdout = cfg.Stdout
	cmd.Stderr = cfg.Stderr
	if cfg.Stderr == cfg.Stdout {
		cmd.Stderr = cmd.Stdout
	}
	err = cmd.Run()
	res.MaxRSS = maxRSS(cmd.ProcessState)
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		res.ExitCode = exit.ExitCode()
		if res.ExitCode < 0 {
			res.Notes = append(res.Notes, "the program was killed: "+exit.String())
		}
	default:
		return nil, fmt.Errorf("run %s: %w", cfg.Packages[0], err)
	}
	return res, nil
}

// moduleImports lists the packages of the main module that the program
// imports, directly or not (go list -deps, no type checking).
func moduleImports(ctx context.Context, cfg Config) ([]string, error) {
	return imports(ctx, cfg, false)
}

// ModuleImports lists the packages of the main module that cfg's
// packages or their tests import, directly or not, but for the packages
// themselves: what Config.Instrument takes to record the code the tests
// run outside the tested packages.
func ModuleImports(ctx context.Context, cfg Config) ([]string, error) {
	return imports(ctx, cfg, true)
}

func imports(ctx context.Context, cfg Config, tests bool) ([]string, error) {
	env := cfg.Env
	if env == nil {
		env = os.Environ()
	}
	pkgs, err := packages.Load(&packages.Config{Context: ctx, Mode: packages.NeedName | packages.NeedImports | packages.NeedDeps | packages.NeedModule,
		Dir: cfg.Dir, Env: env, BuildFlags: buildFlags(cfg.GoFlags), Tests: tests}, cfg.Packages...)
	if err != nil {
		return nil, fmt.Errorf("load packages: %w", err)
	}
	roots := map[string]bool{}
	if tests {
		for _, p := range pkgs {
			roots[strings.TrimSuffix(p.PkgPath, "_test")] = true
		}
	}
	var out []string
	seen := map[*packages.Package]bool{}
	packages.Visit(pkgs, func(p *packages.Package) bool {
		if seen[p] {
			return false
		}
		seen[p] = true
		// (A root's external test package, "p_test", is a root too.)
		if p.Name != "main" && p.Module != nil && p.Module.Main && !roots[strings.TrimSuffix(p.PkgPath, "_test")] && !strings.HasSuffix(p.ID, ".test") {
			out = append(out, p.PkgPath)
		}
		return true
	}, nil)
	sort.Strings(out)
	out = slices.Compact(out)
	return out, nil
}

// programPackage returns the one main package the patterns name.
func programPackage(targets []*packages.Package, patterns []string) (*packages.Package, error) {
	if len(targets) != 1 {
		return nil, usageErrorf("%s: %d packages: want one main package", strings.Join(patterns, " "), len(targets))
	}
	p := targets[0]
	if p.Name != "main" {
		return nil, usageErrorf("%s is package %s, not a main package", p.PkgPath, p.Name)
	}
	if len(p.Errors) > 0 {
		return nil, usageErrorf("%s", p.Errors[0])
	}
	return p, nil
}

// Names the program hook declares in the main package.
const (
	progStart = "_culpritMainStart"
	progType  = "_culpritMainRun"
)

// addProgramHook adds to the main package a file that names the package
// for the events file and declares the hook, and makes main start with
// `defer _culpritMainStart()()`: the run starts (rt.Test with a TB of its
// own, so the run is an ordinary named run), and when main returns or
// panics its outcome is recorded (pass, panic) and the trace written:
// returning, through rt.Exit(0), so the trace has its end record; an
// os.Exit ends the run (pass for status 0, fail otherwise) and the end
// record has the status; a panic leaves no end record, as a panicking
// test does.
func addProgramHook(overlay map[string]string, work string, p *packages.Package, rtImport string) error {
	var mainFile string
	var lbrace int
	for i, f := range p.Syntax {
		if i >= len(p.CompiledGoFiles) {
			break
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "main" && fd.Body != nil {
				mainFile = p.CompiledGoFiles[i]
			}
		}
	}
	if mainFile == "" {
		return usageErrorf("%s: no func main", p.PkgPath)
	}
	src := mainFile
	if o, ok := overlay[mainFile]; ok {
		src = o
	}
	data, err := os.ReadFile(src)
	if err != nil {
		return fmt.Errorf("instrument: %w", err)
	}
	// Find main's body in the file as rewritten, and the original
	// position that follows its brace.
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, src, data, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return fmt.Errorf("instrument: parse %s: %w", src, err)
	}
	var body *ast.BlockStmt
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "main" && fd.Body != nil {
			body = fd.Body
		}
	}
	if body == nil {
		return fmt.Errorf("instrument: %s: no func main after rewriting", mainFile)
	}
	lbrace = fset.Position(body.Lbrace).Offset
	pos := fset.PositionFor(body.Lbrace, true)
	var out bytes.Buffer
	out.Write(data[:lbrace+1])
	fmt.Fprintf(&out, "defer %s()();/*line %s:%d:%d*/", progStart, pos.Filename, pos.Line, pos.Column+1)
	out.Write(data[lbrace+1:])
	dst := filepath.Join(work, "src", "main_"+filepath.Base(mainFile))
	if err := writeFile(dst, out.Bytes()); err != nil {
		return err
	}
	overlay[mainFile] = dst

	var hook bytes.Buffer
	fmt.Fprintf(&hook, `package main

import (
	%[1]s %[2]q
	"runtime"
)

func init() { %[1]s.Package(%[3]q) }

// %[4]s is the program's run, as rt sees a test.
type %[4]s struct{ cleanups []func() }

func (*%[4]s) Name() string      { return %[5]q }
func (*%[4]s) Failed() bool      { return false }
func (*%[4]s) Skipped() bool     { return false }
func (r *%[4]s) Cleanup(f func()) { r.cleanups = append(r.cleanups, f) }

// %[6]s starts the run; main defers what it returns.
func %[6]s() func() {
	r := &%[4]s{}
	%[1]s.Test(r)
	return func() {
		for i := len(r.cleanups) - 1; i >= 0; i-- {
			r.cleanups[i]() // the outcome; panicking, the trace is written
		}
		if !%[6]sPanicking() {
			%[1]s.Exit(0) // the trace with its end record, as main's return would exit
		}
	}
}

func %[6]sPanicking() bool {
	var pcs [32]uintptr
	frames := runtime.CallersFrames(pcs[:runtime.Callers(2, pcs[:])])
	for {
		f, more := frames.Next()
		if f.Function == "runtime.gopanic" {
			return true
		}
		if !more {
			return false
		}
	}
}
`, rtName, rtImport, p.PkgPath, progType, ProgramRun, progStart)
	gen := filepath.Join(work, "src", "zz_culprit_prog.go")
	if err := writeFile(gen, hook.Bytes()); err != nil {
		return err
	}
	overlay[filepath.Join(filepath.Dir(mainFile), "zz_culprit_prog.go")] = gen
	return nil
}

// IsMain reports whether pattern, loaded in dir, names one package and it
// is a main package: what culprit flow runs as a program.
func IsMain(ctx context.Context, dir, pattern string, env []string) (bool, error) {
	if env == nil {
		env = os.Environ()
	}
	pkgs, err := packages.Load(&packages.Config{Context: ctx, Mode: packages.NeedName, Dir: dir, Env: env}, pattern)
	if err != nil {
		return false, fmt.Errorf("load packages: %w", err)
	}
	return len(pkgs) == 1 && pkgs[0].Name == "main", nil
}
