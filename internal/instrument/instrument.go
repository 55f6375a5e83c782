// Package instrument runs a package's tests with its code instrumented:
// it loads the packages, rewrites their files into a temporary directory,
// adds the runtime support package (culprit's rt) as a module replaced by a
// directory (in vendor mode, a package of the main module: see
// vendoredRT), and runs go test with an -overlay file mapping the user's
// files to the rewritten ones. The user's files are never modified.
//
// Rewriting edits text at byte offsets, as cmd/cover does: each
// insertion is followed by a /*line*/ comment restoring the original file,
// line and column, so compiler errors, panics and t.Log positions point at
// the user's source. See rewrite.go for what is inserted where.
package instrument

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/tools/go/packages"

	"github.com/culprit-go/culprit/rt"
	"github.com/culprit-go/culprit/trace"
)

// rtPath is the import path the runtime package has in the user's build.
const rtPath = "culprit.invalid/rt"

// Config says what to run.
type Config struct {
	Dir        string         // directory to run in; "" is the current directory
	Packages   []string       // package patterns to test
	Instrument []string       // extra patterns to instrument (the tested packages always are)
	Events     trace.EventSet // what to record
	TraceDir   string         // "" is .culprit at the module root
	GoFlags    []string       // flags for go test, after the packages
	Stdout     io.Writer
	Stderr     io.Writer
	Env        []string // nil is os.Environ()
	KeepWork   bool     // keep the temporary directory (for debugging)
	CallLimit  int      // events of one site recorded in full (0: DefaultCallLimit, < 0: no limit)
	// EventBudget bounds the trace: once a test binary has recorded
	// this many stream events (since the sampled test started, with
	// SamplePerTest), each site records its first 100 events and then
	// those numbered by powers of two, and the process leaves a budget
	// file (trace.BudgetPrefix). 0: DefaultEventBudget; < 0, or a
	// CallLimit < 0: no budget.
	EventBudget int
	// SamplePerTest starts each test's sampling afresh: the first
	// CallLimit events of every site are recorded in every test, not
	// only in the test binary's first tests.
	SamplePerTest bool
	// SampleTest, with SamplePerTest, names the one test ("TestX/sub")
	// whose sampling starts afresh; "" is every test.
	SampleTest string
	// OnlyRelated, with SampleTest, mutes the stream events of every
	// test but SampleTest, its parents and its subtests (the tests a
	// slice or flow graph of SampleTest replays, with package
	// initialization, which stays recorded): their activations record
	// nothing, as calls not sampled do, and take nothing of the sites'
	// sampling budgets. A test with many subtests (go-cmp's TestDiff)
	// then records a trace of the one subtest. The trace directory's
	// trace.OnlyFile names SampleTest, so that no graph of another test
	// is built from it.
	OnlyRelated bool
	Inlinable   bool // record stream events in small functions too, though it changes inlining
	// Funcs, when not nil, names the functions to instrument, as their
	// sites name them ("example.com/p.T.M"; a function literal's
	// "X.func" keeps its declaration X); the others are left as written,
	// so a run of a few tests compiles only the code they execute
	// instrumented. Test files are left to Tests.
	Funcs map[string]bool
	// Tests, when not nil, names the top-level tests whose functions
	// are instrumented in test files: the other tests (Test, Benchmark,
	// Fuzz and Example functions) are left as written, every other
	// function of a test file instrumented. TestMain and init functions
	// always are.
	Tests map[string]bool
	// NoInline compiles the instrumented packages without inlining
	// (-l), unless the user's go test flags set -gcflags: the compile of
	// instrumented code takes half as long, the program computes the
	// same, but what depends on the compiler's choices (allocation
	// counts, and with them when the collector runs and what a
	// sync.Pool hands out) may differ. For the analyses of a test's run
	// (slices, flows), not for culprit test, whose outcomes must match
	// the plain run's. The test binary is linked without DWARF
	// (-ldflags=-w) too, unless the user's go test flags set -ldflags.
	NoInline bool
	// ModuleImports also instruments the main module's packages that
	// the tested packages or their tests import (the packages
	// ModuleImports lists, added to Instrument), listed while the
	// tested packages load: a value computed there is followed into
	// them. Loaded is not used then.
	ModuleImports bool
	// Resume runs again, in a test binary of their own, the tests that
	// a panic kept from running: when a test's panic ends its package's
	// test binary (go test runs nothing of the package after it), the
	// package's tests run once more with -skip naming the top-level
	// tests that ended or panicked, until every test has run. Their
	// records go to the same trace directory, one events file per
	// process. Not after -timeout stopped the binary, with -failfast,
	// or with a -skip of the user's that names subtests.
	Resume bool
	// ResumeLimit is how long the resumed runs take at most, together
	// (0: DefaultResumeLimit of the first run). They run tests the
	// plain run never reaches, where a fault may leave one waiting for
	// ever (a panic that left a mutex locked, and a deferred call that
	// takes it): past the limit the test binary is stopped, as by
	// -timeout, and Result.Resumed names the test it was running. A
	// smaller -timeout of the user's applies as given.
	ResumeLimit time.Duration
	// ResumeIdle is how long a resumed run may use no CPU time at all
	// before it is stopped (0: DefaultResumeIdle), where the system
	// tells a process group's CPU time: a test left waiting for ever
	// uses none. Result.Resumed says so.
	ResumeIdle time.Duration
	// Loaded are the packages an earlier Run loaded (its
	// Result.Loaded): when every pattern of Packages and Instrument is
	// an import path among them and the directory and build flags are
	// the same, they are instrumented again without another load (each
	// load is a go list of the packages and their dependencies, with a
	// compile of any package whose export data is not cached).
	Loaded *Loaded
}

