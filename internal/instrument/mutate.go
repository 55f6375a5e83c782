package instrument

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"go/ast"

	"golang.org/x/tools/go/packages"
)

// Mutation says which lines to mutate and which tests to run against
// each mutant.
type Mutation struct {
	Dir   string           // where to run the go command ("" is the current directory)
	Lines map[string][]int // absolute file -> lines to mutate, most suspicious files and lines first
	Order []string         // the files of Lines in the order their mutants are run
	// Ranked, when not empty, are the lines of Lines, most suspicious
	// first, across files: their mutants are run in this order (a
	// line's in the order they are made), so that a budget that runs
	// out leaves out the least suspicious lines' mutants.
	Ranked  []FileLine
	Failing map[string][]string
	Passing map[string][]string // package path -> tests ("TestX", "TestX/sub") to run against each mutant
	// Alone names the packages whose failing tests (subtests all) run
	// by their own names, not with their top-level tests' other
	// subtests: for a top-level test far longer than its failing cases
	// (a table of thousands), which every mutant would run.
	Alone map[string]bool
	// Ran, when not nil, holds per failing test ("pkg\x00TestX/sub")
	// the lines of Lines it ran in the instrumented run: a mutant runs
	// the failing tests that ran its line and not the others, whose
	// outcomes are the original's (the mutated code does not run in
	// them). A failing test Ran does not hold, and a line no failing
	// test ran (package initialization runs before any test), run as
	// always.
	Ran     map[string]map[FileLine]bool
	GoFlags []string // the user's go test flags (build tags...)
	Env     []string // nil is os.Environ()
	// Max, when positive, is how many mutants are made and run at most:
	// those of the most suspicious lines (Ranked), a line's mutants all
	// or none, so that what runs does not depend on the machine's speed.
	// The lines left out are counted in MutationResult.Capped.
	Max int
	// Budget bounds the whole step, building included: mutants not run
	// by then are counted in MutationResult.Skipped.
	Budget time.Duration
	Jobs   int // mutants run at once (0: 2)
	// Loaded are packages the caller already loaded with LoadTyped's
	// mode (the diagnosis loads them once for its declarations and the
	// mutants); files of Lines in none of them are loaded here.
	Loaded []*packages.Package
}

// FileLine is a line of an absolute file.
type FileLine struct {
	File string
	Line int
}

// MutantOutcome is what one mutant did to the tests run against it.
type MutantOutcome struct {
	MutantSite
	Failing, Passing int // tests run that failed and passed on the original
	Changed          int // failing tests that passed or failed otherwise (another message or place)
	Fixed            int // failing tests that passed
	Broke            int // passing tests that failed
	// The failing tests' failure reports (each "file.go:N: message" a
	// test printed, with its continuation lines, or its panic), so that
	// a table-driven test's cases count apart: Reports is how many the
	// original printed, Lost how many of those the mutant no longer
	// printed, Added how many more it printed than it lost. Crashed
	// counts the failing tests the mutant made panic or not finish:
	// their reports are not counted as lost.
	Reports, Lost, Added, Crashed int
}

// MutationResult is the mutation step's outcome.
type MutationResult struct {
	Mutants []MutantOutcome // in mutant order
	Skipped int             // mutants left out for the budget
	Capped  int             // lines left unmutated for Max
	Unbuilt int             // lines left unmutated because their mutants did not compile
	Notes   []string
}

