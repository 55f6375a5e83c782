package changes

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/culprit-go/culprit/reduce"
	"github.com/culprit-go/culprit/reduce/oracle"
)

// Config says what to compare and how to test.
type Config struct {
	Good string // a revision or a directory
	Bad  string // a revision or a directory; "" is the work tree, which must be clean (HEAD)
	// Dir is the current directory: the repository of revisions, and
	// where packages are named from; "" is the process's.
	Dir      string
	Packages []string // go test's packages (default ./...)
	GoFlags  []string // more go test flags
	Jobs     int      // candidates tested in parallel (default 1)
	Timeout  time.Duration
	// Levels are the levels delta debugging goes through (default
	// Levels).
	Levels []Level
	// NoCheck turns off the in-process type check of candidates.
	NoCheck bool
	// NoBisect goes straight to the lines of the whole change GOOD..BAD.
	NoBisect bool
	// Env is added to go test's environment.
	Env     []string
	OnEvent func(Event)
}

// A UsageError is bad input: a revision or directory that does not
// exist, a dirty work tree, a GOOD that fails, a BAD that passes.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

func usagef(format string, args ...any) error {
	return &UsageError{fmt.Errorf(format, args...)}
}

// Errors wrapped by Find's usage errors.
var (
	ErrDirty       = errors.New("the work tree has uncommitted changes")
	ErrGoodFails   = errors.New("GOOD fails")
	ErrBadPasses   = errors.New("BAD passes")
	ErrNoChange    = errors.New("GOOD and BAD have the same files")
	ErrInterrupted = errors.New("interrupted")
)

// A Result is what Find found.
type Result struct {
	Good, Bad Version
	// Commit is the first failing commit, when the versions are
	// revisions and bisection found one; Range lists the commits it may
	// be when skipped commits hide it (then the change is theirs,
	// combined).
	Commit  *Version
	Range   []Version
	Skipped []Version // commits skipped: they do not build or fail otherwise
	// Base is the version the change applies to: GOOD, or the first
	// failing commit's parent.
	Base    Version
	Failure string // the failure reproduced (its signature)
	Command string // the go test command run on each candidate
	Change  *Change
	// Set is the minimal failure-inducing change, and Isolated the part
	// of it that delta debugging isolated (Set holds the context it
	// needs), as atoms of Change.
	Set, Isolated []int
	Stats
}