// Loaded are packages loaded with their syntax and types, for another
// Run (Config.Loaded) or for the mutants (Mutation.Loaded).
type Loaded struct {
	dir  string
	tags []string
	pkgs []*packages.Package
}

// Packages returns the loaded packages: each tested package's plain,
// test and external test variants, and the packages instrumented with
// them.
func (l *Loaded) Packages() []*packages.Package {
	if l == nil {
		return nil
	}
	return l.pkgs
}

// pick returns the loaded packages whose import path is one of
// patterns, with their external test packages, and false when a
// pattern is not a loaded import path or the load was made elsewhere
// or with other build flags.
func (l *Loaded) pick(dir string, tags, patterns []string) ([]*packages.Package, bool) {
	if l == nil || l.dir != dir || !slices.Equal(l.tags, tags) {
		return nil, false
	}
	want := map[string]bool{}
	for _, p := range patterns {
		want[p] = false
	}
	var out []*packages.Package
	for _, p := range l.pkgs {
		if _, ok := want[strings.TrimSuffix(p.PkgPath, "_test")]; ok && strings.HasSuffix(p.PkgPath, "_test") {
			// An external test package: a fresh load gives it with its
			// package, and the counters' registration needs it (the
			// compiler fails a -cover build of a package without one).
			out = append(out, p)
			continue
		}
		if _, ok := want[p.PkgPath]; ok {
			want[p.PkgPath] = true
			out = append(out, p)
		}
	}
	for _, found := range want {
		if !found {
			return nil, false
		}
	}
	return out, true
}

// DefaultCallLimit is how many calls of one function a test binary records
// before sampling the rest (the calls numbered by powers of two).
const DefaultCallLimit = 10000

// DefaultEventBudget is how many stream events a test binary records
// before every site samples harder (Config.EventBudget): 2^25, above
// the largest trace of the instrumentation corpus's sliced tests
// (yaml.v3's Test, 29.6M events, whose graph takes some 20 s), below
// what a compressor's test records at 10,000 events a site (brotli's
// TestIssue22: 109M events, a 1 GB trace, its graph and flow out of
// time and memory).
const DefaultEventBudget = 1 << 25

// Result describes a run.
type Result struct {
	ExitCode int      // go test's exit status
	TraceDir string   // where the trace is
	Sites    int      // sites instrumented
	Files    int      // files rewritten
	Notes    []string // functions and packages left as written, and why
	MaxRSS   int64    // peak resident set of go test and its children, KiB (0: unknown)

	// Unrecorded names the files whose code records nothing, and why
	// (cgo, assembly): an analysis should say so, never stay silent.
	Unrecorded []string
	// Broken lists the packages whose tests did not build or set up, and
	// BuildErrors the go command's error lines about them: their trace
	// holds nothing of those packages.
	Broken      []string
	BuildErrors []string
	// TimedOut says which test binaries -timeout stopped, and in which
	// tests: their traces end there.
	TimedOut []string
	// Resumed says, per package, which tests panicked and stopped its
	// test binary, after which the tests not yet run ran in another
	// (Config.Resume).
	Resumed []string
	// Loaded are the packages this run loaded, for the next
	// (Config.Loaded).
	Loaded *Loaded
}

// UsageError is an error in what the user asked for, found before running
// anything.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

func usageErrorf(format string, args ...any) error {
	return &UsageError{fmt.Errorf(format, args...)}
}

// refusedFlags cannot be combined with instrumentation: go test -cover
// ignores -overlay replacements for the files it covers (go.dev/issue/73802).
var refusedFlags = []string{"cover", "coverprofile", "coverpkg", "covermode"}

// Run instruments the packages and runs their tests. The returned error
// is about culprit's own work; the tests' outcome is in Result.ExitCode.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	b, err := prepare(ctx, &cfg, false)
	if err != nil {
		return nil, err
	}
	defer b.close()
	res := b.res
	scan := newOutputScanner()
	trouble := &troubleScanner{}
	start := time.Now()
	res.ExitCode, res.MaxRSS, _, err = b.goTest(ctx, cfg, cfg.Packages, cfg.GoFlags, scan, trouble, 0)
	if err != nil {
		return nil, err
	}
	trouble.report(res)
	if cfg.Resume && res.ExitCode != 0 && ctx.Err() == nil {
		limit := cfg.ResumeLimit
		if limit <= 0 {
			limit = DefaultResumeLimit(time.Since(start))
		}
		if err := b.resume(ctx, cfg, limit, scan, trouble); err != nil {
			return nil, err
		}
	}
	if err := settleExamples(res.TraceDir, scan); err != nil {
		res.Notes = append(res.Notes, err.Error())
	}
	return res, nil
}

// prepared is an instrumented build ready for the go command: the
// overlay, the runtime module, the site table written.
type prepared struct {
	res     *Result
	work    string   // the temporary directory
	keep    bool     // keep it
	overlay string   // the -overlay file
	gcflags []string // culprit's -gcflags, merged with the user's, and -ldflags
	dir     string   // where to run the go command
	env     []string
	main    *packages.Package // the program's main package (program builds)
}

func (b *prepared) close() {
	if !b.keep {
		os.RemoveAll(b.work)
	}
}

