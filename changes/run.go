package changes

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/culprit-go/culprit/reduce"
	"github.com/culprit-go/culprit/reduce/oracle"
)

// Stats counts the work of a search.
type Stats struct {
	Tests       int           // go test runs
	Unbuildable int           // candidates skipped: they do not parse or type-check
	CacheHits   int           // candidates seen before
	Commits     int           // commits tested while bisecting
	Elapsed     time.Duration // wall-clock time
}

// An Event is one candidate's verdict, for progress and logs.
type Event struct {
	Phase   string // "learn", "bisect", a level, "context"
	Atoms   int    // changed lines the candidate applies
	Outcome reduce.Outcome
	Cached  bool
	Skipped bool // unbuildable, told without running go test
	Run     time.Duration
	Why     string // what the run did, when it was not the failure
	Stats   Stats
}

// session holds what the runners of one search share: the failure, the
// go test command, the counters.
type session struct {
	judge   oracle.Judge
	args    []string // go test's arguments after -overlay
	env     []string
	timeout time.Duration
	jobs    int
	onEvent func(Event)
	start   time.Time

	mu    sync.Mutex
	stats Stats
	cache map[string]reduce.Outcome
}

func (s *session) event(ev Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stats.Elapsed = time.Since(s.start)
	ev.Stats = s.stats
	if s.onEvent != nil {
		s.onEvent(ev)
	}
}

// A runner tests candidates on one good tree.
type runner struct {
	s     *session
	base  string // the good tree's root
	rel   string // where go test runs, relative to base
	tmp   string // the runner's scratch directory
	slots chan *slot
	check func(ch *Change, contents map[string]Content) bool // false: unbuildable
}

// A slot is one worker's place: a tree (base, or a copy of it once a
// file go build does not read must be written) and a scratch directory
// for the overlay.
type slot struct {
	root    string
	tmp     string
	copied  bool
	written map[string]bool // files of root that differ from base
}

func (s *session) newRunner(base, rel, tmp string) (*runner, error) {
	r := &runner{s: s, base: base, rel: rel, tmp: tmp, slots: make(chan *slot, max(s.jobs, 1))}
	for i := 0; i < max(s.jobs, 1); i++ {
		dir := filepath.Join(tmp, fmt.Sprintf("w%d", i))
		if err := os.MkdirAll(filepath.Join(dir, "o"), 0o755); err != nil {
			return nil, err
		}
		r.slots <- &slot{root: base, tmp: dir, written: map[string]bool{}}
	}
	return r, nil
}

// overlaid reports whether go build reads the file through -overlay.
func overlaid(p string) bool {
	b := path.Base(p)
	return strings.HasSuffix(b, ".go") || b == "go.mod" || b == "go.sum"
}

// key identifies a candidate by the tree and the contents it gives the
// change's files.
func (r *runner) key(contents map[string]Content) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00", r.base, r.rel)
	var paths []string
	for p := range contents {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, p := range paths {
		c := contents[p]
		fmt.Fprintf(h, "%s\x00%v\x00%d\x00%s", p, c.Exists, len(c.Data), c.Data)
	}
	return string(h.Sum(nil))
}

// outcome tests the good tree with the atoms of set applied.
func (r *runner) outcome(ctx context.Context, phase string, ch *Change, set []int) reduce.Outcome {
	out, _ := r.test(ctx, phase, ch, set)
	return out
}

// test is outcome with the run (zero when cached or skipped).
func (r *runner) test(ctx context.Context, phase string, ch *Change, set []int) (reduce.Outcome, oracle.Run) {
	contents := ch.Apply(set)
	key := r.key(contents)
	s := r.s
	s.mu.Lock()
	out, ok := s.cache[key]
	if ok {
		s.stats.CacheHits++
	}
	s.mu.Unlock()
	if ok {
		s.event(Event{Phase: phase, Atoms: len(set), Outcome: out, Cached: true})
		return out, oracle.Run{}
	}
	if r.check != nil && !r.check(ch, contents) {
		s.mu.Lock()
		s.stats.Unbuildable++
		s.cache[key] = reduce.Unresolved
		s.mu.Unlock()
		s.event(Event{Phase: phase, Atoms: len(set), Outcome: reduce.Unresolved, Skipped: true})
		return reduce.Unresolved, oracle.Run{}
	}
	run, err := r.run(ctx, ch, contents, s.args, s.timeout)
	if ctx.Err() != nil {
		return reduce.Unresolved, run
	}
	out = reduce.Unresolved
	why := ""
	if err != nil {
		why = err.Error()
	} else {
		out = s.judge.Classify(run)
		if out != reduce.Fail {
			why = s.judge.Signature(run).String()
		}
	}
	s.mu.Lock()
	s.stats.Tests++
	s.cache[key] = out
	s.mu.Unlock()
	s.event(Event{Phase: phase, Atoms: len(set), Outcome: out, Run: run.Duration, Why: why})
	return out, run
}