// Mutate builds every mutant of the given lines into the tested
// packages' test binaries at once (mutant schemata: one build, each
// mutant enabled by the environment), runs the original and then each
// mutant against the given tests, and compares their outcomes. The
// user's files are never modified: the mutated copies reach the build
// through -overlay.
func Mutate(ctx context.Context, cfg Mutation) (*MutationResult, error) {
	start := time.Now()
	deadline := start.Add(cfg.Budget)
	if cfg.Budget <= 0 {
		deadline = start.Add(time.Hour)
	}
	if cfg.Jobs <= 0 {
		cfg.Jobs = 2
	}
	env := cfg.Env
	if env == nil {
		env = os.Environ()
	}
	dir := cfg.Dir
	if dir == "" {
		d, err := os.Getwd()
		if err != nil {
			return nil, fmt.Errorf("mutate: %w", err)
		}
		dir = d
	}
	work, err := os.MkdirTemp("", "culprit-mutants-")
	if err != nil {
		return nil, fmt.Errorf("mutate: %w", err)
	}
	defer os.RemoveAll(work)
	if env, err = withGoTmpDir(env, work); err != nil {
		return nil, fmt.Errorf("mutate: %w", err)
	}

	pkgs, err := loadFiles(ctx, dir, env, cfg.GoFlags, cfg.Order, cfg.Loaded)
	if err != nil {
		return nil, fmt.Errorf("mutate: load packages: %w", err)
	}
	res := &MutationResult{}
	drop := map[string]map[int]bool{} // lines whose mutants did not compile
	capped := map[string]map[int]bool{}
	var sites []MutantSite
	var tests []string // package paths to test
	for p := range cfg.Failing {
		tests = append(tests, p)
	}
	sort.Strings(tests)
	var bins map[string]string
	// The mutants are made again after the cap leaves lines out, and
	// after a build, up to three times, without the lines whose mutants
	// did not compile.
	for failed := 0; ; {
		overlay := map[string]string{}
		mutated := map[string]bool{} // import paths of the mutated files' packages
		sites = sites[:0]
		next := 0
		for _, file := range cfg.Order {
			p, f := fileOf(pkgs, file)
			if f == nil || len(p.Errors) > 0 {
				continue
			}
			src, err := os.ReadFile(file)
			if err != nil {
				return nil, fmt.Errorf("mutate: %w", err)
			}
			lines := map[int]bool{}
			for _, l := range cfg.Lines[file] {
				if !drop[file][l] && !capped[file][l] {
					lines[l] = true
				}
			}
			m := &mutator{fset: p.Fset, info: p.TypesInfo, pkg: p.Types, file: f, tok: p.Fset.File(f.Pos()), src: src, path: file, lines: lines, next: &next}
			m.mutate()
			if len(m.sites) == 0 {
				continue
			}
			sites = append(sites, m.sites...)
			dst := filepath.Join(work, "src", fmt.Sprintf("%d_%s", len(overlay), filepath.Base(file)))
			if err := writeFile(dst, m.apply()); err != nil {
				return nil, err
			}
			overlay[file] = dst
			mutated[p.PkgPath] = true
			support := filepath.Join(filepath.Dir(file), "zz_culprit_mutant.go")
			if _, ok := overlay[support]; !ok {
				gen := filepath.Join(work, "src", fmt.Sprintf("support_%d.go", len(overlay)))
				if err := writeFile(gen, mutantSupport(p.Name)); err != nil {
					return nil, err
				}
				overlay[support] = gen
			}
		}
		if len(sites) == 0 {
			res.Notes = append(res.Notes, "no mutant could be made of the chosen lines")
			return res, nil
		}
		if cfg.Max > 0 && len(sites) > cfg.Max {
			// Over the cap: the least suspicious lines are left
			// unmutated, and the rest made again (numbered from 1).
			if n := capLines(sites, cfg.Ranked, cfg.Max, capped); n > 0 {
				res.Capped += n
				continue
			}
		}
		bins, err = buildMutants(ctx, dir, env, work, overlay, tests, append(buildFlags(cfg.GoFlags), mutantFlags(mutated)...))
		if err == nil {
			break
		}
		var be *mutantBuildError
		if !errors.As(err, &be) || failed == 3 || len(be.lines) == 0 {
			return nil, err
		}
		failed++
		res.Notes = append(res.Notes, "mutants left out where they did not compile: "+firstLines(be.out, 3))
		for _, l := range be.lines {
			if drop[l.File] == nil {
				drop[l.File] = map[int]bool{}
			}
			drop[l.File][l.Line] = true
		}
	}
	for _, lines := range drop {
		res.Unbuilt += len(lines)
	}
	if res.Unbuilt > 0 {
		res.Notes = append(res.Notes, fmt.Sprintf("%d lines left unmutated: their mutants did not compile", res.Unbuilt))
	}
	if res.Capped > 0 {
		res.Notes = append(res.Notes, fmt.Sprintf("%d less suspicious lines left unmutated: at most %d mutants are run", res.Capped, cfg.Max))
	}

	// The test binaries share the cores among the jobs (runEnv).
	renv := runEnv(env, cfg.Jobs)

	// The original's outcomes, then each mutant's, each run bounded by a
	// multiple of the original's time (a mutant can loop forever). The
	// tests run in two parts: the failing tests (with their top-level
	// tests' other subtests), then the passing tests of other top-level
	// tests, only for a mutant that changed the failure: one that did
	// not scores nothing whatever it breaks (mutantScore, a fix is a
	// change), so its passing tests' outcomes would change no score.
	type parts struct {
		failing, passing []string // the tests each part runs
		// alone: the failing tests without their top-level tests' other
		// subtests, the passing ones of those among them (run by name,
		// as the top-level tests no longer run whole).
		alone bool
		base  map[string]testResult
		cpu   [2]time.Duration // each part's CPU limit
		idle  [2]time.Duration // each part's idle limit
	}
	split := map[string]*parts{}
	var t0 time.Time
	runBase := func() (failed bool) {
		t0, failed = time.Now(), true
		for _, pkg := range tests {
			pt := &parts{failing: cfg.Failing[pkg], passing: otherTops(cfg.Passing[pkg], cfg.Failing[pkg]), alone: cfg.Alone[pkg]}
			if pt.alone {
				pt.failing = append(slices.Clip(pt.failing), siblings(cfg.Passing[pkg], cfg.Failing[pkg])...)
			}
			split[pkg] = pt
			out, cpu, wall, _ := runMutant(ctx, bins[pkg], dir, renv, 0, pt.failing, pt.alone, runLimits{wall: time.Until(deadline)})
			pt.base, pt.cpu[0], pt.idle[0] = out, limitOf(cpu), idleOf(wall)
			for _, t := range cfg.Failing[pkg] {
				failed = failed && out[t].outcome == "fail"
			}
			if len(pt.passing) > 0 {
				out, cpu, wall, _ := runMutant(ctx, bins[pkg], dir, renv, 0, pt.passing, false, runLimits{wall: time.Until(deadline)})
				maps.Copy(pt.base, out)
				pt.cpu[1], pt.idle[1] = limitOf(cpu), idleOf(wall)
			}
		}
		return failed
	}
	if !runBase() && len(renv) > len(env) {
		// A failing test did not fail on fewer cores (a race, a
		// deadline): the binaries run as the tests did.
		renv = env
		runBase()
	}
	// (A mutant that does not finish a part within five times the
	// original's whole run and half a second, at least a second, counts
	// as a crash, and so does one that uses three times the part's CPU
	// time on the original and cpuSlack: a mutant looping forever is cut
	// as soon as it has used that, however loaded the machine, not after
	// a second of its wall time; and so does one that uses no CPU time
	// for twice the part's wall time on the original (the failing part's
	// or the passing part's, the longer) and idleSlack: a
	// mutant that leaves a test waiting for ever, as gorilla/websocket's
	// clients wait for an answer from a mutated server, is cut then.)
	timeout := 5*time.Since(t0) + time.Second/2
	// A mutant's change is measured against the failing tests failing
	// on the original: when every one passed here, no mutant can say
	// anything (hcl v2.9.0's TestIndex keeps its cases in a map, and
	// which one fails depends on the order they run in).
	var passed []string
	for _, pkg := range tests {
		for _, t := range cfg.Failing[pkg] {
			if split[pkg].base[t].outcome == "pass" {
				passed = append(passed, t)
			}
		}
	}
	if n := 0; ctx.Err() == nil && len(passed) > 0 {
		for _, pkg := range tests {
			n += len(cfg.Failing[pkg])
		}
		if len(passed) == n {
			res.Skipped = len(sites)
			res.Notes = append(res.Notes, fmt.Sprintf("mutants left out: %s passed when run again (the failure depends on the order the tests run in, or on chance)", strings.Join(passed, ", ")))
			return res, nil
		}
	}
	// The original's failing tests twice more: a test whose reports
	// change from run to run would otherwise make any mutant read as
	// changing the failure, or not, by chance (mapstructure's "bad
	// unused" lists a map's keys in random order).
	for _, pkg := range tests {
		pt := split[pkg]
		for range 2 {
			again, cpu, wall, _ := runMutant(ctx, bins[pkg], dir, renv, 0, pt.failing, pt.alone, runLimits{wall: time.Until(deadline)})
			markUnstable(pt.base, again, cfg.Failing[pkg])
			pt.cpu[0] = max(pt.cpu[0], limitOf(cpu)) // the most of three runs
			pt.idle[0] = max(pt.idle[0], idleOf(wall))
		}
		withWords(pt.base, cfg.Failing[pkg])
	}
	reached := map[FileLine]bool{} // lines some failing test ran
	for _, lines := range cfg.Ran {
		for l := range lines {
			reached[l] = true
		}
	}
	results := make([]MutantOutcome, len(sites))
	ran := make([]bool, len(sites))
	var mu sync.Mutex
	work2 := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < cfg.Jobs; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work2 {
				id := sites[i].ID
				got := map[string]map[string]testResult{}
				var first MutantOutcome
				at := FileLine{sites[i].File, sites[i].Line}
				for _, pkg := range tests {
					pt := split[pkg]
					run, left := reaching(cfg.Ran, reached[at], pkg, pt.failing, cfg.Failing[pkg], at)
					if len(run) > 0 {
						// Its idle limit is the passing part's too, where
						// longer: a mutant that fixes a failing test runs
						// a path its failing run never waited on, as the
						// passing tests do (a sleep after the check that
						// failed).
						got[pkg], _, _, _ = runMutant(ctx, bins[pkg], dir, renv, id, run, pt.alone, runLimits{timeout, pt.cpu[0], max(pt.idle[0], pt.idle[1])})
					} else {
						got[pkg] = map[string]testResult{}
					}
					for _, t := range left {
						for _, name := range family(pt.base, t) {
							if _, ok := got[pkg][name]; !ok {
								got[pkg][name] = pt.base[name]
							}
						}
					}
					compareOutcomes(&first, pt.base, got[pkg], cfg.Failing[pkg], nil)
				}
				// The passing tests (of other top-level tests than the
				// failing ones) change no failing test's comparison.
				o := first
				o.MutantSite = sites[i]
				for _, pkg := range tests {
					pt := split[pkg]
					passing := cfg.Passing[pkg]
					switch {
					case first.Changed == 0:
						passing = nil // not run: they would change no score
					case len(pt.passing) > 0:
						more, _, _, _ := runMutant(ctx, bins[pkg], dir, renv, id, pt.passing, false, runLimits{timeout, pt.cpu[1], pt.idle[1]})
						maps.Copy(got[pkg], more)
					}
					compareOutcomes(&o, pt.base, got[pkg], nil, passing)
				}
				if ctx.Err() != nil {
					continue // cut short: its tests' outcomes are not its own
				}
				mu.Lock()
				results[i], ran[i] = o, true
				mu.Unlock()
			}
		}()
	}
	for _, i := range runOrder(sites, cfg.Ranked) {
		if time.Now().After(deadline) || ctx.Err() != nil {
			break
		}
		work2 <- i
	}
	close(work2)
	wg.Wait()
	for i, o := range results {
		if ran[i] {
			res.Mutants = append(res.Mutants, o)
		} else {
			res.Skipped++
		}
	}
	switch {
	case res.Skipped > 0 && ctx.Err() != nil:
		res.Notes = append(res.Notes, fmt.Sprintf("%d of %d mutants not run: stopped", res.Skipped, len(sites)))
	case res.Skipped > 0:
		res.Notes = append(res.Notes, fmt.Sprintf("%d of %d mutants not run: the mutation budget (%s) ran out", res.Skipped, len(sites), cfg.Budget.Round(time.Second)))
	}
	return res, nil
}