// prepare loads and rewrites the packages of cfg and writes the overlay,
// the runtime module and the site table. For a program (RunProgram) it
// loads no tests, wants one main package and adds the hook that makes
// the program's run a named run of the trace.
func prepare(ctx context.Context, cfgp *Config, program bool) (_ *prepared, err error) {
	cfg := *cfgp
	defer func() { *cfgp = cfg }()
	if cfg.Stdout == nil {
		cfg.Stdout = os.Stdout
	}
	if cfg.Stderr == nil {
		cfg.Stderr = os.Stderr
	}
	if cfg.Events == 0 {
		cfg.Events = trace.EventStmt
	}
	if len(cfg.Packages) == 0 {
		cfg.Packages = []string{"."}
	}
	dir := cfg.Dir
	if dir == "" {
		d, err := os.Getwd()
		if err != nil {
			return nil, fmt.Errorf("instrument: %w", err)
		}
		dir = d
	}
	for _, f := range cfg.GoFlags {
		name := strings.TrimLeft(f, "-")
		if i := strings.IndexByte(name, '='); i >= 0 {
			name = name[:i]
		}
		if f == "--" || f == "-args" || f == "--args" {
			break
		}
		for _, r := range refusedFlags {
			if strings.HasPrefix(f, "-") && name == r {
				return nil, usageErrorf("-%s cannot be combined with culprit test: go test ignores -overlay for covered files (go.dev/issue/73802); culprit's statement events record coverage per test", r)
			}
		}
	}

	env := cfg.Env
	if env == nil {
		env = os.Environ()
	}
	tags := buildFlags(cfg.GoFlags)
	load := &packages.Config{
		Context: ctx,
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedSyntax |
			packages.NeedTypes | packages.NeedTypesInfo | packages.NeedModule,
		Dir:        dir,
		Env:        env,
		Tests:      !program,
		BuildFlags: tags,
	}
	targets, reused := cfg.Loaded.pick(dir, tags, cfg.Packages)
	var more []*packages.Package
	if reused && len(cfg.Instrument) > 0 {
		more, reused = cfg.Loaded.pick(dir, tags, cfg.Instrument)
	}
	if !reused || program || cfg.ModuleImports {
		// The tested packages with their tests, and beside them the
		// other packages to instrument without theirs: their test files
		// are not built, and loading them would compile each package's
		// test variant for its export data. The module's packages the
		// tests import are listed (a go list without types) while the
		// tested packages load, then loaded.
		targets, more = nil, nil
		var moreErr, listErr error
		var wg sync.WaitGroup
		extra := cfg.Instrument
		if len(extra) > 0 || cfg.ModuleImports {
			plain := *load
			plain.Tests = false
			wg.Add(1)
			go func() {
				defer wg.Done()
				if cfg.ModuleImports {
					listed, err := imports(ctx, Config{Dir: dir, Env: env, GoFlags: cfg.GoFlags, Packages: cfg.Packages}, true)
					if err != nil {
						listErr = err // says it could not load
						return
					}
					extra = append(slices.Clip(extra), listed...)
				}
				if len(extra) > 0 {
					more, moreErr = packages.Load(&plain, extra...)
				}
			}()
		}
		targets, err = packages.Load(load, cfg.Packages...)
		wg.Wait()
		cfg.Instrument = extra
		if err == nil && listErr != nil {
			return nil, listErr
		}
		if err == nil {
			err = moreErr
		}
		if err != nil {
			return nil, fmt.Errorf("load packages: %w", err)
		}
	}
	if len(targets) == 0 {
		return nil, usageErrorf("no packages match %s", strings.Join(cfg.Packages, " "))
	}
	for _, p := range targets {
		// A pattern that names nothing comes back as a package without
		// files or module, carrying the reason.
		if p.Module == nil && len(p.GoFiles) == 0 && len(p.Errors) > 0 {
			msg := p.Errors[0].Msg
			if !strings.Contains(msg, p.ID) {
				msg = p.ID + ": " + msg
			}
			return nil, usageErrorf("%s", msg)
		}
	}
	var mainPkg *packages.Package
	if program {
		if mainPkg, err = programPackage(targets, cfg.Packages); err != nil {
			return nil, err
		}
	}
	all := append(append([]*packages.Package(nil), targets...), more...)

	var mod *packages.Module
	for _, p := range targets {
		if p.Module != nil && p.Module.Main {
			mod = p.Module
			break
		}
	}
	if mod == nil || mod.GoMod == "" {
		return nil, usageErrorf("culprit test needs a module: no main module for %s", strings.Join(cfg.Packages, " "))
	}
	// The runtime package is a module of its own, required and replaced
	// by a directory in the overlay's go.mod; in vendor mode the go
	// command would want it in vendor/modules.txt, which it reads past the
	// overlay, so there it is a package of the main module instead.
	rtImport := rtPath
	if vendorMode(mod, cfg.GoFlags, env) {
		rtImport = mod.Path + "/" + rtVendorDir
	}
	res := &Result{TraceDir: cfg.TraceDir}
	if !program {
		res.Loaded = &Loaded{dir: dir, tags: tags, pkgs: all}
	}
	if res.TraceDir == "" {
		res.TraceDir = filepath.Join(mod.Dir, ".culprit")
	} else if !filepath.IsAbs(res.TraceDir) {
		res.TraceDir = filepath.Join(dir, res.TraceDir)
	}
	if err := prepareTraceDir(res.TraceDir, cfg.TraceDir == ""); err != nil {
		return nil, err
	}
	only := filepath.Join(res.TraceDir, trace.OnlyFile)
	if cfg.OnlyRelated && cfg.SampleTest != "" {
		if err := writeFile(only, []byte(cfg.SampleTest)); err != nil {
			return nil, err
		}
	} else if err := os.Remove(only); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("trace directory: %w", err)
	}

	work, err := os.MkdirTemp("", "culprit-test-")
	if err != nil {
		return nil, fmt.Errorf("instrument: %w", err)
	}
	if !cfg.KeepWork {
		defer func() {
			if err != nil {
				os.RemoveAll(work)
			}
		}()
	}
	env, err = withGoTmpDir(env, work)
	if err != nil {
		return nil, fmt.Errorf("instrument: %w", err)
	}
	overlay := map[string]string{}
	sites := &siteTable{}
	race := hasFlag(cfg.GoFlags, "race")
	// Files are rewritten package by package (the package as compiled: a
	// package with its internal test files, or an external test package),
	// so that each package's sites have consecutive IDs and one counter
	// array.
	type job struct {
		key  string // the compiled package
		p    *packages.Package
		f    *ast.File
		path string
		test bool
	}
	var jobs []job
	done := map[string]bool{}
	unseen := map[string]bool{} // files named in Unrecorded
	for _, p := range all {
		if strings.HasSuffix(p.ID, ".test") || p.Module == nil || !p.Module.Main {
			continue
		}
		if len(p.Errors) > 0 || p.TypesInfo == nil {
			// go test will report the errors itself, with the user's positions.
			res.Notes = append(res.Notes, fmt.Sprintf("%s: not instrumented: it does not compile", p.PkgPath))
			continue
		}
		if usesCgo(p) {
			note := fmt.Sprintf("%s: not instrumented: it uses cgo", p.PkgPath)
			res.Notes = append(res.Notes, note)
			res.Unrecorded = append(res.Unrecorded, note)
			continue
		}
		res.Unrecorded = append(res.Unrecorded, unrecorded(p, mod.Dir, unseen)...)
		for i, f := range p.Syntax {
			if i >= len(p.CompiledGoFiles) {
				break
			}
			path := p.CompiledGoFiles[i]
			if done[path] || !strings.HasSuffix(path, ".go") {
				continue
			}
			done[path] = true
			jobs = append(jobs, job{p.PkgPath, p, f, path, strings.HasSuffix(path, "_test.go")})
		}
	}
	sort.SliceStable(jobs, func(i, j int) bool {
		if jobs[i].key != jobs[j].key {
			return jobs[i].key < jobs[j].key
		}
		return !jobs[i].test && jobs[j].test
	})
	toolchain := toolchainMinor(ctx, dir, env)
	n := 0
	// ctrGroup is a compiled package with counters.
	type ctrGroup struct {
		p     *packages.Package
		path  string // its first file
		test  bool   // that file is a test file
		count uint32
		base  uint32
	}
	var groups []ctrGroup
	coverDir, err := stableDir(work, "cover", map[string][]byte{"coveragecfg.json": []byte(coverageConfig)})
	if err != nil {
		return nil, err
	}
	coverCfg := filepath.Join(coverDir, "coveragecfg.json")
	for i := 0; i < len(jobs); {
		j := i
		base := uint32(len(sites.sites))
		used := false
		var rs []*fileRewriter
		for ; j < len(jobs) && jobs[j].key == jobs[i].key; j++ {
			jb := jobs[j]
			src, err := os.ReadFile(jb.path)
			if err != nil {
				return nil, fmt.Errorf("instrument: %w", err)
			}
			tf := jb.p.Fset.File(jb.f.Pos())
			if tf == nil || tf.Size() != len(src) {
				res.Notes = append(res.Notes, fmt.Sprintf("%s: not instrumented: changed while loading", jb.path))
				continue
			}
			rs = append(rs, &fileRewriter{fset: jb.p.Fset, info: jb.p.TypesInfo, pkg: jb.p.Types, file: jb.f, tokFile: tf, src: src,
				path: jb.path, events: cfg.Events, isTest: jb.test, sites: sites, ctrBase: base, race: race, inlined: cfg.Inlinable,
				noInline: cfg.NoInline && !hasGcflags(cfg.GoFlags), toolchain: toolchain, rtImport: rtImport, funcs: cfg.Funcs, tests: cfg.Tests})
		}
		clones := cloneSet(rs)
		for _, r := range rs {
			r.clones = clones
			out := r.rewrite()
			res.Notes = append(res.Notes, r.notes...)
			if out == nil {
				continue
			}
			used = true
			n++
			dst := filepath.Join(work, "src", fmt.Sprintf("%d_%s", n, filepath.Base(r.path)))
			if err := writeFile(dst, out); err != nil {
				return nil, err
			}
			overlay[r.path] = dst
		}
		count := uint32(len(sites.sites)) - base
		if used && count > 0 && cfg.Events&(trace.EventStmt|trace.EventBranch) != 0 {
			groups = append(groups, ctrGroup{jobs[i].p, jobs[i].path, jobs[i].test, count, base})
		}
		i = j
	}
	// Each package with counters gets its array in a file of its own.
	// The coverage configuration goes to the package, and cmd/go gives it
	// to its external test package and its test binary's main package
	// too: all of them need a package initializer (the compiler fails
	// without one: "no init func for -cover build"), so an external test
	// package without counters gets an empty registration, and so does
	// the package itself when only its external tests have counters
	// (testify's assert/internal/unsafetests: a doc.go and the tests).
	var gcflags []string
	flagged := map[string]bool{}
	for _, g := range groups {
		flagged[strings.TrimSuffix(g.p.PkgPath, "_test")] = true
	}
	have := map[string]bool{}
	for _, g := range groups {
		have[g.p.PkgPath] = true
	}
	for _, p := range all {
		base := strings.TrimSuffix(p.PkgPath, "_test")
		if !flagged[base] || have[p.PkgPath] || len(p.CompiledGoFiles) == 0 {
			continue
		}
		have[p.PkgPath] = true
		groups = append(groups, ctrGroup{p, p.CompiledGoFiles[0], strings.HasSuffix(p.PkgPath, "_test"), 0, 0})
	}
	for i, g := range groups {
		name := "zz_culprit_ctr.go"
		if g.test {
			name = "zz_culprit_ctr_test.go"
		}
		if strings.HasSuffix(g.p.Name, "_test") {
			name = "zz_culprit_ctrx_test.go"
		}
		var b bytes.Buffer
		fmt.Fprintf(&b, "package %s\n\nimport %s %q\n\n", g.p.Name, rtName, rtImport)
		if g.count > 0 {
			fmt.Fprintf(&b, "var %s [%d]%s.Ctr\n\nvar _ = %s.Counters(%s[:], %d)\n", ctrName, g.count, rtName, rtName, ctrName, g.base)
		} else {
			fmt.Fprintf(&b, "var _ = %s.Counters(nil, 0)\n", rtName)
		}
		gen := filepath.Join(work, "src", fmt.Sprintf("ctr_%d_%s", i, name))
		if err := writeFile(gen, b.Bytes()); err != nil {
			return nil, err
		}
		overlay[filepath.Join(filepath.Dir(g.path), name)] = gen
		if base := strings.TrimSuffix(g.p.PkgPath, "_test"); flagged[base] {
			gcflags = append(gcflags, "-gcflags="+base+"=-coveragecfg="+coverCfg)
			flagged[base] = false
		}
	}
	res.Files = n
	res.Sites = len(sites.sites)

	// A file in each tested package's directory names the package for the
	// events file and adds a TestMain that writes the trace, when the
	// package has tests and no TestMain of its own.
	for _, p := range targets {
		base := strings.TrimSuffix(p.PkgPath, "_test")
		if p.ID != p.PkgPath+" ["+base+".test]" || p.Module == nil || !p.Module.Main {
			continue
		}
		if strings.HasSuffix(p.Name, "_test") && hasVariant(targets, p) {
			continue // the package's internal test variant carries the file
		}
		if len(p.CompiledGoFiles) == 0 {
			continue
		}
		pdir := filepath.Dir(p.CompiledGoFiles[0])
		dst := filepath.Join(pdir, "zz_culprit_main_test.go")
		if _, ok := overlay[dst]; ok {
			continue
		}
		var b bytes.Buffer
		fmt.Fprintf(&b, "package %s\n\nimport %s %q\n\n", p.Name, rtName, rtImport)
		fmt.Fprintf(&b, "func init() { %s.Package(%q) }\n", rtName, strings.TrimSuffix(p.PkgPath, "_test"))
		if !hasTestMain(targets, p) {
			fmt.Fprintf(&b, "\nfunc TestMain(m *%s) { %s.Main(m) }\n", "testing.M", rtName)
			b = *bytes.NewBuffer(bytes.Replace(b.Bytes(), []byte("import "), []byte("import \"testing\"\nimport "), 1))
		}
		gen := filepath.Join(work, "src", "main_"+fmt.Sprint(len(overlay))+"_test.go")
		if err := writeFile(gen, b.Bytes()); err != nil {
			return nil, err
		}
		overlay[dst] = gen
	}

	// The runtime package, as a module of its own replaced by a directory.
	limit := cfg.CallLimit
	switch {
	case limit == 0:
		limit = DefaultCallLimit
	case limit < 0:
		limit = 0
	}
	budget := cfg.EventBudget
	switch {
	case limit == 0 || budget < 0:
		budget = 0
	case budget == 0:
		budget = DefaultEventBudget
	}
	// The packages instrumented compile without inlining: culprit's
	// -gcflags (the coverage configuration's) get -l.
	noInline := cfg.NoInline && !hasGcflags(cfg.GoFlags) && len(gcflags) > 0
	rtDir, err := writeRT(work, rtConfig{
		traceDir: res.TraceDir, sites: len(sites.sites), callLimit: limit, budget: budget,
		perTest: cfg.SamplePerTest, test: cfg.SampleTest, only: cfg.OnlyRelated && cfg.SampleTest != "",
		race: race, noInline: noInline,
	})
	if err != nil {
		return nil, err
	}
	if len(gcflags) > 0 {
		// coverCfg is stableDir's, shared by every run: never written
		// again in place (a compile of another run reading it while it
		// is truncated fails: "error reading -coveragecfg file").
		if noInline {
			for i, f := range gcflags {
				pat, rest, _ := strings.Cut(strings.TrimPrefix(f, "-gcflags="), "=")
				gcflags[i] = "-gcflags=" + pat + "=-l " + rest
			}
		}
		gcflags = mergeGcflags(cfg.GoFlags, gcflags)
	}
	if cfg.NoInline && !hasFlag(cfg.GoFlags, "ldflags") {
		// No debugger reads the test binary of an analysis: linked
		// without DWARF, its link takes some 40% less time (uuid's:
		// 0.70 -> 0.40 s).
		gcflags = append(gcflags, "-ldflags=-w")
	}
	if rtImport != rtPath {
		if err := vendoredRT(overlay, work, mod.Dir, rtDir); err != nil {
			return nil, err
		}
	} else {
		gomod, err := os.ReadFile(mod.GoMod)
		if err != nil {
			return nil, fmt.Errorf("instrument: %w", err)
		}
		gomod = append(gomod, fmt.Sprintf("\nrequire %s v0.0.0\n\nreplace %s => %s\n", rtPath, rtPath, rtDir)...)
		modCopy := filepath.Join(work, "go.mod")
		if err := writeFile(modCopy, gomod); err != nil {
			return nil, err
		}
		overlay[mod.GoMod] = modCopy
	}
	if mainPkg != nil {
		if err := addProgramHook(overlay, work, mainPkg, rtImport); err != nil {
			return nil, err
		}
	}
	ov, err := json.Marshal(map[string]any{"Replace": overlay})
	if err != nil {
		return nil, fmt.Errorf("instrument: %w", err)
	}
	ovPath := filepath.Join(work, "overlay.json")
	if err := writeFile(ovPath, ov); err != nil {
		return nil, err
	}

	// The site table goes first, so that a run cut short leaves a readable
	// trace.
	var st bytes.Buffer
	if err := trace.WriteSites(&st, &trace.Sites{Root: mod.Dir, Events: cfg.Events, Sites: sites.sites}); err != nil {
		return nil, err
	}
	if err := writeFile(filepath.Join(res.TraceDir, trace.SitesFile), st.Bytes()); err != nil {
		return nil, err
	}

	return &prepared{res: res, work: work, keep: cfg.KeepWork, overlay: ovPath, gcflags: gcflags, dir: dir, env: env, main: mainPkg}, nil
}