// run runs go test with args on the good tree with the given contents
// of the change's files.
func (r *runner) run(ctx context.Context, ch *Change, contents map[string]Content, args []string, timeout time.Duration) (oracle.Run, error) {
	var sl *slot
	select {
	case sl = <-r.slots:
	case <-ctx.Done():
		return oracle.Run{}, ctx.Err()
	}
	defer func() { r.slots <- sl }()
	replace := map[string]string{}
	direct := map[string]Content{}
	for _, f := range ch.Files {
		c := contents[f.Path]
		if c.Exists == f.GoodExists && c.Data == f.good() {
			continue
		}
		if overlaid(f.Path) {
			continue
		}
		direct[f.Path] = c
	}
	if err := r.prepare(sl, direct); err != nil {
		return oracle.Run{}, err
	}
	n := 0
	for _, f := range ch.Files {
		c := contents[f.Path]
		if !overlaid(f.Path) || c.Exists == f.GoodExists && c.Data == f.good() {
			continue
		}
		dst := filepath.Join(sl.root, filepath.FromSlash(f.Path))
		if !c.Exists {
			replace[dst] = ""
			continue
		}
		n++
		src := filepath.Join(sl.tmp, "o", fmt.Sprintf("%d_%s", n, path.Base(f.Path)))
		if err := os.WriteFile(src, []byte(c.Data), 0o644); err != nil {
			return oracle.Run{}, err
		}
		replace[dst] = src
	}
	data, err := json.Marshal(map[string]any{"Replace": replace})
	if err != nil {
		return oracle.Run{}, err
	}
	if err := os.WriteFile(filepath.Join(sl.tmp, "overlay.json"), data, 0o644); err != nil {
		return oracle.Run{}, err
	}
	cmd := oracle.Command{
		Args:    append([]string{"go", "test", "-overlay={}/overlay.json"}, args...),
		Dir:     filepath.Join(sl.root, filepath.FromSlash(r.rel)),
		Env:     r.s.env,
		Timeout: timeout,
	}
	run, err := cmd.Run(ctx, sl.tmp)
	if sl.root != r.base {
		// The same output from every worker's tree.
		fix := func(b []byte) []byte { return []byte(strings.ReplaceAll(string(b), sl.root, r.base)) }
		run.Stdout, run.Stderr, run.Output = fix(run.Stdout), fix(run.Stderr), fix(run.Output)
	}
	return run, err
}

// prepare writes into the slot's tree the files go build does not read
// through the overlay (test data), and restores those it wrote for
// another candidate. The first write copies the base.
func (r *runner) prepare(sl *slot, direct map[string]Content) error {
	if len(direct) > 0 && !sl.copied {
		root := filepath.Join(sl.tmp, "tree")
		if err := copyTree(r.base, root); err != nil {
			return fmt.Errorf("copy the good tree: %w", err)
		}
		sl.root, sl.copied = root, true
	}
	if !sl.copied {
		return nil
	}
	for p := range sl.written {
		if _, ok := direct[p]; ok {
			continue
		}
		dst := filepath.Join(sl.root, filepath.FromSlash(p))
		data, err := os.ReadFile(filepath.Join(r.base, filepath.FromSlash(p)))
		if err != nil {
			os.Remove(dst)
		} else if err := os.WriteFile(dst, data, 0o644); err != nil {
			return err
		}
		delete(sl.written, p)
	}
	for p, c := range direct {
		dst := filepath.Join(sl.root, filepath.FromSlash(p))
		sl.written[p] = true
		if !c.Exists {
			os.Remove(dst)
			continue
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(dst, []byte(c.Data), 0o644); err != nil {
			return err
		}
	}
	return nil
}

var (
	failedTest = regexp.MustCompile(`(?m)^--- FAIL: (\S+)`)
	failedPkg  = regexp.MustCompile(`(?m)^FAIL[ \t]+(\S+)`)
)

// failures parses go test's output: the top-level tests that failed
// and the packages that failed.
func failures(out string) (tests, pkgs []string) {
	for _, m := range failedTest.FindAllStringSubmatch(out, -1) {
		name, _, _ := strings.Cut(m[1], "/")
		if !slices.Contains(tests, name) {
			tests = append(tests, name)
		}
	}
	for _, m := range failedPkg.FindAllStringSubmatch(out, -1) {
		if p := m[1]; !slices.Contains(pkgs, p) {
			pkgs = append(pkgs, p)
		}
	}
	return tests, pkgs
}
