package spectrum_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/culprit-go/culprit/internal/cli"
	"github.com/culprit-go/culprit/internal/instrument"
	"github.com/culprit-go/culprit/spectrum"
	"github.com/culprit-go/culprit/trace"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestAttribution runs testdata/parallel instrumented: parallel subtests,
// a goroutine a test starts, a parent's own code, a skipped test. With
// -parallel=1 the runtime sees one test at a time, and every spectrum must
// be exact; by default parallel siblings may share what ran meanwhile.
func TestAttribution(t *testing.T) {
	needGo(t)
	for _, tc := range []struct {
		name  string
		flags []string
		exact bool // no run may be shared
	}{
		{"parallel", nil, false},
		{"one at a time", []string{"-parallel=1"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) { attribution(t, tc.flags, tc.exact) })
	}
}

func attribution(t *testing.T, flags []string, exact bool) {
	dir, err := filepath.Abs(filepath.Join("testdata", "parallel"))
	if err != nil {
		t.Fatal(err)
	}
	traceDir := t.TempDir()
	var out bytes.Buffer
	res, err := instrument.Run(context.Background(), instrument.Config{
		Dir: dir, Packages: []string{"."}, Events: trace.EventStmt, TraceDir: traceDir, GoFlags: flags,
		Stdout: &out, Stderr: &out, Env: append(os.Environ(), "GOFLAGS=-mod=mod"),
	})
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if res.ExitCode != 1 {
		t.Fatalf("go test exit status %d, want 1 (TestPar/b fails)\n%s", res.ExitCode, out.String())
	}
	s, err := spectrum.Load(traceDir, spectrum.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Each leaf has its own function and its parent's Setup; a leaf that
	// ran in parallel with others (Shared) may also hold what they
	// executed meanwhile (the runtime's documented limit), nothing else.
	own := map[string]string{"TestPar/a": "A", "TestPar/b": "B", "TestPar/c": "C"}
	outcome := map[string]spectrum.Outcome{"TestPar/a": spectrum.Pass, "TestPar/b": spectrum.Fail, "TestPar/c": spectrum.Pass}
	if len(s.Runs) != 3 {
		t.Fatalf("%d runs, want TestPar/a, b and c: %v (notes %v)", len(s.Runs), s.Runs, s.Notes)
	}
	for r, run := range s.Runs {
		if exact && run.Shared {
			t.Errorf("%s ran alone but is marked shared", run.Name)
		}
		funcs := map[string]bool{}
		for _, e := range s.RunEvents(r) {
			f := s.Events[e].Func
			funcs[f[strings.LastIndexByte(f, '.')+1:]] = true
		}
		if run.Outcome != outcome[run.Name] || !funcs[own[run.Name]] || !funcs["Setup"] || !funcs["pick"] || funcs["Skipped"] {
			t.Errorf("%s %s (shared %v): functions %v", run.Name, run.Outcome, run.Shared, funcs)
		}
		for f := range funcs {
			if f != own[run.Name] && f != "Setup" && f != "pick" && !run.Shared {
				t.Errorf("%s ran alone but holds %s", run.Name, f)
			}
		}
	}
	r := spectrum.Rank(s, spectrum.Ochiai)
	if top := s.Events[r.Entries[0].Event]; top.Func != "example.com/parallel.B" || r.Entries[0].Best != 1 {
		t.Errorf("top event %v, want B's statement", top)
	}
}

// TestMiddleGolden runs culprit rank in-process on the examples module's
// middle package and compares the JSON ranking with
// testdata/middle.golden.json: the seed's ranking of middle(), with the
// faulty return y first.
func TestMiddleGolden(t *testing.T) {
	needGo(t)
	golden, err := filepath.Abs(filepath.Join("testdata", "middle.golden.json"))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(filepath.Join("..", "examples"))
	traceArgs := []string{"rank", "-metric", "ochiai", "-format", "json", "./middle"}
	var stdout, stderr bytes.Buffer
	if status := cli.Main(traceArgs, nil, &stdout, &stderr); status != 0 {
		t.Fatalf("culprit rank: status %d\n%s", status, stderr.String())
	}
	var rep struct {
		Passed, Failed int
		Locations      []map[string]any
		Runs           []struct {
			Name   string
			Shared bool
		}
	}
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	// middle's subtests run one after another: none may be marked as
	// sharing its spectrum with another.
	for _, run := range rep.Runs {
		if run.Shared {
			t.Errorf("%s ran alone but is marked shared", run.Name)
		}
	}
	// Notes depend on the runtime's view of the run; the ranking must not.
	slim := map[string]any{"passed": rep.Passed, "failed": rep.Failed, "locations": rep.Locations}
	got, _ := json.MarshalIndent(slim, "", "  ")
	got = append(got, '\n')
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (go test -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("culprit rank ./middle differs from %s (-update to rewrite):\n%s", golden, got)
	}
	if len(rep.Locations) == 0 || rep.Locations[0]["line"] != float64(12) || rep.Locations[0]["rank_worst"] != float64(1) {
		t.Errorf("the faulty return y (middle.go:12) is not alone at the top: %v", rep.Locations[:1])
	}
}

// needGo skips tests that build and run a module's tests under -short or
// without a go command.
func needGo(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs a module's tests")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
}
