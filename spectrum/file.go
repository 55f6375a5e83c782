package spectrum

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"sort"
	"strings"
)

// FileFormat and FileVersion open every spectra file.
const (
	FileFormat  = "culprit-spectra"
	FileVersion = 1
)

// File is a spectra file: the runs of one shard (or of a whole suite) and
// the events they had, written by culprit rank -shard and combined by
// culprit rank -merge. It is JSON; docs/rank.md documents it. Fields may
// be added within a version, never renamed or removed.
type File struct {
	Format  string      `json:"format"`  // FileFormat
	Version int         `json:"version"` // FileVersion
	Shard   string      `json:"shard"`   // "i/n", "" for a whole suite
	Kinds   string      `json:"kinds"`   // the event kinds ("stmt,branch")
	Root    string      `json:"root"`    // module root the files are relative to, on the machine that ran
	Events  []FileEvent `json:"events"`  // sorted by position, kind and text
	Runs    []FileRun   `json:"runs"`
	Notes   []string    `json:"notes"`
}

// FileEvent is an event of a File.
type FileEvent struct {
	Kind      string `json:"kind"` // stmt, branch, func, value, pred
	File      string `json:"file"` // relative to the root, slash-separated
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"end_line"`
	EndColumn int    `json:"end_column"`
	Func      string `json:"func"`
	Text      string `json:"text"`
}

// FileRun is a run of a File with the events it had.
type FileRun struct {
	Package string  `json:"package"`
	Name    string  `json:"name"`
	Outcome string  `json:"outcome"` // pass or fail
	Detail  string  `json:"detail,omitempty"`
	Shared  bool    `json:"shared,omitempty"`
	Events  []int32 `json:"events"` // ascending indexes into File.Events
}

// Write writes s as a spectra file holding kinds, for shard ("i/n", or "").
func (s *Spectra) Write(w io.Writer, kinds Kinds, shard string) error {
	f := File{Format: FileFormat, Version: FileVersion, Shard: shard, Kinds: kinds.String(), Root: s.Root,
		Events: make([]FileEvent, len(s.Events)), Runs: make([]FileRun, len(s.Runs)), Notes: s.Notes}
	if f.Notes == nil {
		f.Notes = []string{}
	}
	for i, e := range s.Events {
		f.Events[i] = FileEvent{e.Kind.String(), e.File, e.Line, e.Col, e.EndLine, e.EndCol, e.Func, e.Text}
	}
	for i, r := range s.Runs {
		evs := s.runEvents[i]
		if evs == nil {
			evs = []int32{}
		}
		f.Runs[i] = FileRun{r.Package, r.Name, r.Outcome.String(), r.Detail, r.Shared, evs}
	}
	enc := json.NewEncoder(w)
	return enc.Encode(f)
}

// Read reads a spectra file and returns its spectra and event kinds.
func Read(r io.Reader) (*Spectra, Kinds, error) {
	var f File
	if err := json.NewDecoder(r).Decode(&f); err != nil {
		return nil, 0, fmt.Errorf("read spectra: %w", err)
	}
	if f.Format != FileFormat {
		return nil, 0, fmt.Errorf("read spectra: not a spectra file (format %q, want %q)", f.Format, FileFormat)
	}
	if f.Version != FileVersion {
		return nil, 0, fmt.Errorf("read spectra: version %d, this culprit reads version %d", f.Version, FileVersion)
	}
	kinds, err := ParseKinds(f.Kinds)
	if err != nil {
		return nil, 0, fmt.Errorf("read spectra: %w", err)
	}
	events := make([]Event, len(f.Events))
	for i, e := range f.Events {
		kind := kindByName(e.Kind)
		if kind == 0 {
			return nil, 0, fmt.Errorf("read spectra: event %d: kind %q", i, e.Kind)
		}
		events[i] = Event{kind, e.File, e.Line, e.Column, e.EndLine, e.EndColumn, e.Func, e.Text}
	}
	runs := make([]Run, len(f.Runs))
	sets := make([][]int, len(f.Runs))
	for i, r := range f.Runs {
		runs[i] = Run{Package: r.Package, Name: r.Name, Detail: r.Detail, Shared: r.Shared}
		switch r.Outcome {
		case "pass":
			runs[i].Outcome = Pass
		case "fail":
			runs[i].Outcome = Fail
		default:
			return nil, 0, fmt.Errorf("read spectra: run %s: outcome %q", r.Name, r.Outcome)
		}
		sets[i] = make([]int, len(r.Events))
		for j, e := range r.Events {
			if e < 0 || int(e) >= len(events) {
				return nil, 0, fmt.Errorf("read spectra: run %s: event %d out of range", r.Name, e)
			}
			sets[i][j] = int(e)
		}
	}
	s := build(f.Root, runs, events, sets)
	s.Notes, s.Kinds = f.Notes, kinds
	return s, kinds, nil
}

// Merge combines spectra of the same event kinds, each holding other runs
// (the shards of one suite), into one: the runs of each in order, events
// identified by position, kind and text. Notes are kept once each; a run
// found in several spectra (overlapping shards) is kept each time, with a
// note.
func Merge(all ...*Spectra) *Spectra {
	var b Builder
	if len(all) > 0 {
		b.Root = all[0].Root
	}
	notes := map[string]bool{}
	seen := map[string]int{}
	for _, s := range all {
		for r, run := range s.Runs {
			evs := make([]Event, len(s.runEvents[r]))
			for i, e := range s.runEvents[r] {
				evs[i] = s.Events[e]
			}
			b.Add(run, evs...)
			seen[run.ID()]++
		}
		for _, n := range s.Notes {
			notes[n] = true
		}
	}
	out := b.Spectra()
	if len(all) > 0 {
		out.Kinds = all[0].Kinds
	}
	for id, n := range seen {
		if n > 1 {
			notes[fmt.Sprintf("%s is in %d of the merged files: its run counts %d times", id, n, n)] = true
		}
	}
	for n := range notes {
		out.Notes = append(out.Notes, n)
	}
	sort.Strings(out.Notes)
	return out
}

// ShardOf returns the shard, from 0 to n-1, of the top-level test named
// name: FNV-1a of the name, modulo n. Subtests go with their top-level
// test; the package is not hashed, so that go test -run, which selects by
// name in every package, runs each test in exactly one shard.
func ShardOf(name string, n int) int {
	if i := strings.IndexByte(name, '/'); i >= 0 {
		name = name[:i]
	}
	h := fnv.New32a()
	h.Write([]byte(name))
	return int(h.Sum32() % uint32(n))
}

// ParseShard parses "i/n" (1 <= i <= n) and returns i-1 and n.
func ParseShard(s string) (i, n int, err error) {
	if _, err := fmt.Sscanf(s, "%d/%d", &i, &n); err != nil || n < 1 || i < 1 || i > n || fmt.Sprintf("%d/%d", i, n) != s {
		return 0, 0, fmt.Errorf("shard %q: want i/n with 1 <= i <= n", s)
	}
	return i - 1, n, nil
}

// kindByName returns the kind called name, or 0.
func kindByName(name string) Kind {
	for k, n := range kindNames {
		if n != "" && n == name {
			return Kind(k)
		}
	}
	return 0
}