// runEnv is the environment the mutants' test binaries run in: env,
// with GOMAXPROCS the machine's cores shared among the jobs that run
// at once (unless env sets it). A test binary given every core spends
// CPU time on its scheduler's and collector's threads that the other
// jobs wanted: on two cores, snappy's failing tests took 51 ms of CPU a
// run with two jobs of GOMAXPROCS=2 each, 30 ms with GOMAXPROCS=1. The
// original runs as the mutants do, so their outcomes compare alike; where
// a failing test does not fail so (a race, a deadline), every binary runs
// in env as it is.
func runEnv(env []string, jobs int) []string {
	for _, kv := range env {
		if strings.HasPrefix(kv, "GOMAXPROCS=") {
			return env
		}
	}
	return append(slices.Clip(env), fmt.Sprintf("GOMAXPROCS=%d", max(1, runtime.NumCPU()/jobs)))
}

// capLines adds to capped the lines whose mutants come after the first
// max in run order, a line's mutants kept or left out together (the
// first line is kept whatever its count), and returns how many lines it
// added.
func capLines(sites []MutantSite, ranked []FileLine, max int, capped map[string]map[int]bool) int {
	count := map[FileLine]int{}
	for _, s := range sites {
		count[FileLine{s.File, s.Line}]++
	}
	n, added := 0, 0
	seen := map[FileLine]bool{}
	for _, i := range runOrder(sites, ranked) {
		l := FileLine{sites[i].File, sites[i].Line}
		if seen[l] {
			continue
		}
		seen[l] = true
		if added == 0 && (n == 0 || n+count[l] <= max) {
			n += count[l]
			continue
		}
		if capped[l.File] == nil {
			capped[l.File] = map[int]bool{}
		}
		capped[l.File][l.Line] = true
		added++
	}
	return added
}

