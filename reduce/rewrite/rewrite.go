package rewrite

import (
	"context"
	"errors"
	"fmt"
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
	// the syntax's name, the file and the round number.
	OnRound func(syntax, path string, round int)
	// OnSkip, if set, is called for each candidate that is not tested
	// because Normalize rejected it. Calls may be concurrent.
	OnSkip func(path string, err error)
	// OnImprove, if set, is called, serialized, with each smaller
	// failing candidate found.
	OnImprove func(files []File)
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

// Reduce applies the syntaxes' edits to the files for as long as the
// result keeps failing and shrinks (once normalized), round after round,
// until no round of any file makes progress. The files must fail on entry. A candidate is
// only tested when it is smaller than the current text. On cancellation
// Reduce returns the smallest failing files found so far with an error
// wrapping ctx.Err().
func Reduce(ctx context.Context, files []File, test Test, cfg Config) ([]File, Stats, error) {
	r := &reducer{test: test, cfg: cfg, files: append([]File(nil), files...)}
	for progress := true; progress; {
		progress = false
		for i := range r.files {
			if r.files[i].Syntax == nil {
				continue
			}
			for round := 0; ; round++ {
				f := r.files[i]
				edits, more := f.Syntax.Edits(f.Path, f.Data, round)
				if len(edits) > 0 {
					if cfg.OnRound != nil {
						cfg.OnRound(f.Syntax.Name(), f.Path, round)
					}
					r.stats.Rounds++
					improved, err := r.round(ctx, i, edits)
					if err != nil {
						return r.files, r.stats, err
					}
					progress = progress || improved
				}
				if !more {
					break
				}
			}
		}
	}
	return r.files, r.stats, nil
}

type reducer struct {
	test  Test
	cfg   Config
	files []File

	mu    sync.Mutex // guards stats and serializes OnImprove
	stats Stats
}

// round runs delta debugging over the edits of one round of file i: its
// elements are the edits left out, so minimizing them applies as many as
// possible.
func (r *reducer) round(ctx context.Context, i int, edits []Edit) (bool, error) {
	f := r.files[i]
	idx := make([]int, len(edits))
	for k := range idx {
		idx[k] = k
	}
	// The text each set of applied edits yields, once normalized.
	candidate := func(kept []int) ([]byte, error) {
		var apply []Edit
		k := 0
		for j := range edits {
			if k < len(kept) && kept[k] == j {
				k++
				continue
			}
			apply = append(apply, edits[j])
		}
		text, err := Apply(f.Data, apply)
		if err != nil {
			return nil, err
		}
		return f.Syntax.Normalize(f.Path, f.Data, text)
	}
	// The measure of progress: the size of the current text once
	// normalized, which a layout change alone may make larger.
	size := len(f.Data)
	if norm, err := f.Syntax.Normalize(f.Path, f.Data, f.Data); err == nil {
		size = len(norm)
	}
	bestSize := size
	test := func(ctx context.Context, kept []int) reduce.Outcome {
		if len(kept) == len(edits) {
			return reduce.Fail // the current text
		}
		text, err := candidate(kept)
		if err != nil {
			r.mu.Lock()
			r.stats.Skipped++
			r.mu.Unlock()
			if r.cfg.OnSkip != nil {
				r.cfg.OnSkip(f.Path, err)
			}
			return reduce.Unresolved
		}
		if len(text) >= size {
			return reduce.Unresolved // no progress: never worth a test
		}
		files := append([]File(nil), r.files...)
		files[i].Data = text
		r.mu.Lock()
		r.stats.Tests++
		r.mu.Unlock()
		out := r.test(ctx, files)
		if out == reduce.Fail && ctx.Err() == nil {
			r.mu.Lock()
			if len(text) < bestSize {
				bestSize = len(text)
				if r.cfg.OnImprove != nil {
					r.cfg.OnImprove(files)
				}
			}
			r.mu.Unlock()
		}
		return out
	}
	res, err := reduce.DD(ctx, idx, test, reduce.Min, reduce.Config{Workers: r.cfg.Workers})
	if len(res.Fail) < len(edits) {
		text, cerr := candidate(res.Fail)
		if cerr == nil && len(text) < size {
			r.files[i].Data = text
			return true, err
		}
	}
	if err != nil {
		return false, fmt.Errorf("rewrite %s: %w", f.Path, err)
	}
	return false, nil
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