// rtVendorDir is the directory, below the main module's root, of the
// runtime package in vendor mode: a leading underscore keeps it out of
// ./... patterns.
const rtVendorDir = "_culprit_rt"

// withGoTmpDir returns env with GOTMPDIR in work, unless env sets
// GOTMPDIR: go test builds and links each test binary in a directory
// of its own there, which it removes when it ends, and culprit stops go
// test by killing its process group (a time limit, an interrupt, a
// resumed run that waits for ever), which leaves that directory, tens
// of megabytes, behind. In work, culprit's own temporary directory, it
// goes when culprit's does. The test binaries' own temporary files
// (TMPDIR) stay where the user has them.
func withGoTmpDir(env []string, work string) ([]string, error) {
	for _, kv := range env {
		if strings.HasPrefix(kv, "GOTMPDIR=") {
			return env, nil
		}
	}
	dir := filepath.Join(work, "gotmp")
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, err
	}
	return append(slices.Clip(env), "GOTMPDIR="+dir), nil
}

// vendorMode reports whether the go command builds the main module mod
// in vendor mode: -mod=vendor in the flags or GOFLAGS, or, without a -mod
// flag, a vendor/modules.txt and a go line of go1.14 or later (none means
// go1.16). A workspace's vendor directory is not considered.
func vendorMode(mod *packages.Module, flags, env []string) bool {
	for _, e := range env {
		if v, ok := strings.CutPrefix(e, "GOFLAGS="); ok {
			flags = append(strings.Fields(v), flags...)
		}
	}
	for _, f := range flags {
		if v, ok := strings.CutPrefix(strings.TrimLeft(f, "-"), "mod="); ok && strings.HasPrefix(f, "-") {
			return v == "vendor"
		}
	}
	if _, err := os.Stat(filepath.Join(mod.Dir, "vendor", "modules.txt")); err != nil {
		return false
	}
	v := mod.GoVersion
	if v == "" {
		v = "1.16"
	}
	return goMinor("go"+v) >= 14
}

