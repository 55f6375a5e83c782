package command

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/culprit-go/culprit/reduce"
	"github.com/culprit-go/culprit/reduce/oracle"
)

// helperEnv makes the test binary act as the seed's mystery program on
// the file or directory named by its argument, instead of running tests.
const helperEnv = "CULPRIT_COMMAND_HELPER"

func TestMain(m *testing.M) {
	switch os.Getenv(helperEnv) {
	case "mystery":
		mystery(readAll(os.Args[1]))
		os.Exit(0)
	case "gofmt":
		gofmt(os.Args[1])
		os.Exit(0)
	case "jsonbug":
		jsonbug(os.Args[1])
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// readAll returns a file's content, or a directory's files concatenated
// in lexical order.
func readAll(path string) string {
	var b strings.Builder
	filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			data, _ := os.ReadFile(p)
			b.Write(data)
		}
		return nil
	})
	return b.String()
}

// mystery fails when a '(' precedes a ')'.
func mystery(s string) {
	x, y := strings.Index(s, "("), strings.Index(s, ")")
	if x >= 0 && y >= 0 && x < y {
		panic("Invalid input")
	}
}

const seedInput = `V"/+!aF-(V4EOz*+s/Q,7)2@0_`

// newReducer returns a reducer of the file or directory at path against
// the mystery helper, with results in the same directory.
func newReducer(t *testing.T, path string, mode reduce.Mode, jobs int, levels []Level) *Reducer {
	t.Helper()
	in, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	return &Reducer{
		Input: in,
		Command: oracle.Command{
			Args: []string{os.Args[0]},
			// A race-enabled binary sleeps a second at exit unless told not to.
			Env:     append(os.Environ(), helperEnv+"=mystery", "GORACE=atexit_sleep_ms=0"),
			Timeout: time.Minute, // results must not depend on the machine's load
		},
		Judge:   oracle.Judge{Rule: oracle.GoPanic},
		Mode:    mode,
		Levels:  levels,
		Jobs:    jobs,
		Output:  path + ".reduced",
		Passing: path + ".passing",
	}
}

func run(t *testing.T, r *Reducer) Summary {
	t.Helper()
	if err := r.Check(context.Background()); err != nil {
		t.Fatal(err)
	}
	sum, err := r.Reduce(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return sum
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestSeed checks the seed's worked example at the bytes level, where
// delta debugging over a file is delta debugging over a string, for
// several numbers of jobs: the result must not depend on them.
func TestSeed(t *testing.T) {
	tests := []struct {
		mode       reduce.Mode
		fail, pass string
	}{
		{reduce.Min, "()", ""},
		{reduce.Max, "", `V"/+!aF-V4EOz*+s/Q,7)2@0_`},
		{reduce.Diff, "(z*+s/Q,7)2@0_", "z*+s/Q,7)2@0_"},
	}
	for _, tt := range tests {
		for _, jobs := range []int{1, 2, 4} {
			path := filepath.Join(t.TempDir(), "in.txt")
			os.WriteFile(path, []byte(seedInput), 0o644)
			r := newReducer(t, path, tt.mode, jobs, []Level{Bytes})
			sum := run(t, r)
			if tt.mode&reduce.Min != 0 {
				if got := readFile(t, r.Output); got != tt.fail {
					t.Errorf("%v jobs %d: failing %q, want %q", tt.mode, jobs, got, tt.fail)
				}
			}
			if tt.mode&reduce.Max != 0 {
				if got := readFile(t, r.Passing); got != tt.pass {
					t.Errorf("%v jobs %d: passing %q, want %q", tt.mode, jobs, got, tt.pass)
				}
			}
			if got := readFile(t, path); got != seedInput {
				t.Errorf("%v: the original changed to %q", tt.mode, got)
			}
			if sum.OriginalBytes != len(seedInput) || sum.Tests == 0 {
				t.Errorf("%v: summary %+v", tt.mode, sum)
			}
		}
	}
}

// TestDirDeterministic reduces a directory in every mode with 1 and 4
// jobs and checks that the results are the same.
func TestDirDeterministic(t *testing.T) {
	files := map[string]string{
		"a.txt":     "nothing here\n",
		"b/c.txt":   "left ( and\nmore text\n",
		"b/d.txt":   "no parens\nright ) here\n",
		"e/f/g.txt": ") (\n",
	}
	for _, mode := range []reduce.Mode{reduce.Min, reduce.Max, reduce.Diff} {
		var results []string
		for _, jobs := range []int{1, 4} {
			dir := filepath.Join(t.TempDir(), "proj")
			for name, data := range files {
				p := filepath.Join(dir, name)
				os.MkdirAll(filepath.Dir(p), 0o755)
				os.WriteFile(p, []byte(data), 0o644)
			}
			r := newReducer(t, dir, mode, jobs, nil)
			sum := run(t, r)
			got := treeString(t, r.Output) + " / " + treeString(t, r.Passing) + " / " + strings.ReplaceAll(sum.Diff, dir, "DIR")
			results = append(results, got)
			if mode&reduce.Min != 0 {
				// The result still fails.
				if s := readAll(r.Output); !strings.Contains(s, "(") || strings.Index(s, "(") > strings.Index(s, ")") {
					t.Errorf("%v: result %q does not fail", mode, s)
				}
			}
		}
		if results[0] != results[1] {
			t.Errorf("%v: jobs 1 gave %q, jobs 4 gave %q", mode, results[0], results[1])
		}
	}
}

func treeString(t *testing.T, dir string) string {
	var parts []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			data, _ := os.ReadFile(p)
			parts = append(parts, rel+"="+string(data))
		}
		return nil
	})
	sort.Strings(parts)
	return strings.Join(parts, ",")
}

func TestCheckErrors(t *testing.T) {
	dir := t.TempDir()
	ok := filepath.Join(dir, "ok.txt")
	os.WriteFile(ok, []byte(")("), 0o644)
	r := newReducer(t, ok, reduce.Min, 1, nil)
	if err := r.Check(context.Background()); !errors.Is(err, oracle.ErrNotFailing) {
		t.Errorf("Check on a passing input = %v, want ErrNotFailing", err)
	}

	// Maximizing needs a passing empty input: here any input fails.
	bad := filepath.Join(dir, "bad.txt")
	os.WriteFile(bad, []byte("x"), 0o644)
	r = newReducer(t, bad, reduce.Max, 1, nil)
	r.Command = oracle.Command{Args: []string{"false"}}
	r.Judge = oracle.Judge{Rule: oracle.ExitStatus}
	if err := r.Check(context.Background()); !errors.Is(err, ErrNotPassing) {
		t.Errorf("Check = %v, want ErrNotPassing", err)
	}
}

// TestInterrupt cancels a reduction from its first improvement on and
// checks that the best result so far is on disk.
func TestInterrupt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "in.txt")
	os.WriteFile(path, []byte(seedInput), 0o644)
	r := newReducer(t, path, reduce.Min, 1, []Level{Bytes})
	if err := r.Check(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r.OnTest = func(e Event) {
		if e.Number >= 6 {
			cancel()
		}
	}
	sum, err := r.Reduce(ctx)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Reduce = %v, want context.Canceled", err)
	}
	got := readFile(t, r.Output)
	if len(got) != sum.FinalBytes || len(got) >= len(seedInput) {
		t.Errorf("result %q (%d bytes), summary says %d", got, len(got), sum.FinalBytes)
	}
	if x, y := strings.Index(got, "("), strings.Index(got, ")"); x < 0 || y < x {
		t.Errorf("the saved result %q does not fail", got)
	}
}
