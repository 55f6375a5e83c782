package rewrite

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"sync"

	"github.com/culprit-go/culprit/reduce"
)

// A Replacement replaces the bytes [Start, End) of a text by Text. A
// deletion has an empty Text.
type Replacement struct {
	Start, End int
	Text       string
}

// An Edit is a set of replacements applied together: deleting a function
// parameter also deletes the matching argument of every call. Delta
// debugging keeps or drops an edit as a whole.
type Edit []Replacement

// A Syntax proposes edits on the texts of one language and checks
// candidates. Its methods may be called concurrently.
type Syntax interface {
	// Name names the syntax in reports: "go", "json", "brackets".
	Name() string
	// Edits returns the edits of the given round on the current text of
	// the file at path, and whether there are rounds after it. The edits
	// of one round must be independent: they do not overlap, except
	// that deletions may overlap deletions.
	Edits(path string, text []byte, round int) (edits []Edit, more bool)
	// Normalize checks a candidate derived from the text old and returns
	// it in canonical form (gofmt-formatted, re-indented), or an error
	// when it is not valid (does not parse). Reduce never tests a
	// candidate Normalize rejects.
	Normalize(path string, old, candidate []byte) ([]byte, error)
}

// A Checker is a Syntax that tells whether Normalize would accept a
// candidate faster than Normalize does (without formatting it). Callers
// that only filter candidates use it when a Syntax implements it.
type Checker interface {
	Check(path string, old, candidate []byte) error
}

// A SetChecker is a Syntax that also checks the files of a candidate
// together, beyond each file alone: the Go files of a package type-check
// together. old holds the files the candidate derives from; both hold the
// files of the syntax only.
type SetChecker interface {
	CheckSet(old, candidate []File) error
}

// Check reports whether syn accepts the candidate, with its Check method
// when it has one.
func Check(syn Syntax, path string, old, candidate []byte) error {
	if c, ok := syn.(Checker); ok {
		return c.Check(path, old, candidate)
	}
	_, err := syn.Normalize(path, old, candidate)
	return err
}

// ErrOverlap: the edits chosen for a candidate overlap in a way that has
// no meaning (a replacement cutting into another).
var ErrOverlap = errors.New("overlapping edits")

// Apply applies the edits to text. Overlapping deletions merge; a
// replacement inside a deletion disappears with it; any other overlap is
// an error wrapping ErrOverlap.
func Apply(text []byte, edits []Edit) ([]byte, error) {
	var rs []Replacement
	for _, e := range edits {
		for _, r := range e {
			if r.Start < 0 || r.End > len(text) || r.Start > r.End {
				return nil, fmt.Errorf("apply: replacement [%d,%d) out of range [0,%d)", r.Start, r.End, len(text))
			}
			rs = append(rs, r)
		}
	}
	// Deletions first among equal starts, widest first, so that they
	// swallow what they contain.
	sort.SliceStable(rs, func(i, j int) bool {
		if rs[i].Start != rs[j].Start {
			return rs[i].Start < rs[j].Start
		}
		if (rs[i].Text == "") != (rs[j].Text == "") {
			return rs[i].Text == ""
		}
		return rs[i].End > rs[j].End
	})
	var merged []Replacement
	for _, r := range rs {
		if n := len(merged); n > 0 {
			last := &merged[n-1]
			switch {
			case r.Start == r.End && r.Text == "":
				continue // an empty deletion does nothing
			case r.Start >= last.End:
				// Disjoint: append it.
			case last.Text == "" && r.Text == "":
				last.End = max(last.End, r.End)
				continue
			case last.Text == "" && r.End <= last.End:
				continue // swallowed by the deletion
			case r == *last:
				continue
			default:
				return nil, fmt.Errorf("apply: [%d,%d) and [%d,%d): %w", last.Start, last.End, r.Start, r.End, ErrOverlap)
			}
		}
		merged = append(merged, r)
	}
	out := make([]byte, 0, len(text))
	pos := 0
	for _, r := range merged {
		out = append(out, text[pos:r.Start]...)
		out = append(out, r.Text...)
		pos = r.End
	}
	return append(out, text[pos:]...), nil
}

// A File is one file of the input to Reduce: its path, its content, and
// its syntax (nil: Reduce leaves it alone).
type File struct {
	Path   string
	Data   []byte
	Syntax Syntax
}

// Test tells whether a candidate (all the files) fails the same way as
// the original. It may be called concurrently when Config.Workers > 1.
type Test func(ctx context.Context, files []File) reduce.Outcome

