package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"regexp"
	"slices"
	"strings"
)

// A Corpus is the real-fault corpus: bugs of released Go modules, each
// a buggy release A, the release B that fixed it, and B's regression
// test, made as Defects4J makes its bugs. corpus.json holds it; the
// sources are rebuilt from the module proxy, never committed.
type Corpus struct {
	// About says how the corpus was made, for a reader of the file.
	About []string `json:"about,omitempty"`
	Bugs  []*Bug   `json:"bugs"`
}

// A Bug is one real fault.
type Bug struct {
	ID     string `json:"id"`
	Module string `json:"module"`
	Buggy  string `json:"buggy"` // release A, the version with the fault
	Fixed  string `json:"fixed"` // release B, the next one, which fixes it
	// Package is the regression test's package directory, relative to
	// the module's root ("./" or "./sub").
	Package string `json:"package"`
	// TestFiles are B's files (relative to the module's root) copied over
	// A's tree to make the failing version: _test.go files and test data,
	// never other Go files.
	TestFiles []string `json:"test_files"`
	// FailingTests are the top-level tests that fail on A and pass on B.
	FailingTests []string `json:"failing_tests"`
	// Faults are A's lines that the fix changed (for a pure insertion,
	// the line before it).
	Faults []Fault `json:"faults"`
	Fix    struct {
		NonTestLines int    `json:"nontest_lines_changed"`
		Summary      string `json:"summary"`
	} `json:"fix"`
	// GoFlags is GOFLAGS for every go command on the bug ("-mod=mod"
	// where the release's go.sum is incomplete).
	GoFlags  string `json:"goflags,omitempty"`
	Verified string `json:"verified"`
	Failure  string `json:"failure,omitempty"`
	// Set is "train" (tuned on) or "validation" (never tuned on).
	Set string `json:"set"`
}

// A Fault is a file of A (relative to the module's root) and its faulty
// lines.
type Fault struct {
	File  string `json:"file"`
	Lines []int  `json:"lines"`
}

// Sets of a bug.
const (
	Train      = "train"
	Validation = "validation"
)

var (
	testName = regexp.MustCompile(`^(Test|Example|Fuzz)\w*$`)
	version  = regexp.MustCompile(`^v\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+incompatible)?$`)
)

// LoadCorpus reads the corpus at file and checks every bug.
func LoadCorpus(file string) (*Corpus, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var c Corpus
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	seen := map[string]bool{}
	for i, b := range c.Bugs {
		if err := b.check(); err != nil {
			return nil, fmt.Errorf("%s: bug %d (%s): %w", file, i+1, b.ID, err)
		}
		if seen[b.ID] {
			return nil, fmt.Errorf("%s: bug %d: id %s twice", file, i+1, b.ID)
		}
		seen[b.ID] = true
	}
	return &c, nil
}

func (b *Bug) check() error {
	switch {
	case b.ID == "" || b.Module == "":
		return fmt.Errorf("no id or module")
	case !version.MatchString(b.Buggy) || !version.MatchString(b.Fixed):
		return fmt.Errorf("versions %q, %q: want semantic versions", b.Buggy, b.Fixed)
	case b.Buggy == b.Fixed:
		return fmt.Errorf("buggy and fixed are both %s", b.Buggy)
	case len(b.TestFiles) == 0 || len(b.FailingTests) == 0 || len(b.Faults) == 0:
		return fmt.Errorf("needs test_files, failing_tests and faults")
	case b.Set != Train && b.Set != Validation:
		return fmt.Errorf("set %q: want %q or %q", b.Set, Train, Validation)
	}
	if !strings.HasPrefix(b.Package, "./") && b.Package != "." {
		return fmt.Errorf("package %q: want ./ or ./dir", b.Package)
	}
	for _, t := range b.FailingTests {
		if !testName.MatchString(t) {
			return fmt.Errorf("failing test %q is not a top-level test name", t)
		}
	}
	for _, f := range b.TestFiles {
		if strings.HasSuffix(f, ".go") && !strings.HasSuffix(f, "_test.go") || !local(f) {
			return fmt.Errorf("test file %q: want a _test.go file or test data inside the module", f)
		}
	}
	for _, f := range b.Faults {
		if !strings.HasSuffix(f.File, ".go") || strings.HasSuffix(f.File, "_test.go") || !local(f.File) || len(f.Lines) == 0 {
			return fmt.Errorf("fault %q %v: want lines of a non-test .go file inside the module", f.File, f.Lines)
		}
	}
	return nil
}

// local reports whether a slash path stays inside its root.
func local(p string) bool {
	c := path.Clean(p)
	return c == p && !path.IsAbs(c) && c != ".." && !strings.HasPrefix(c, "../")
}

// Select returns the bugs whose id is in ids (comma-separated; all when
// empty) and whose set is set ("" or "all": both).
func (c *Corpus) Select(ids, set string) ([]*Bug, error) {
	want := map[string]bool{}
	for _, id := range strings.Split(ids, ",") {
		if id = strings.TrimSpace(id); id != "" {
			want[id] = true
		}
	}
	var out []*Bug
	found := map[string]bool{}
	for _, b := range c.Bugs {
		if len(want) > 0 && !want[b.ID] {
			continue
		}
		found[b.ID] = true
		if set != "" && set != "all" && b.Set != set {
			continue
		}
		out = append(out, b)
	}
	var missing []string
	for id := range want {
		if !found[id] {
			missing = append(missing, id)
		}
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		return nil, fmt.Errorf("no bug %s in the corpus", strings.Join(missing, ", "))
	}
	return out, nil
}

// RunPattern is the go test -run pattern of the bug's failing tests.
func (b *Bug) RunPattern() string {
	return "^(" + strings.Join(b.FailingTests, "|") + ")$"
}