// vendoredRT puts the runtime package's files, in rtDir, into the main
// module in moduleDir through the overlay, as the package rtVendorDir.
// The go command runs the assembler in the package's directory, so that
// directory is made, empty, and left (it holds nothing, version control
// does not see it, and a second run needs it too). Each Go file gets the
// language version the runtime module declares (go1.18), as it has when
// it is a module of its own: a //go:build line naming a version sets a
// file's version whatever the main module's (from the go1.21 toolchain
// on, which culprit needs anyway).
func vendoredRT(overlay map[string]string, work, moduleDir, rtDir string) error {
	pkgDir := filepath.Join(moduleDir, rtVendorDir)
	if err := os.MkdirAll(pkgDir, 0o755); err != nil {
		return fmt.Errorf("instrument: vendor mode: %w", err)
	}
	entries, err := os.ReadDir(rtDir)
	if err != nil {
		return fmt.Errorf("instrument: %w", err)
	}
	for _, e := range entries {
		name := e.Name()
		switch {
		case strings.HasSuffix(name, ".s"):
			overlay[filepath.Join(pkgDir, name)] = filepath.Join(rtDir, name)
		case strings.HasSuffix(name, ".go"):
			src, err := os.ReadFile(filepath.Join(rtDir, name))
			if err != nil {
				return fmt.Errorf("instrument: %w", err)
			}
			text := string(src)
			if rest, ok := strings.CutPrefix(text, "//go:build "); ok {
				expr, body, _ := strings.Cut(rest, "\n")
				text = "//go:build (" + expr + ") && go1.18\n" + body
			} else {
				text = "//go:build go1.18\n\n" + text
			}
			raised := filepath.Join(work, "rt", name)
			if err := writeFile(raised, []byte(text)); err != nil {
				return err
			}
			overlay[filepath.Join(pkgDir, name)] = raised
		}
	}
	return nil
}