// Config tunes Reduce.
type Config struct {
	// Workers is the number of candidates tested concurrently.
	Workers int
	// OnRound, if set, is called before each round that has edits with
	// the syntax's name (followed by the round's, "go/decls", when the
	// syntax is Named), the file ("" for several) and the round number.
	OnRound func(syntax, path string, round int)
	// OnSkip, if set, is called for each candidate that is not tested
	// because Normalize rejected it. Calls may be concurrent.
	OnSkip func(path string, err error)
	// OnImprove, if set, is called, serialized, with each smaller
	// failing candidate found.
	OnImprove func(files []File)
	// DD, if set, finds the edits of a round that apply with delta
	// debugging (ddmin) instead of splitting them in halves.
	DD bool
	// Memory, if set, keeps the edits that failed alone across calls of
	// Reduce on the same input as it shrinks (the sweeps of a
	// reduction); nil: each call has its own.
	Memory *Memory
}

// Stats counts the work of Reduce.
type Stats struct {
	// Rounds is the number of rounds that proposed edits.
	Rounds int
	// Tests is the number of calls of the test.
	Tests int
	// Skipped is the number of candidates not tested because they did not
	// parse (or Normalize rejected them otherwise).
	Skipped int
}

// A Key orders the rounds of a syntax: compared element by element,
// smaller keys run first. Rounds of different files with equal keys run
// together, as one round. The first element is a stage: the rounds of a
// stage only run once those of the stages before make no more progress
// (the edits of one token, as shortening a name, wait until the
// structure is as small as it gets).
type Key [4]int

func (k Key) less(o Key) bool {
	for i := range k {
		if k[i] != o[i] {
			return k[i] < o[i]
		}
	}
	return false
}

// A Keyed Syntax tells the key of each of its rounds on a text: the key
// of round i of Edits is Keys(path, text)[i], and keys increase with the
// round. Reduce runs the rounds of all files that share a key as one
// round (one delta debugging run over the edits of every file), in the
// order of the keys: the declarations of every file of a package before
// any statement. A Syntax that is not Keyed has the key {0, i} for round
// i.
type Keyed interface {
	Keys(path string, text []byte) []Key
}

// A Named Syntax names its rounds, for progress reports: the name of
// round i of Edits on text ("decls", "stmts").
type Named interface {
	RoundName(path string, text []byte, round int) string
}

// Reduce applies the syntaxes' edits to the files for as long as the
// result keeps failing and shrinks (once normalized), round after round,
// until no round makes progress. The rounds of all files run key by key
// (see Keyed): each is one delta debugging run over the edits of every
// file that has a round of that key, so the coarse edits of all the
// files (whole declarations) come before the finer ones of any. The
// files must fail on entry. A candidate is only tested when it is
// smaller than the current files. On cancellation Reduce returns the
// smallest failing files found so far with an error wrapping ctx.Err().
func Reduce(ctx context.Context, files []File, test Test, cfg Config) ([]File, Stats, error) {
	r := &reducer{test: test, cfg: cfg, files: append([]File(nil), files...)}
	r.keys = make([]keysOf, len(files))
	if r.cfg.Memory == nil {
		r.cfg.Memory = &Memory{}
	}
	// The passes leave out the edits that failed alone before (see
	// Memory) until the last stage makes no progress; a strict pass then
	// tests those too, each alone, so that the result is 1-minimal with
	// respect to every edit of every round, or starts over.
	for {
		last := 0
		for stage := 0; ; stage++ {
			r.later = false
			if err := r.stage(ctx, stage); err != nil {
				return r.files, r.stats, err
			}
			if last = stage; !r.later {
				break
			}
		}
		if !r.deferred {
			return r.files, r.stats, nil
		}
		r.strict = true
		progress, err := r.pass(ctx, last)
		r.strict = false
		if err != nil || !progress {
			return r.files, r.stats, err
		}
	}
}

// stage runs the rounds of the stages up to stage until none makes
// progress.
func (r *reducer) stage(ctx context.Context, stage int) error {
	for {
		progress, err := r.pass(ctx, stage)
		if err != nil || !progress {
			return err
		}
	}
}

