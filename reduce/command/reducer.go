package command

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/culprit-go/culprit/reduce"
	"github.com/culprit-go/culprit/reduce/oracle"
	"github.com/culprit-go/culprit/reduce/rewrite"
)

// Errors of Check: the original input or the oracle cannot be reduced
// against. Check also wraps oracle.ErrNotFailing.
var (
	// ErrFlaky: runs of the original input disagree.
	ErrFlaky = errors.New("flaky oracle")
	// ErrNotPassing: maximizing needs the empty input to pass.
	ErrNotPassing = errors.New("the empty input does not pass")
)

// Default timeout of a test when none is set: a multiple of the slowest
// run of the original, but never less than minTimeout.
const (
	timeoutFactor = 10
	minTimeout    = 3 * time.Second
)

// A Reducer reduces an Input against a command. Set its fields, call
// Check, then Reduce.
type Reducer struct {
	Input   *Input
	Command oracle.Command // a zero Timeout is derived from the original's run time
	Judge   oracle.Judge   // its Want is learned by Check
	Mode    reduce.Mode    // Min, Max or Diff; zero means Min
	Levels  []Level        // nil means DefaultLevels
	Jobs    int            // candidates tested concurrently; <= 1 is sequential
	Repeat  int            // extra runs of the original, to detect a flaky oracle
	Output  string         // path of the failing result (Min and Diff)
	Passing string         // path of the passing result (Max and Diff)

	// Syntax, if set, returns the syntax of a file of the input by its
	// path (nil for none). When minimizing, each sweep then starts with
	// tree rewriting (package rewrite) before the levels, the levels'
	// candidates whose files the syntax rejects are skipped untested, and
	// the final result is normalized (gofmt-formatted, re-indented) when
	// that still fails. Max and Diff modes ignore it: their results must
	// be subsets of the original's bytes.
	Syntax func(path string) rewrite.Syntax

	// Shortcuts, with Syntax, each propose one candidate that deletes
	// much at once (package mode: the declarations that the failing test
	// does not reach; the files of the package joined into one), or nil.
	// Each sweep tests them first, in order, each on the result of the
	// ones before, and goes on from a candidate that fails the same way:
	// one test instead of delta debugging's many.
	Shortcuts []func(files []File) []File

	// OnTest, if set, is called after each test and each cache hit.
	// Calls are serialized.
	OnTest func(Event)
	// OnStatus, if set, is called, serialized, whenever the counters or
	// the current result change.
	OnStatus func(Status)

	cache *cache
	mu    sync.Mutex // guards the counters and the callbacks
	stats Status
	start time.Time
}

// An Event is one test during a reduction.
type Event struct {
	Number  int // 1-based among the tests run; 0 for a cache hit
	Level   string
	Bytes   int // the candidate's size
	Outcome reduce.Outcome
	Cached  bool
	Run     oracle.Run // what the command did; zero for a cache hit
}

// Status is the state of a reduction, for progress displays.
type Status struct {
	Level         string
	Sweep         int // 1-based pass over the levels
	Tests         int // commands run
	CacheHits     int
	Skipped       int // candidates not tested because they did not parse
	Bytes         int // size of the current result
	OriginalBytes int
	Elapsed       time.Duration
}

// Summary is the outcome of a reduction.
type Summary struct {
	Mode          reduce.Mode
	Levels        []string
	OriginalBytes int
	FinalBytes    int // size of the failing result (Min, Diff) or of the passing one (Max)
	PassingBytes  int // size of the passing result (Max, Diff)
	Tests         int
	CacheHits     int
	Skipped       int // candidates not tested because they did not parse
	Sweeps        int
	Elapsed       time.Duration
	Timeout       time.Duration // the per-test timeout used
	Diff          string        // Diff mode: the failure-inducing difference, as a unified diff
}

func (r *Reducer) mode() reduce.Mode {
	if r.Mode == 0 {
		return reduce.Min
	}
	return r.Mode
}

func (r *Reducer) levels() []Level {
	if r.Levels == nil {
		return DefaultLevels(r.Input.Dir)
	}
	return r.Levels
}