// prepareTraceDir makes sure the trace can be written before anything
// runs, and removes the events of a previous run.
func prepareTraceDir(dir string, ignore bool) error {
	_, statErr := os.Stat(dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return &UsageError{fmt.Errorf("trace directory: %w", err)}
	}
	if ignore && errors.Is(statErr, fs.ErrNotExist) {
		if err := os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("# Written by culprit test: traces are not sources.\n*\n"), 0o644); err != nil {
			return &UsageError{fmt.Errorf("trace directory: %w", err)}
		}
	}
	probe, err := os.CreateTemp(dir, ".probe-")
	if err != nil {
		return &UsageError{fmt.Errorf("trace directory not writable: %w", err)}
	}
	probe.Close()
	os.Remove(probe.Name())
	old, _ := filepath.Glob(filepath.Join(dir, trace.EventsPrefix+"*"))
	budgets, _ := filepath.Glob(filepath.Join(dir, trace.BudgetPrefix+"*"))
	for _, f := range append(old, budgets...) {
		if err := os.Remove(f); err != nil {
			return fmt.Errorf("trace directory: %w", err)
		}
	}
	return nil
}

func writeFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("instrument: %w", err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("instrument: %w", err)
	}
	return nil
}

// rtConfig is the runtime package's configuration for a run (its
// config.go).
type rtConfig struct {
	traceDir         string
	sites, callLimit int
	budget           int
	perTest          bool   // restart sampling as each test starts
	test             string // with perTest, only this test does
	only             bool   // other tests than test record no stream events
	race             bool   // the program runs under -race
	noInline         bool   // the instrumented packages compile with -l
}