// pass runs each round of the stages up to stage once, and reports
// whether one made progress. It records whether it left out edits that
// failed alone before (deferred).
func (r *reducer) pass(ctx context.Context, stage int) (bool, error) {
	progress := false
	r.deferred = false
	// The rounds of the files that are not Keyed: the next one of
	// each, and whether there is one.
	nextRound := make([]int, len(r.files))
	done := make([]bool, len(r.files))
	var last *Key
	for {
		key, plan := r.plan(stage, last, nextRound, done)
		if plan == nil {
			break
		}
		var edits []fileEdit
		first, firstRound := -1, 0
		for _, p := range plan {
			f := r.files[p.file]
			es, more := f.Syntax.Edits(f.Path, f.Data, p.round)
			if _, ok := f.Syntax.(Keyed); !ok {
				nextRound[p.file] = p.round + 1
				done[p.file] = !more
			}
			for _, e := range es {
				edits = append(edits, fileEdit{p.file, e})
			}
			if len(es) > 0 && first < 0 {
				first, firstRound = p.file, p.round
			}
		}
		last = &key
		if len(edits) == 0 {
			continue
		}
		if r.cfg.OnRound != nil {
			f := r.files[first]
			path := f.Path
			if edits[len(edits)-1].file != first {
				path = "" // several files
			}
			label := f.Syntax.Name()
			if n, ok := f.Syntax.(Named); ok {
				if name := n.RoundName(f.Path, f.Data, firstRound); name != "" {
					label += "/" + name
				}
			}
			r.cfg.OnRound(label, path, firstRound)
		}
		r.stats.Rounds++
		// The rounds of later stages edit names, literals and single
		// expressions: most such edits fail.
		improved, err := r.round(ctx, edits, key[0] > 0)
		if err != nil {
			return false, err
		}
		progress = progress || improved
	}
	return progress, nil
}

type reducer struct {
	test  Test
	cfg   Config
	files []File
	keys  []keysOf // of each file's current text, when Keyed
	later bool     // a round of a later stage was left out

	strict   bool // this pass tests the edits that failed alone before too
	deferred bool // this pass left some of those out

	mu    sync.Mutex // guards stats and serializes OnImprove
	stats Stats
}

// keysOf holds the keys of the rounds of one text.
type keysOf struct {
	text string
	keys []Key
}

// fileEdit is an edit of one of the files.
type fileEdit struct {
	file int
	edit Edit
}

// planned is the round of a file that runs next.
type planned struct{ file, round int }

// plan picks the smallest key after last among the files' rounds of the
// stages up to stage and returns the round of each file that has it; nil
// when no file has a round after last.
func (r *reducer) plan(stage int, last *Key, nextRound []int, done []bool) (Key, []planned) {
	type cand struct {
		key   Key
		round int
	}
	cands := make([]*cand, len(r.files))
	var best *Key
	for i, f := range r.files {
		if f.Syntax == nil {
			continue
		}
		var c *cand
		if k, ok := f.Syntax.(Keyed); ok {
			if r.keys[i].keys == nil || r.keys[i].text != string(f.Data) {
				r.keys[i] = keysOf{text: string(f.Data), keys: k.Keys(f.Path, f.Data)}
				if r.keys[i].keys == nil {
					r.keys[i].keys = []Key{}
				}
			}
			for round, key := range r.keys[i].keys {
				if key[0] > stage {
					r.later = true
					continue
				}
				if last == nil || last.less(key) {
					c = &cand{key, round}
					break
				}
			}
		} else if !done[i] {
			c = &cand{Key{0, nextRound[i]}, nextRound[i]}
		}
		if c == nil {
			continue
		}
		cands[i] = c
		if best == nil || c.key.less(*best) {
			best = &c.key
		}
	}
	if best == nil {
		return Key{}, nil
	}
	var plan []planned
	for i, c := range cands {
		if c != nil && c.key == *best {
			plan = append(plan, planned{i, c.round})
		}
	}
	return *best, plan
}