// Check runs the original input, learns the failure from it, runs it
// Repeat more times to make sure the failure reproduces, derives the test
// timeout when none is set, and, when maximizing, checks that the empty
// input passes. Its errors mean the reduction cannot start.
func (r *Reducer) Check(ctx context.Context) error {
	if r.cache == nil {
		r.cache = newCache()
		r.start = time.Now()
		r.stats.OriginalBytes = r.Input.Size()
	}
	root, err := os.MkdirTemp("", "culprit-reduce-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(root)
	orig := r.Input.files(r.Input.all())
	golden, err := r.exec(ctx, root, orig)
	if err != nil {
		return fmt.Errorf("run the original: %w", err)
	}
	if err := r.Judge.Learn(golden); err != nil {
		r.event("original", Event{Bytes: r.stats.OriginalBytes, Outcome: r.Judge.Classify(golden), Run: golden})
		return err
	}
	r.event("original", Event{Bytes: r.stats.OriginalBytes, Outcome: reduce.Fail, Run: golden})
	slowest := golden.Duration
	for i := 2; i <= r.Repeat+1; i++ {
		again, err := r.exec(ctx, root, orig)
		if err != nil {
			return fmt.Errorf("run the original again: %w", err)
		}
		o := r.Judge.Classify(again)
		r.event("original", Event{Bytes: r.stats.OriginalBytes, Outcome: o, Run: again})
		if o != reduce.Fail {
			return fmt.Errorf("%w: run 1 of the original failed with %s, run %d %s",
				ErrFlaky, r.Judge.Want, i, r.describe(again))
		}
		slowest = max(slowest, again.Duration)
	}
	if r.Command.Timeout == 0 {
		r.Command.Timeout = max(timeoutFactor*slowest, minTimeout)
	}
	r.cache.done[keyOf(orig)] = reduce.Fail
	if r.mode()&reduce.Max != 0 {
		empty := r.Input.files(r.Input.none())
		run, err := r.exec(ctx, root, empty)
		if err != nil {
			return fmt.Errorf("run the empty input: %w", err)
		}
		o := r.Judge.Classify(run)
		r.event("empty", Event{Outcome: o, Run: run})
		if o != reduce.Pass {
			return fmt.Errorf("%w (%s: %s); --mode %s starts from it", ErrNotPassing, o, r.describe(run), r.mode())
		}
		r.cache.done[keyOf(empty)] = reduce.Pass
	}
	return nil
}

// describe tells what a run did, with its signature when it failed.
func (r *Reducer) describe(run oracle.Run) string {
	if run.Exit.OK() {
		return "passed (exit status 0)"
	}
	if s := r.Judge.Signature(run); s.Panic != "" || s.Frame != "" || s.Message != "" || s.Test != "" {
		return "failed with " + s.String()
	}
	return "failed with " + run.Describe()
}

// exec writes a candidate into a fresh directory under root and runs the
// command on it.
func (r *Reducer) exec(ctx context.Context, root string, files []File) (oracle.Run, error) {
	dir, err := os.MkdirTemp(root, "c")
	if err != nil {
		return oracle.Run{}, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, r.Input.Name)
	if r.Input.Dir {
		err = os.Mkdir(path, 0o755)
		if err == nil {
			err = fill(path, files)
		}
	} else {
		err = fill(dir, files)
	}
	if err != nil {
		return oracle.Run{}, fmt.Errorf("write candidate: %w", err)
	}
	return r.Command.Run(ctx, path)
}

// reduction is the state of one Reduce call.
type reduction struct {
	*Reducer
	in     *Input // the input the selections refer to: rebased after rewriting
	root   string
	fatal  error
	stop   context.CancelFunc
	best   struct{ fail, pass selection } // of the input current when saved
	bytes  int                            // size of the failing result on disk
	memory *rewrite.Memory                // the edits of the tree passes that failed alone

	// The syntax filter of the levels' candidates (see parses).
	unparsed  map[string]bool // files whose original does not parse: not filtered
	accepted  int             // candidates the filter let through
	trusted   bool            // a candidate the filter let through failed
	filterOff bool            // a level's fallback: run every candidate
}

// Reduce runs the levels, coarse to fine, until a whole sweep changes
// nothing, writing each improvement to the result paths. On cancellation
// it returns the summary of the best result so far, already on disk, with
// an error wrapping ctx.Err(). Check must have succeeded first.
func (r *Reducer) Reduce(ctx context.Context) (Summary, error) {
	if r.cache == nil {
		return Summary{}, errors.New("reduce before check")
	}
	root, err := os.MkdirTemp("", "culprit-reduce-")
	if err != nil {
		return Summary{}, err
	}
	defer os.RemoveAll(root)
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	x := &reduction{Reducer: r, in: r.Input, root: root, stop: stop}
	mode := r.mode()
	in := r.Input
	fail, pass := in.all(), in.none()
	rewriting := r.Syntax != nil && mode == reduce.Min
	if rewriting {
		x.unparsed = r.unparsedFiles()
	}
	x.best.fail, x.best.pass = fail, pass
	if err := x.save(fail, pass, true); err != nil {
		return Summary{}, err
	}
	var runErr error
	sweeps := 0
	// level runs delta debugging at one level on the current selections.
	var changed bool
	level := func(lvl Level) {
		units, passIdx := in.cut(lvl, fail, pass)
		if len(units) == 0 {
			return
		}
		x.mu.Lock()
		x.stats.Level, x.stats.Sweep = lvl.Name(), sweeps
		x.mu.Unlock()
		// Delta debugging works on the units' numbers: a candidate of
		// a large input is then 4 bytes a unit, without pointers.
		ids := make([]int32, len(units))
		for i := range ids {
			ids[i] = int32(i)
		}
		test := func(ctx context.Context, c []int32) reduce.Outcome { return x.test(ctx, units, c) }
		cfg := reduce.Config{
			Workers: r.Jobs,
			NoCache: true, // the content cache below sees through levels
			Pass:    passIdx,
			OnProgress: func(p reduce.Progress) {
				x.progress(pick(units, p.Fail), pick(units, p.Pass))
			},
		}
		x.mu.Lock()
		skipped, accepted := x.stats.Skipped, x.accepted
		x.mu.Unlock()
		res, err := reduce.DD(ctx, ids, test, mode, cfg)
		x.mu.Lock()
		// The syntax filter skipped every candidate of the level, and
		// has not yet let through a candidate that failed: it may be
		// wrong about this oracle, so run the level without it.
		fallback := err == nil && len(res.FailIdx) == len(units) &&
			x.stats.Skipped > skipped && x.accepted == accepted && !x.trusted
		x.filterOff = fallback
		x.mu.Unlock()
		if fallback {
			res, err = reduce.DD(ctx, ids, test, mode, cfg)
			x.mu.Lock()
			x.filterOff = false
			x.mu.Unlock()
		}
		if fatal := x.fatalErr(); fatal != nil {
			runErr = fatal
			return
		}
		newFail, newPass := fail, pass
		if mode&reduce.Min != 0 {
			newFail = in.selectIDs(units, res.Fail)
		}
		if mode&reduce.Max != 0 {
			newPass = in.selectIDs(units, res.Pass)
		}
		if newFail.weight() != fail.weight() || newPass.weight() != pass.weight() {
			changed = true
		}
		fail, pass = newFail, newPass
		if err != nil {
			if ctx.Err() == nil {
				err = fmt.Errorf("%s level: %w (is the oracle flaky?)", lvl.Name(), err)
			}
			runErr = err
		}
	}
	for changed = true; changed && runErr == nil; {
		changed = false
		sweeps++
		for _, shortcut := range r.Shortcuts {
			if !rewriting {
				break
			}
			rebased, err := x.shortcut(ctx, fail, shortcut)
			if err != nil {
				runErr = err
				break
			}
			if rebased != nil {
				in, fail, pass = rebased, rebased.all(), rebased.none()
				changed = true
			}
		}
		if runErr != nil {
			break
		}
		if rewriting {
			if in.Dir && slices.Contains(r.levels(), Files) {
				// Whole files first: deleting a file is cheaper than
				// rewriting it.
				level(Files)
				if runErr != nil {
					break
				}
			}
			rebased, err := x.rewrite(ctx, fail)
			if err != nil {
				if rebased != nil {
					in, fail, pass = rebased, rebased.all(), rebased.none()
				}
				runErr = err
				break
			}
			if rebased != nil {
				in, fail, pass = rebased, rebased.all(), rebased.none()
				changed = true
			}
		}
		for _, lvl := range r.levels() {
			if lvl == Files && !in.Dir {
				continue
			}
			if level(lvl); runErr != nil {
				break
			}
		}
	}
	if rewriting && runErr == nil {
		if rebased, err := x.normalize(ctx, fail); err != nil {
			runErr = err
		} else if rebased != nil {
			in, fail, pass = rebased, rebased.all(), rebased.none()
			if err := x.save(fail, pass, true); err != nil {
				runErr = err
			}
		}
	}
	if runErr == nil || ctx.Err() != nil {
		// Make sure the files on disk hold the final state.
		if err := x.save(fail, pass, false); err != nil && runErr == nil {
			runErr = err
		}
	}
	return x.summary(fail, pass, sweeps), runErr
}

func pick(units []unit, idx []int) []unit {
	out := make([]unit, len(idx))
	for i, j := range idx {
		out[i] = units[j]
	}
	return out
}

// test is the delta debugging test: it materializes the candidate, looks
// its content up in the cache, and otherwise runs the command on it.
func (x *reduction) test(ctx context.Context, units []unit, c []int32) reduce.Outcome {
	in := x.current()
	files := in.files(in.selectIDs(units, c))
	// A candidate already tested (the current result, found by a level
	// that ran without the filter) needs no check.
	if x.Syntax != nil && x.mode() == reduce.Min && !x.cache.known(keyOf(files)) && (!x.parses(in, files) || x.layoutOnly(in, files)) {
		return reduce.Unresolved
	}
	return x.testFiles(ctx, files)
}

// testFiles looks a candidate up in the cache and otherwise runs the
// command on it.
func (x *reduction) testFiles(ctx context.Context, files []File) reduce.Outcome {
	size := 0
	for _, f := range files {
		size += len(f.Data)
	}
	k := keyOf(files)
	o, hit, err := x.cache.get(ctx, k)
	if err != nil {
		return reduce.Unresolved
	}
	if hit {
		x.event(x.levelName(), Event{Bytes: size, Outcome: o, Cached: true})
		return o
	}
	run, err := x.exec(ctx, x.root, files)
	if err != nil {
		x.cache.put(k, 0)
		if ctx.Err() == nil {
			x.fail(fmt.Errorf("test a candidate: %w", err))
		}
		return reduce.Unresolved
	}
	o = x.Judge.Classify(run)
	x.cache.put(k, o)
	if o == reduce.Fail && ctx.Err() == nil {
		x.mu.Lock()
		x.trusted = x.trusted || !x.filterOff
		x.mu.Unlock()
	}
	x.event(x.levelName(), Event{Bytes: size, Outcome: o, Run: run})
	return o
}

func (x *reduction) fatalErr() error {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.fatal
}

// fail records the first fatal error and stops the reduction.
func (x *reduction) fail(err error) {
	x.mu.Lock()
	if x.fatal == nil {
		x.fatal = err
	}
	x.mu.Unlock()
	x.stop()
}

// event counts a test and reports it.
func (r *Reducer) event(level string, e Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	e.Level = level
	if e.Cached {
		r.stats.CacheHits++
	} else {
		r.stats.Tests++
		e.Number = r.stats.Tests
	}
	if r.OnTest != nil {
		r.OnTest(e)
	}
	r.status()
}

func (x *reduction) levelName() string {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.stats.Level
}

// status reports the counters; r.mu must be held.
func (r *Reducer) status() {
	if r.OnStatus == nil {
		return
	}
	s := r.stats
	s.Elapsed = time.Since(r.start)
	r.OnStatus(s)
}

// progress is delta debugging's progress hook: it saves improvements.
func (x *reduction) progress(fail, pass []unit) {
	in := x.current()
	if err := x.save(in.selectUnits(fail), in.selectUnits(pass), false); err != nil {
		x.fail(err)
	}
}

// save writes the results that improved on the best so far (all of them
// when force is set).
func (x *reduction) save(fail, pass selection, force bool) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	mode := x.mode()
	if mode&reduce.Min != 0 && (force || fail.weight() < x.best.fail.weight()) {
		if err := x.write(x.Output, fail); err != nil {
			return err
		}
		x.best.fail = fail
		x.bytes = fail.size()
	}
	if mode&reduce.Max != 0 && (force || pass.weight() > x.best.pass.weight()) {
		if err := x.write(x.Passing, pass); err != nil {
			return err
		}
		x.best.pass = pass
	}
	if mode == reduce.Max {
		x.stats.Bytes = x.best.pass.size()
	} else {
		x.stats.Bytes = x.best.fail.size()
	}
	x.status()
	return nil
}