// writeRT writes the runtime package's module, configured for this run,
// and returns its directory: a directory named by its content under the
// user's cache directory, so that runs instrumenting the same code build
// the same runtime package at the same path and the go command's build
// cache serves them (work is used when there is no cache directory).
func writeRT(work string, c rtConfig) (string, error) {
	files := map[string][]byte{}
	entries, err := fs.ReadDir(rt.Source, ".")
	if err != nil {
		return "", fmt.Errorf("runtime source: %w", err)
	}
	for _, e := range entries {
		name := e.Name()
		if name == "source.go" || name == "config.go" || strings.HasSuffix(name, "_test.go") {
			continue
		}
		data, err := fs.ReadFile(rt.Source, name)
		if err != nil {
			return "", fmt.Errorf("runtime source: %w", err)
		}
		files[name] = data
	}
	ctr := "uint8"
	if c.race {
		ctr = "uint32"
	}
	files["config.go"] = []byte(fmt.Sprintf("package rt\n\nvar (\n\ttraceDir = %q\n\tnumSites uint32 = %d\n\tmodule = \"test\"\n\tcallLimit uint32 = %d\n\tsamplePerTest = %v\n\tsampleTest = %q\n\tonlyRelated = %v\n\teventBudget uint64 = %d\n)\n\nconst raceMode = %v\n\nconst noInline = %v\n\ntype Ctr = %s\n",
		c.traceDir, c.sites, c.callLimit, c.perTest, c.test, c.only, c.budget, c.race, c.noInline, ctr))
	files["go.mod"] = []byte("module " + rtPath + "\n\ngo 1.18\n")
	return stableDir(work, "rt", files)
}

// toolchainMinor returns the minor version of the go command that will
// build the tests (go1.N -> N), 0 when it cannot tell.
func toolchainMinor(ctx context.Context, dir string, env []string) int {
	cmd := exec.CommandContext(ctx, "go", "env", "GOVERSION")
	cmd.Dir = dir
	cmd.Env = env
	out, err := cmd.Output()
	if err != nil {
		return 0
	}
	return goMinor(strings.TrimSpace(string(out)))
}

// goMinor returns N of a version "go1.N", "go1.N.P", "go1.NrcK" or
// "devel go1.N-...", 0 for anything else.
func goMinor(v string) int {
	if i := strings.Index(v, "go1."); i >= 0 {
		v = v[i+len("go1."):]
		end := 0
		for end < len(v) && v[end] >= '0' && v[end] <= '9' {
			end++
		}
		if n, err := strconv.Atoi(v[:end]); err == nil {
			return n
		}
	}
	return 0
}

// unrecorded names the files of p whose code culprit cannot record:
// cgo files (go builds them from generated code, not from the overlay)
// and assembly, with the functions declared without a Go body. Paths are
// relative to the module root; seen keeps each file to one note.
func unrecorded(p *packages.Package, root string, seen map[string]bool) []string {
	rel := func(path string) string {
		if r, err := filepath.Rel(root, path); err == nil && !strings.HasPrefix(r, "..") {
			return r
		}
		return path
	}
	compiled := map[string]bool{}
	for _, f := range p.CompiledGoFiles {
		compiled[f] = true
	}
	var notes []string
	for _, f := range p.GoFiles {
		if compiled[f] || seen[f] {
			continue
		}
		seen[f] = true
		notes = append(notes, fmt.Sprintf("%s: not recorded: it uses cgo (go compiles the code cgo generates from it)", rel(f)))
	}
	var asm, asmPaths []string
	for _, f := range p.OtherFiles {
		if (strings.HasSuffix(f, ".s") || strings.HasSuffix(f, ".S")) && !seen[f] {
			seen[f] = true
			asm, asmPaths = append(asm, rel(f)), append(asmPaths, f)
		}
	}
	if len(asm) > 0 {
		var bodiless []string
		for _, f := range p.Syntax {
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Body == nil {
					bodiless = append(bodiless, funcName(p.Types, fd)[len(p.PkgPath)+1:])
				}
			}
		}
		sort.Strings(bodiless)
		for i, f := range asm {
			// Each file names the functions it defines (TEXT ·name);
			// a file whose symbols cannot be read names them all.
			names := bodiless
			if text, err := os.ReadFile(asmPaths[i]); err == nil {
				defined := asmFuncs(text)
				names = nil
				for _, n := range bodiless {
					if defined[n] {
						names = append(names, n)
					}
				}
			}
			why := "assembly"
			if len(names) > 0 {
				if len(names) > 8 {
					names = append(names[:8:8], fmt.Sprintf("and %d more", len(names)-8))
				}
				why += " (functions without a Go body record no entry, exit or statement: " + strings.Join(names, ", ") + ")"
			}
			notes = append(notes, fmt.Sprintf("%s: not recorded: %s", f, why))
		}
	}
	return notes
}