// round runs delta debugging over the edits of one round, of one file or
// several: its elements are the edits left out, so minimizing them
// applies as many as possible.
func (r *reducer) round(ctx context.Context, edits []fileEdit, sparse bool) (bool, error) {
	cur := r.files
	// The measure of progress: the size of the files once normalized,
	// which a layout change alone may make larger.
	base := map[int]int{}
	size := 0
	for _, e := range edits {
		if _, ok := base[e.file]; ok {
			continue
		}
		f := cur[e.file]
		n := len(f.Data)
		if norm, err := f.Syntax.Normalize(f.Path, f.Data, f.Data); err == nil {
			n = len(norm)
		}
		base[e.file] = n
		size += n
	}
	idx := make([]int, len(edits))
	for k := range idx {
		idx[k] = k
	}
	// The files each set of kept edits yields, with the edited files
	// normalized, and their size; or the path of the file that failed.
	candidate := func(kept []int) ([]File, int, string, error) {
		apply := map[int][]Edit{}
		var order []int
		k := 0
		for j, e := range edits {
			if k < len(kept) && kept[k] == j {
				k++
				continue
			}
			if apply[e.file] == nil {
				order = append(order, e.file)
			}
			apply[e.file] = append(apply[e.file], e.edit)
		}
		out := append([]File(nil), cur...)
		total := size
		for _, i := range order {
			f := cur[i]
			text, err := Apply(f.Data, apply[i])
			if err == nil {
				text, err = f.Syntax.Normalize(f.Path, f.Data, text)
			}
			if err != nil {
				return nil, 0, f.Path, err
			}
			out[i].Data = text
			total += len(text) - base[i]
		}
		return out, total, "", nil
	}
	bestSize := size
	// The edits that failed alone before are left out of delta debugging
	// (they stay unapplied) and, in a strict pass, tested one by one
	// after it.
	prints := make([]string, len(edits))
	var open, known []int
	for k, e := range edits {
		prints[k] = fingerprint(cur[e.file], e.edit)
		if r.cfg.Memory.failed(prints[k]) {
			known = append(known, k)
		} else {
			open = append(open, k)
		}
	}
	if len(known) > 0 && !r.strict {
		r.deferred = true
	}
	// try tests the files that the kept edits yield (all the others
	// applied) and remembers an edit that failed alone.
	try := func(ctx context.Context, kept []int) reduce.Outcome {
		if len(kept) == len(edits) {
			return reduce.Fail // the current files
		}
		files, total, path, err := candidate(kept)
		if err != nil {
			r.mu.Lock()
			r.stats.Skipped++
			r.mu.Unlock()
			if r.cfg.OnSkip != nil {
				r.cfg.OnSkip(path, err)
			}
			return reduce.Unresolved
		}
		if total >= size {
			return reduce.Unresolved // no progress: never worth a test
		}
		r.mu.Lock()
		r.stats.Tests++
		r.mu.Unlock()
		out := r.test(ctx, files)
		if ctx.Err() != nil {
			return out
		}
		if out == reduce.Fail {
			r.mu.Lock()
			if total < bestSize {
				bestSize = total
				if r.cfg.OnImprove != nil {
					r.cfg.OnImprove(files)
				}
			}
			r.mu.Unlock()
		} else if len(kept) == len(edits)-1 {
			r.cfg.Memory.fail(prints[missing(kept)])
		}
		return out
	}
	// Delta debugging runs over the open edits: its elements are the
	// open edits left out; the known ones are always left out.
	test := func(ctx context.Context, keptOpen []int) reduce.Outcome {
		return try(ctx, merge(keptOpen, known))
	}
	var kept []int
	var err error
	if r.cfg.DD {
		var res reduce.Result[int]
		res, err = reduce.DD(ctx, open, test, reduce.Min, reduce.Config{Workers: r.cfg.Workers})
		kept = merge(res.Fail, known)
	} else {
		kept, err = r.split(ctx, merge(open, known), open, sparse, try)
	}
	if err == nil && r.strict && len(known) > 0 {
		kept, err = r.singles(ctx, kept, known, try)
	}
	if len(kept) < len(edits) {
		files, total, _, cerr := candidate(kept)
		if cerr == nil && total < size {
			r.files = files
			return true, err
		}
	}
	if err != nil {
		return false, fmt.Errorf("rewrite: %w", err)
	}
	return false, nil
}