func (x *reduction) write(path string, sel selection) error {
	files := x.in.files(sel)
	if x.Input.Dir {
		return writeTree(path, files)
	}
	return writeFile(path, files[0].Data, files[0].Mode)
}

func (x *reduction) summary(fail, pass selection, sweeps int) Summary {
	x.mu.Lock()
	defer x.mu.Unlock()
	s := Summary{
		Mode:          x.mode(),
		OriginalBytes: x.Input.Size(),
		FinalBytes:    x.bytes, // what is on disk, even when interrupted
		Tests:         x.stats.Tests,
		CacheHits:     x.stats.CacheHits,
		Skipped:       x.stats.Skipped,
		Sweeps:        sweeps,
		Elapsed:       time.Since(x.start),
		Timeout:       x.Command.Timeout,
	}
	if x.Syntax != nil && s.Mode == reduce.Min {
		seen := map[string]bool{}
		for _, f := range x.Input.Files {
			if syn := x.Syntax(f.Path); syn != nil && !seen[syn.Name()] {
				seen[syn.Name()] = true
				s.Levels = append(s.Levels, syn.Name())
			}
		}
	}
	for _, l := range x.levels() {
		s.Levels = append(s.Levels, l.Name())
	}
	if s.Mode&reduce.Max != 0 {
		s.PassingBytes = pass.size()
	}
	if s.Mode == reduce.Max {
		s.FinalBytes = s.PassingBytes
	}
	if s.Mode == reduce.Diff {
		s.Diff = treeDiff(x.Input, x.Passing, x.Output, x.Input.files(pass), x.Input.files(fail))
	}
	return s
}