// asmFuncs returns the names of the functions an assembly file defines
// in its package: "name" of each "TEXT ·name(SB)" (an ABI suffix,
// "·name<ABIInternal>", dropped).
func asmFuncs(src []byte) map[string]bool {
	out := map[string]bool{}
	for _, line := range strings.Split(string(src), "\n") {
		rest, ok := strings.CutPrefix(strings.TrimSpace(line), "TEXT")
		if !ok {
			continue
		}
		_, sym, ok := strings.Cut(rest, "\u00b7")
		if !ok {
			continue
		}
		if i := strings.IndexAny(sym, "(<"); i >= 0 {
			out[sym[:i]] = true
		}
	}
	return out
}

func usesCgo(p *packages.Package) bool {
	for _, f := range p.Syntax {
		for _, imp := range f.Imports {
			if imp.Path.Value == `"C"` {
				return true
			}
		}
	}
	return false
}

func hasVariant(pkgs []*packages.Package, xtest *packages.Package) bool {
	want := strings.TrimSuffix(xtest.PkgPath, "_test") + " [" + strings.TrimSuffix(xtest.PkgPath, "_test") + ".test]"
	for _, p := range pkgs {
		if p.ID == want {
			return true
		}
	}
	return false
}

// hasTestMain reports whether the test binary of p's package has a
// TestMain in its internal or external test files.
func hasTestMain(pkgs []*packages.Package, p *packages.Package) bool {
	base := strings.TrimSuffix(p.PkgPath, "_test")
	for _, q := range pkgs {
		if !strings.HasSuffix(q.ID, "["+base+".test]") {
			continue
		}
		for _, f := range q.Syntax {
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "TestMain" {
					return true
				}
			}
		}
	}
	return false
}

// buildFlags picks from go test flags those that change which files
// packages have.
func buildFlags(flags []string) []string {
	var out []string
	for i := 0; i < len(flags); i++ {
		f := flags[i]
		if f == "--" || f == "-args" || f == "--args" {
			break
		}
		name := strings.TrimLeft(f, "-")
		for _, b := range []string{"tags", "race", "msan", "asan", "mod", "modfile"} {
			switch {
			case name == b && (b == "race" || b == "msan" || b == "asan"):
				out = append(out, f)
			case name == b && i+1 < len(flags):
				out = append(out, f, flags[i+1])
				i++
			case strings.HasPrefix(name, b+"="):
				out = append(out, f)
			}
		}
	}
	return out
}

func hasFlag(flags []string, name string) bool {
	for _, f := range flags {
		if f == "--" || f == "-args" || f == "--args" {
			return false
		}
		n := strings.TrimLeft(f, "-")
		if n == name || strings.HasPrefix(n, name+"=") {
			return true
		}
	}
	return false
}

// siteTable collects sites in ID order.
type siteTable struct{ sites []trace.Site }

func (t *siteTable) add(s trace.Site) uint32 {
	t.sites = append(t.sites, s)
	return uint32(len(t.sites) - 1)
}

// coverageConfig tells the compiler (go tool compile -coveragecfg, the
// file cmd/go writes for go test -cover) that the package's variables
// named with ctrName's prefix are coverage counters: stores into them then
// cost nothing in its inlining budget, so instrumented functions are
// inlined as uninstrumented ones are. Counter mode "testmain" registers no
// coverage metadata with the runtime.
const coverageConfig = `{"MetaVar":"","MetaLen":0,"MetaHash":"00000000000000000000000000000000","Strategy":"normal","CounterPrefix":"` + ctrName + `","PkgIdVar":"","CounterMode":"testmain","CounterGranularity":"perblock"}`

// hasGcflags reports whether go test flags set -gcflags.
func hasGcflags(flags []string) bool {
	for _, f := range flags {
		if f == "--" || f == "-args" || f == "--args" {
			break
		}
		if name := strings.TrimLeft(f, "-"); name == "gcflags" || strings.HasPrefix(name, "gcflags=") {
			return true
		}
	}
	return false
}

// mergeGcflags adds the user's own -gcflags arguments (those without a
// package pattern) to culprit's per-package ones, which would otherwise
// replace them for the instrumented packages.
func mergeGcflags(user, ours []string) []string {
	var extra string
	for i := 0; i < len(user); i++ {
		f := user[i]
		if f == "--" || f == "-args" || f == "--args" {
			break
		}
		name := strings.TrimLeft(f, "-")
		var val string
		switch {
		case strings.HasPrefix(name, "gcflags="):
			val = name[len("gcflags="):]
		case name == "gcflags" && i+1 < len(user):
			val = user[i+1]
			i++
		default:
			continue
		}
		if pat, args, ok := strings.Cut(val, "="); ok && !strings.HasPrefix(pat, "-") && !strings.Contains(pat, " ") {
			_ = args // a pattern of the user's: ours come later and win for our packages
			continue
		}
		extra = val
	}
	if extra == "" {
		return ours
	}
	out := make([]string, len(ours))
	for i, o := range ours {
		pat, rest, _ := strings.Cut(strings.TrimPrefix(o, "-gcflags="), "=")
		out[i] = "-gcflags=" + pat + "=" + extra + " " + rest
	}
	return out
}

// insertFlags puts extra flags after the user's go test flags, before any
// -args.
func insertFlags(user, extra []string) []string {
	out := make([]string, 0, len(user)+len(extra))
	for i, f := range user {
		if f == "-args" || f == "--args" {
			out = append(out, extra...)
			return append(out, user[i:]...)
		}
		out = append(out, f)
	}
	return append(out, extra...)
}