// split applies as many of the open edits as it can to the files that
// kept yields: all at once, or else each half apart, and so on down to
// single edits, Workers chunks at a time. A run of edits that apply
// costs a few tests, where delta debugging, once at single edits, tests
// them one by one. When the edits are sparse (most fail: single names,
// literals, expressions) and all of them and both halves fail, the
// edits that fail alone are likely many and spread out: each is tested
// alone then, one test each instead of about two. The result is not
// 1-minimal when an edit applies only after others did; the passes that
// follow test it again.
func (r *reducer) split(ctx context.Context, kept, open []int, sparse bool, try func(context.Context, []int) reduce.Outcome) ([]int, error) {
	type chunk struct {
		edits []int
		depth int
	}
	queue := []chunk{{open, 0}}
	workers := max(r.cfg.Workers, 1)
	applied, halvesFailed := false, 0
	for len(queue) > 0 {
		n := workers
		if queue[0].depth == 1 {
			n = max(n, 2) // both halves, before their halves
		}
		batch := queue[:min(n, len(queue))]
		queue = queue[len(batch):]
		outs := make([]reduce.Outcome, len(batch))
		var wg sync.WaitGroup
		for b, c := range batch {
			if workers < 2 {
				outs[b] = try(ctx, difference(kept, c.edits))
				continue
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				outs[b] = try(ctx, difference(kept, c.edits))
			}()
		}
		wg.Wait()
		if err := ctx.Err(); err != nil {
			return kept, err
		}
		var front []chunk
		for b, c := range batch {
			if outs[b] == reduce.Fail {
				kept = difference(kept, c.edits)
				applied = true
				// The chunks after it were tested without it: one that
				// applied then is tested again, one that did not is
				// split as if it had not applied now either.
				for a, later := range batch[b+1:] {
					if n := len(later.edits); outs[b+1+a] == reduce.Fail || n == 1 {
						front = append(front, later)
					} else {
						front = append(front, chunk{later.edits[:n-n/2], later.depth + 1}, chunk{later.edits[n-n/2:], later.depth + 1})
					}
				}
				break
			}
			if c.depth == 1 {
				halvesFailed++
			}
			if n := len(c.edits); n > 1 {
				front = append(front, chunk{c.edits[:n-n/2], c.depth + 1}, chunk{c.edits[n-n/2:], c.depth + 1})
			}
		}
		queue = append(front, queue...)
		if sparse && !applied && halvesFailed == 2 && len(open) > 2 {
			// All, and both halves, failed: single edits.
			queue = queue[:0]
			for _, e := range open {
				queue = append(queue, chunk{[]int{e}, 2})
			}
			halvesFailed = 3
		}
	}
	return kept, nil
}

// difference returns the sorted set a without the elements of b.
func difference(a, b []int) []int {
	drop := make(map[int]bool, len(b))
	for _, x := range b {
		drop[x] = true
	}
	return slices.DeleteFunc(slices.Clone(a), func(x int) bool { return drop[x] })
}

// singles tests each of the edits of known alone on the files that kept
// yields, in order, Workers at a time, and applies those that still
// fail: an edit that failed alone before may not fail alone now.
func (r *reducer) singles(ctx context.Context, kept, known []int, try func(context.Context, []int) reduce.Outcome) ([]int, error) {
	workers := max(r.cfg.Workers, 1)
	for i := 0; i < len(known); {
		batch := known[i:min(i+workers, len(known))]
		outs := make([]reduce.Outcome, len(batch))
		var wg sync.WaitGroup
		for b, k := range batch {
			wg.Add(1)
			go func() {
				defer wg.Done()
				outs[b] = try(ctx, difference(kept, []int{k}))
			}()
		}
		wg.Wait()
		if err := ctx.Err(); err != nil {
			return kept, err
		}
		next := i + len(batch)
		for b, o := range outs {
			if o == reduce.Fail {
				// The tests after it in the batch ran without it:
				// they run again.
				kept = difference(kept, batch[b:b+1])
				next = i + b + 1
				break
			}
		}
		i = next
	}
	return kept, nil
}

// merge returns the union of two sorted sets of indices.
func merge(a, b []int) []int {
	out := make([]int, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		if j == len(b) || i < len(a) && a[i] < b[j] {
			out = append(out, a[i])
			i++
		} else {
			out = append(out, b[j])
			j++
		}
	}
	return out
}

// missing returns the one index below len(kept)+1 that the sorted set
// kept lacks.
func missing(kept []int) int {
	for i, k := range kept {
		if k != i {
			return i
		}
	}
	return len(kept)
}

// String reduces one text of the given syntax, named name (a file name
// such as "main.go"), while fails reports true, and returns the smallest
// failing text found. It is Reduce for callers with a text and a
// predicate rather than files and an outcome.
func String(ctx context.Context, syn Syntax, name, text string, fails func(ctx context.Context, text string) bool, workers int) (string, error) {
	test := func(ctx context.Context, files []File) reduce.Outcome {
		if fails(ctx, string(files[0].Data)) {
			return reduce.Fail
		}
		return reduce.Pass
	}
	out, _, err := Reduce(ctx, []File{{Path: name, Data: []byte(text), Syntax: syn}}, test, Config{Workers: workers})
	return string(out[0].Data), err
}

// A Layout Syntax tells whether two texts differ in layout only (blank
// lines, spaces): a candidate of the levels that changes nothing else is
// not worth a test.
type Layout interface {
	SameTokens(path string, a, b []byte) bool
}

// A Compacter Syntax deletes what a text's layout has beyond what its
// canonical form (Normalize) needs: the blank lines of Go, which gofmt
// keeps. The final result is compacted when it still fails so.
type Compacter interface {
	Compact(path string, text []byte) []byte
}