// Find looks for the failure-inducing change from cfg.Good to cfg.Bad.
// The user's work tree and index are only read.
func Find(ctx context.Context, cfg Config) (*Result, error) {
	start := time.Now()
	if cfg.Dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		cfg.Dir = wd
	}
	if len(cfg.Packages) == 0 {
		cfg.Packages = []string{"./..."}
	}
	if len(cfg.Levels) == 0 {
		cfg.Levels = Levels
	}
	tmp, err := os.MkdirTemp("", "culprit-changes-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)

	sides, err := resolve(cfg)
	if err != nil {
		return nil, err
	}
	res := &Result{Good: sides.good, Bad: sides.bad, Base: sides.good}
	s := &session{jobs: max(cfg.Jobs, 1), onEvent: cfg.OnEvent, start: start, cache: map[string]reduce.Outcome{}, timeout: cfg.Timeout}
	if len(cfg.Env) > 0 {
		s.env = append(os.Environ(), cfg.Env...)
	}
	s.judge.Rule = oracle.GoPanic
	defer func() { res.Stats = s.stats; res.Stats.Elapsed = time.Since(start) }()

	// The good tree on disk, and the whole change.
	goodRoot, rel := sides.goodDir, ""
	if sides.repo != nil && sides.good.Rev != "" {
		goodRoot = filepath.Join(tmp, "good")
		if err := sides.repo.Export(sides.good.Rev, goodRoot); err != nil {
			return nil, err
		}
		rel = sides.repo.Prefix
	}
	var whole *Change
	if sides.good.Rev != "" && sides.bad.Rev != "" {
		whole, err = sides.repo.revChange(sides.good.Rev, sides.bad.Rev)
	} else {
		badDir := sides.badDir
		if sides.bad.Rev != "" {
			badDir = filepath.Join(tmp, "bad")
			if err := sides.repo.Export(sides.bad.Rev, badDir); err != nil {
				return nil, err
			}
			badDir = filepath.Join(badDir, filepath.FromSlash(sides.repo.Prefix))
		}
		goodTop := goodRoot
		if rel != "" {
			goodTop = filepath.Join(goodRoot, filepath.FromSlash(rel))
		}
		whole, err = dirChange(goodTop, badDir)
		if err == nil && rel != "" {
			whole = whole.prefixed(rel)
		}
	}
	if err != nil {
		return nil, err
	}
	if len(whole.atoms) == 0 {
		return nil, usagef("%w", ErrNoChange)
	}
	good, err := s.newRunner(goodRoot, rel, filepath.Join(tmp, "run0"))
	if err != nil {
		return nil, err
	}
	if err := learn(ctx, s, good, whole, cfg); err != nil {
		return res, err
	}
	res.Failure = s.judge.Want.String()
	res.Command = "go test " + strings.Join(s.args, " ")

	// Commits first.
	base, ch, r := sides.good, whole, good
	if sides.repo != nil && sides.good.Rev != "" && sides.bad.Rev != "" && !cfg.NoBisect {
		commits, err := sides.repo.Commits(sides.good, sides.bad)
		if err != nil {
			return res, err
		}
		if len(commits) > 1 {
			b, err := bisect(ctx, s, good, sides.repo, sides.good, commits, rel)
			if err != nil {
				return res, err
			}
			res.Skipped = b.skipped
			if b.hi-b.lo == 1 {
				c := commits[b.hi]
				res.Commit = &c
			} else {
				res.Range = commits[b.lo+1 : b.hi+1]
			}
			if b.lo >= 0 {
				base = commits[b.lo]
				root := filepath.Join(tmp, "base")
				if err := sides.repo.Export(base.Rev, root); err != nil {
					return res, err
				}
				if r, err = s.newRunner(root, rel, filepath.Join(tmp, "run1")); err != nil {
					return res, err
				}
			}
			if ch, err = sides.repo.revChange(base.Rev, commits[b.hi].Rev); err != nil {
				return res, err
			}
		} else if len(commits) == 1 {
			res.Commit = &commits[0]
		}
	}
	res.Base, res.Change = base, ch
	if !cfg.NoCheck {
		if check := newChecker(ctx, r, ch, s.env); check != nil {
			r.check = check
		}
	}
	res.Set, res.Isolated, err = r.isolate(ctx, ch, cfg.Levels)
	if err != nil && ctx.Err() != nil {
		return res, fmt.Errorf("%w: %v", ErrInterrupted, ctx.Err())
	}
	return res, err
}

// sides are the two versions resolved.
type sides struct {
	repo            *Repo
	good, bad       Version
	goodDir, badDir string
}

