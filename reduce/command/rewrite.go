package command

import (
	"context"
	"fmt"

	"github.com/culprit-go/culprit/reduce"
	"github.com/culprit-go/culprit/reduce/rewrite"
)

// current returns the input the selections of the running level refer to.
func (x *reduction) current() *Input {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.in
}

// rebase makes files the new current input: the state after rewriting,
// which is no longer a subset of the original's bytes.
func (x *reduction) rebase(files []File) *Input {
	x.mu.Lock()
	defer x.mu.Unlock()
	in := &Input{Name: x.in.Name, Dir: x.in.Dir, Files: files}
	x.in = in
	x.best.fail, x.best.pass = in.all(), in.none()
	return in
}

// parses reports whether each file of a candidate that has a syntax is
// accepted by it; it counts the candidates it rejects. A file whose
// original the syntax itself rejects (it does not parse) is not checked:
// its candidates fail no worse than it. While a level falls back to
// running every candidate (filterOff), nothing is checked.
func (x *reduction) parses(in *Input, files []File) bool {
	x.mu.Lock()
	off := x.filterOff
	x.mu.Unlock()
	if off {
		return true
	}
	orig := map[string][]byte{}
	for _, f := range in.Files {
		orig[f.Path] = f.Data
	}
	checked := false
	for _, f := range files {
		syn := x.Syntax(f.Path)
		if syn == nil || string(f.Data) == string(orig[f.Path]) || x.unparsed[f.Path] {
			continue
		}
		if err := rewrite.Check(syn, f.Path, orig[f.Path], f.Data); err != nil {
			x.skip()
			return false
		}
		checked = true
	}
	if !checked && len(files) < len(in.Files) {
		// Whole files deleted (the files level): the package's other
		// files may need what they declared.
		kept := map[string]bool{}
		for _, f := range files {
			kept[f.Path] = true
		}
		for _, f := range in.Files {
			if _, ok := x.Syntax(f.Path).(rewrite.SetChecker); ok && !kept[f.Path] && !x.unparsed[f.Path] {
				checked = true
				break
			}
		}
	}
	if checked && !x.setsCheck(in.Files, files) {
		x.skip()
		return false
	}
	if checked {
		x.mu.Lock()
		x.accepted++
		x.mu.Unlock()
	}
	return true
}

// layoutOnly reports whether a candidate of a level only changes the
// layout of files whose syntax tells (rewrite.Layout): the blank lines
// the lines level deletes one test each, which the final result loses
// in one (see normalize). It counts such a candidate as skipped.
func (x *reduction) layoutOnly(in *Input, files []File) bool {
	if len(files) != len(in.Files) {
		return false
	}
	changed := false
	for i, f := range files {
		old := in.Files[i]
		if f.Path != old.Path {
			return false
		}
		if string(f.Data) == string(old.Data) {
			continue
		}
		l, ok := x.Syntax(f.Path).(rewrite.Layout)
		if !ok || !l.SameTokens(f.Path, old.Data, f.Data) {
			return false
		}
		changed = true
	}
	if changed {
		x.skip()
	}
	return changed
}

// setsCheck checks the files of a directory candidate together, for the
// syntaxes that check sets of files (the Go files of a package must
// type-check together); old holds the files the candidate derives from.
func (x *reduction) setsCheck(old, files []File) bool {
	if !x.Input.Dir {
		return true
	}
	type set struct{ old, cand []rewrite.File }
	sets := map[rewrite.SetChecker]*set{}
	var order []rewrite.SetChecker
	add := func(fs []File, cand bool) {
		for _, f := range fs {
			sc, ok := x.Syntax(f.Path).(rewrite.SetChecker)
			if !ok || x.unparsed[f.Path] {
				continue
			}
			st := sets[sc]
			if st == nil {
				st = &set{}
				sets[sc] = st
				order = append(order, sc)
			}
			rf := rewrite.File{Path: f.Path, Data: f.Data}
			if cand {
				st.cand = append(st.cand, rf)
			} else {
				st.old = append(st.old, rf)
			}
		}
	}
	add(old, false)
	add(files, true)
	for _, sc := range order {
		if err := sc.CheckSet(sets[sc].old, sets[sc].cand); err != nil {
			return false
		}
	}
	return true
}

// unparsedFiles lists the files of the original input that their syntax
// rejects as they are.
func (r *Reducer) unparsedFiles() map[string]bool {
	out := map[string]bool{}
	for _, f := range r.Input.Files {
		if syn := r.Syntax(f.Path); syn != nil {
			if _, err := syn.Normalize(f.Path, f.Data, f.Data); err != nil {
				out[f.Path] = true
			}
		}
	}
	return out
}

// skip counts a candidate not tested because it does not parse.
func (x *reduction) skip() {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.stats.Skipped++
	x.status()
}