// otherTops returns the tests of passing whose top-level test is none of
// failing's: those a run of failing's top-level tests does not run.
func otherTops(passing, failing []string) []string {
	tops := map[string]bool{}
	for _, t := range failing {
		top, _, _ := strings.Cut(t, "/")
		tops[top] = true
	}
	var out []string
	for _, t := range passing {
		if top, _, _ := strings.Cut(t, "/"); !tops[top] {
			out = append(out, t)
		}
	}
	return out
}

// siblings are the tests of passing that are subtests of the failing
// tests' top-level tests: otherTops's complement.
func siblings(passing, failing []string) []string {
	other := map[string]bool{}
	for _, t := range otherTops(passing, failing) {
		other[t] = true
	}
	var out []string
	for _, t := range passing {
		if !other[t] {
			out = append(out, t)
		}
	}
	return out
}

// reaching splits part, the tests of a package's failing part, into
// those a mutant at line at runs and the failing tests (of failing) it
// leaves out: those that ran says did not run the line, when some
// failing test ran it (reached). The others run.
func reaching(ran map[string]map[FileLine]bool, reached bool, pkg string, part, failing []string, at FileLine) (run, left []string) {
	if !reached {
		return part, nil
	}
	isFailing := map[string]bool{}
	for _, t := range failing {
		isFailing[t] = true
	}
	for _, t := range part {
		lines, known := ran[pkg+"\x00"+t]
		if isFailing[t] && known && !lines[at] {
			left = append(left, t)
		} else {
			run = append(run, t)
		}
	}
	return run, left
}