// resolve tells directories from revisions and checks them.
func resolve(cfg Config) (*sides, error) {
	s := &sides{}
	var repo *Repo
	needRepo := func() (*Repo, error) {
		if repo != nil {
			return repo, nil
		}
		r, err := OpenRepo(cfg.Dir)
		if err != nil {
			return nil, &UsageError{err}
		}
		repo = r
		return r, nil
	}
	side := func(spec, name string) (Version, string, error) {
		p := spec
		if !filepath.IsAbs(p) {
			p = filepath.Join(cfg.Dir, p)
		}
		if info, err := os.Stat(p); err == nil && info.IsDir() {
			return Version{Spec: spec, Dir: p}, p, nil
		}
		r, err := needRepo()
		if err != nil {
			return Version{}, "", usagef("-%s %s: not a directory, and %w", name, spec, err)
		}
		v, err := r.Resolve(spec)
		if err != nil {
			return Version{}, "", usagef("-%s: %w", name, err)
		}
		return v, "", nil
	}
	if cfg.Good == "" {
		return nil, usagef("no GOOD version: give -good REV or -good DIR")
	}
	var err error
	if s.good, s.goodDir, err = side(cfg.Good, "good"); err != nil {
		return nil, err
	}
	if cfg.Bad == "" {
		r, err := needRepo()
		if err != nil {
			return nil, usagef("no -bad: BAD is the work tree's HEAD, and %w; give -bad DIR", err)
		}
		dirty, err := r.Dirty()
		if err != nil {
			return nil, err
		}
		if dirty {
			return nil, usagef("%w (git status): BAD defaults to the work tree, read as HEAD; commit or stash them, or give -bad . to compare with the work tree as a directory", ErrDirty)
		}
		if s.bad, err = r.Resolve("HEAD"); err != nil {
			return nil, usagef("-bad: %w", err)
		}
	} else if s.bad, s.badDir, err = side(cfg.Bad, "bad"); err != nil {
		return nil, err
	}
	s.repo = repo
	return s, nil
}

// learn runs BAD (GOOD with the whole change) to learn the failure: the
// failing tests and packages, which the candidates' go test then runs
// alone, and the failure's signature; and checks that GOOD passes.
func learn(ctx context.Context, s *session, r *runner, whole *Change, cfg Config) error {
	limit := cfg.Timeout
	if limit == 0 {
		limit = 10 * time.Minute
	}
	args := append(append([]string{"-count=1"}, cfg.GoFlags...), cfg.Packages...)
	run, err := r.run(ctx, whole, whole.Apply(whole.All()), args, limit)
	if err != nil {
		return err
	}
	s.stats.Tests++
	if run.Exit.OK() {
		return usagef("%w: go test %s passes on BAD (%s)", ErrBadPasses, strings.Join(args, " "), run.Describe())
	}
	tests, pkgs := failures(string(run.Output))
	narrowed := append([]string{"-count=1"}, cfg.GoFlags...)
	if len(tests) > 0 {
		narrowed = append(narrowed, "-run", "^("+strings.Join(tests, "|")+")$")
	}
	if len(pkgs) > 0 {
		narrowed = append(narrowed, pkgs...)
	} else {
		narrowed = append(narrowed, cfg.Packages...)
	}
	s.args = narrowed
	bad, err := r.run(ctx, whole, whole.Apply(whole.All()), narrowed, limit)
	if err != nil {
		return err
	}
	s.stats.Tests++
	if err := s.judge.Learn(bad); err != nil {
		return usagef("%w: go test %s passed on BAD when run again: a flaky test? (%s)", ErrBadPasses, strings.Join(narrowed, " "), bad.Describe())
	}
	s.cache[r.key(whole.Apply(whole.All()))] = reduce.Fail
	goodRun, err := r.run(ctx, whole, whole.Apply(nil), narrowed, limit)
	if err != nil {
		return err
	}
	s.stats.Tests++
	switch s.judge.Classify(goodRun) {
	case reduce.Fail:
		return usagef("%w: go test %s fails on GOOD as on BAD (%s)", ErrGoodFails, strings.Join(narrowed, " "), s.judge.Want)
	case reduce.Unresolved:
		return usagef("%w: go test %s on GOOD: %s", ErrGoodFails, strings.Join(narrowed, " "), s.judge.Signature(goodRun))
	}
	s.cache[r.key(whole.Apply(nil))] = reduce.Pass
	if s.timeout == 0 {
		s.timeout = max(10*max(bad.Duration, goodRun.Duration), 30*time.Second)
	}
	s.event(Event{Phase: "learn", Atoms: len(whole.atoms), Outcome: reduce.Fail})
	return nil
}

// prefixed puts the files of a change computed below dir at their paths
// from the tree's root.
func (c *Change) prefixed(dir string) *Change {
	for _, f := range c.Files {
		f.Path = dir + "/" + f.Path
	}
	return c
}