// rewrite runs the syntaxes' tree passes on the files selected by fail.
// It returns the rebased input when they made progress, nil otherwise.
func (x *reduction) rewrite(ctx context.Context, fail selection) (*Input, error) {
	in := x.current()
	files := in.files(fail)
	var rfiles []rewrite.File
	some := false
	for _, f := range files {
		syn := x.Syntax(f.Path)
		some = some || syn != nil
		rfiles = append(rfiles, rewrite.File{Path: f.Path, Data: f.Data, Syntax: syn})
	}
	if !some {
		return nil, nil
	}
	back := func(rfs []rewrite.File) []File {
		out := make([]File, len(rfs))
		for i, rf := range rfs {
			out[i] = File{Path: rf.Path, Data: rf.Data, Mode: files[i].Mode}
		}
		return out
	}
	if x.memory == nil {
		x.memory = &rewrite.Memory{}
	}
	cfg := rewrite.Config{
		Workers: x.Jobs,
		Memory:  x.memory, // what failed alone in the sweeps before
		OnRound: func(syntax, _ string, _ int) {
			x.mu.Lock()
			x.stats.Level = syntax
			x.mu.Unlock()
		},
		OnSkip: func(string, error) { x.skip() },
		OnImprove: func(rfs []rewrite.File) {
			if err := x.saveFiles(back(rfs)); err != nil {
				x.fail(err)
			}
		},
	}
	test := func(ctx context.Context, rfs []rewrite.File) reduce.Outcome {
		cand := back(rfs)
		if !x.setsCheck(files, cand) {
			x.skip()
			return reduce.Unresolved
		}
		return x.testFiles(ctx, cand)
	}
	out, _, err := rewrite.Reduce(ctx, rfiles, test, cfg)
	if fatal := x.fatalErr(); fatal != nil {
		return nil, fatal
	}
	var rebased *Input
	for i := range out {
		if string(out[i].Data) != string(files[i].Data) {
			rebased = x.rebase(back(out))
			break
		}
	}
	if err != nil {
		return rebased, fmt.Errorf("rewrite: %w", err)
	}
	return rebased, nil
}

// saveFiles writes a failing candidate found by rewriting when it is
// smaller than the best result so far.
func (x *reduction) saveFiles(files []File) error {
	weight, size := 0, 0
	for _, f := range files {
		weight += len(f.Data) + 1
		size += len(f.Data)
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if weight >= x.best.fail.weight() {
		return nil
	}
	var err error
	if x.in.Dir {
		err = writeTree(x.Output, files)
	} else {
		err = writeFile(x.Output, files[0].Data, files[0].Mode)
	}
	if err != nil {
		return err
	}
	// Record the weight reached: a selection of the current input of the
	// same weight would do, but the input changes only after the round.
	x.best.fail = selection{{present: true, spans: []Span{{0, weight - 1}}}}
	x.bytes = size
	x.stats.Bytes = size
	x.status()
	return nil
}

// normalize formats the final result with the syntaxes (gofmt for Go,
// the original's indentation for JSON) and keeps it when it still fails;
// first compacted (rewrite.Compacter: without Go's blank lines), then,
// if that does not fail, only formatted.
func (x *reduction) normalize(ctx context.Context, fail selection) (*Input, error) {
	in := x.current()
	orig := in.files(fail)
	format := func(compact bool) ([]File, bool) {
		files := append([]File(nil), orig...)
		changed := false
		for i, f := range files {
			syn := x.Syntax(f.Path)
			if syn == nil {
				continue
			}
			text := f.Data
			if c, ok := syn.(rewrite.Compacter); ok && compact {
				text = c.Compact(f.Path, text)
			}
			norm, err := syn.Normalize(f.Path, f.Data, text)
			if err == nil && string(norm) != string(f.Data) {
				files[i].Data = norm
				changed = true
			}
		}
		return files, changed
	}
	x.mu.Lock()
	x.stats.Level = "format"
	x.mu.Unlock()
	compact, cchanged := format(true)
	plain, pchanged := format(false)
	for _, c := range []struct {
		files   []File
		changed bool
	}{{compact, cchanged}, {plain, pchanged}} {
		if !c.changed {
			continue
		}
		if x.testFiles(ctx, c.files) == reduce.Fail {
			return x.rebase(c.files), nil
		}
		if err := x.fatalErr(); err != nil {
			return nil, err
		}
		if !pchanged || keyOf(compact) == keyOf(plain) {
			break
		}
	}
	return nil, nil
}

// shortcut tests the candidate of one of the Shortcuts on the files
// selected by fail, and returns the rebased input when it fails the same
// way.
func (x *reduction) shortcut(ctx context.Context, fail selection, propose func([]File) []File) (*Input, error) {
	in := x.current()
	files := in.files(fail)
	cand := propose(files)
	size, csize := 0, 0
	for _, f := range files {
		size += len(f.Data)
	}
	for _, f := range cand {
		csize += len(f.Data)
	}
	if cand == nil || csize >= size {
		return nil, nil
	}
	x.mu.Lock()
	x.stats.Level = "shortcut"
	x.mu.Unlock()
	if !x.setsCheck(files, cand) {
		x.skip()
		return nil, nil
	}
	if x.testFiles(ctx, cand) != reduce.Fail {
		return nil, x.fatalErr()
	}
	if err := x.saveFiles(cand); err != nil {
		return nil, err
	}
	return x.rebase(cand), nil
}