// limitOf is the CPU time a mutant may use in a part of the tests that
// took cpu on the original (0: not known, no limit).
func limitOf(cpu time.Duration) time.Duration {
	if cpu <= 0 {
		return 0
	}
	return 3*cpu + cpuSlack
}

// runOrder returns the indexes of sites in the order their mutants are
// run: by their line's place in ranked (lines not in it last), a line's
// mutants in the order they were made; without ranked, as made.
func runOrder(sites []MutantSite, ranked []FileLine) []int {
	order := make([]int, len(sites))
	for i := range order {
		order[i] = i
	}
	if len(ranked) == 0 {
		return order
	}
	place := map[FileLine]int{}
	for i, l := range ranked {
		if _, ok := place[l]; !ok {
			place[l] = i
		}
	}
	at := func(i int) int {
		if p, ok := place[FileLine{sites[i].File, sites[i].Line}]; ok {
			return p
		}
		return len(ranked)
	}
	sort.SliceStable(order, func(a, b int) bool { return at(order[a]) < at(order[b]) })
	return order
}

// LoadTyped loads the packages of patterns, in dir, with their syntax
// and types, as the go command would build them with the user's go test
// flags (build tags): what the diagnosis reads package-level
// declarations from.
func LoadTyped(ctx context.Context, dir string, patterns, goFlags []string) ([]*packages.Package, error) {
	pkgs, err := packages.Load(&packages.Config{Context: ctx, Dir: dir, BuildFlags: buildFlags(goFlags), Mode: typedMode}, patterns...)
	if err != nil {
		return nil, fmt.Errorf("load packages: %w", err)
	}
	return pkgs, nil
}

// typedMode is what LoadTyped and the mutants load: syntax and types.
const typedMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo

// loadFiles returns loaded with the packages of the files it does not
// hold added: one go list of the files' directories (a "file=" query
// costs one go list per file), then "file=" queries for any file the
// directories did not yield (a directory outside the main module).
func loadFiles(ctx context.Context, dir string, env, goFlags, files []string, loaded []*packages.Package) ([]*packages.Package, error) {
	pkgs := append([]*packages.Package(nil), loaded...)
	missing := func() []string {
		var out []string
		for _, f := range files {
			if _, syn := fileOf(pkgs, f); syn == nil {
				out = append(out, f)
			}
		}
		return out
	}
	load := func(patterns []string) error {
		more, err := packages.Load(&packages.Config{Context: ctx, Dir: dir, Env: env, BuildFlags: buildFlags(goFlags), Mode: typedMode}, patterns...)
		pkgs = append(pkgs, more...)
		return err
	}
	var dirs []string
	seen := map[string]bool{}
	for _, f := range missing() {
		if d := filepath.Dir(f); !seen[d] {
			seen[d] = true
			dirs = append(dirs, d)
		}
	}
	if len(dirs) == 0 {
		return pkgs, nil
	}
	if err := load(dirs); err != nil {
		return nil, err
	}
	var patterns []string
	for _, f := range missing() {
		patterns = append(patterns, "file="+f)
	}
	if len(patterns) > 0 {
		if err := load(patterns); err != nil {
			return nil, err
		}
	}
	return pkgs, nil
}

// fileOf finds the package and syntax tree of an absolute file.
func fileOf(pkgs []*packages.Package, file string) (*packages.Package, *ast.File) {
	for _, p := range pkgs {
		for i, f := range p.CompiledGoFiles {
			if f == file && i < len(p.Syntax) {
				return p, p.Syntax[i]
			}
		}
	}
	return nil, nil
}

// jsonOverlay is the -overlay file's content.
func jsonOverlay(replace map[string]string) ([]byte, error) {
	b, err := json.Marshal(map[string]any{"Replace": replace})
	if err != nil {
		return nil, fmt.Errorf("mutate: %w", err)
	}
	return b, nil
}

// mutantBuildError is a build of mutants that did not compile, with the
// mutated lines the compiler named.
type mutantBuildError struct {
	out   string
	lines []FileLine
}

func (e *mutantBuildError) Error() string { return "mutants do not build: " + firstLines(e.out, 5) }

func firstLines(s string, n int) string {
	ls := strings.Split(strings.TrimSpace(s), "\n")
	if len(ls) > n {
		ls = ls[:n]
	}
	return strings.Join(ls, "; ")
}

var errPosRe = regexp.MustCompile(`(?m)^(?:\./)?([^\s:]+\.go):(\d+)(?::\d+)?: `)

// buildMutants compiles each tested package's test binary with the
// mutated files and the go flags given (the user's build flags, and
// mutantFlags).
func buildMutants(ctx context.Context, dir string, env []string, work string, overlay map[string]string, pkgs, flags []string) (map[string]string, error) {
	ov, err := jsonOverlay(overlay)
	if err != nil {
		return nil, err
	}
	ovPath := filepath.Join(work, "overlay.json")
	if err := writeFile(ovPath, ov); err != nil {
		return nil, err
	}
	bins := map[string]string{}
	for i, pkg := range pkgs {
		bin := filepath.Join(work, "bin", fmt.Sprintf("%d.test", i))
		// No vet: mutants are wrong on purpose, and vet refuses some
		// ("suspect and: x == 'i' && x == 'I'"), losing a build.
		args := append([]string{"test", "-c", "-vet=off", "-o", bin, "-overlay", ovPath}, flags...)
		args = append(args, pkg)
		cmd := exec.CommandContext(ctx, "go", args...)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			be := &mutantBuildError{out: string(out)}
			for _, m := range errPosRe.FindAllStringSubmatch(string(out), -1) {
				n, _ := strconv.Atoi(m[2])
				file := m[1]
				if !filepath.IsAbs(file) {
					file = filepath.Join(dir, file)
				}
				for orig := range overlay {
					if orig == file || strings.HasSuffix(orig, string(filepath.Separator)+m[1]) {
						be.lines = append(be.lines, FileLine{orig, n})
					}
				}
			}
			return nil, be
		}
		bins[pkg] = bin
	}
	return bins, nil
}

// mutantFlags are the go flags that build the mutants' test binaries
// beside the user's build flags: the mutated packages without inlining
// and the binary without DWARF. The schemata wrap every mutated operand
// in a function literal, which the inliner works through at length:
// without it the mutants' build of hcl's hclsyntax took a quarter less
// time (8.8 s to 6.4 s at load 13); and no debugger reads these
// binaries (a link without DWARF takes some 40% less time). The
// original is built as the mutants are. The user's -gcflags and
// -ldflags do not reach the mutants' build (buildFlags).
func mutantFlags(mutated map[string]bool) []string {
	out := []string{"-ldflags=-w"}
	for _, p := range slices.Sorted(maps.Keys(mutated)) {
		out = append(out, "-gcflags="+p+"=-l")
	}
	return out
}
