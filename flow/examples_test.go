package flow_test

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/culprit-go/culprit/flow"
	"github.com/culprit-go/culprit/internal/instrument"
	"github.com/culprit-go/culprit/report"
	"github.com/culprit-go/culprit/trace"
)

var update = flag.Bool("update", false, "rewrite testdata/examples.golden")

// TestExamples runs the examples module's deps, myquery, sum and
// listlength tests instrumented, once, and compares the flow graphs of
// the seed's worked examples with testdata/examples.golden.
func TestExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the examples module's tests")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	golden, err := filepath.Abs(filepath.Join("testdata", "examples.golden"))
	if err != nil {
		t.Fatal(err)
	}
	dir, err := filepath.Abs(filepath.Join("..", "examples"))
	if err != nil {
		t.Fatal(err)
	}
	traceDir := t.TempDir()
	var out bytes.Buffer
	_, err = instrument.Run(context.Background(), instrument.Config{
		Dir: dir, Packages: []string{"./deps", "./myquery", "./sum", "./listlength"},
		Events: trace.AllEvents, TraceDir: traceDir, CallLimit: -1, Inlinable: true,
		Stdout: &out, Stderr: &out,
	})
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	tr, err := trace.Open(traceDir)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, reason string
		test         string
		opt          flow.Options
		format       string
	}{
		{"func", "the seed's figure 2.2: func(3, 4, 5) returns x + y, and the graph has no z", "TestFunc", flow.Options{Return: "Func"}, "dot"},
		{"max", "the seed's figure 4.1: max(3, 4), res from b under the else-if's decision, which read a and b", "TestMax", flow.Options{Return: "Max", Call: 1}, "dot"},
		{"max reduced", "figure 4.2: the edge res <- b is implied through the decision", "TestMax", flow.Options{Return: "Max", Call: 1, Reduce: true}, "dot"},
		{"myquery", "figure 4.3: each result row from exactly the agency and the tour it joined", "TestQuery", flow.Options{Return: "Query"}, "text"},
		{"myquery no-cond reduced", "the seed's own view of the join: decisions folded, reduced", "TestQuery", flow.Options{Return: "Query", NoCond: true, Reduce: true}, "dot"},
		{"sum2", "the seed's sum2(2, 2)", "TestSum2Single", flow.Options{Return: "Sum2"}, "text"},
		{"listlength", "recursion: the outermost call's length through every inner call's", "TestListLength", flow.Options{Return: "ListLength"}, "text"},
	}
	var got bytes.Buffer
	for _, tc := range cases {
		g, err := flow.Build(tr, flow.Options{Test: tc.test, Return: tc.opt.Return, Call: tc.opt.Call, Reduce: tc.opt.Reduce, NoCond: tc.opt.NoCond})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		info := report.SliceInfo{Root: dir}
		fmt.Fprintf(&got, "-- %s (%s) --\n", tc.name, g.Test)
		if tc.format == "dot" {
			err = report.FlowDOT(&got, g, info)
		} else {
			err = report.FlowText(&got, g, info)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if *update {
		if err := os.WriteFile(golden, got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (go test -update)", err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		t.Errorf("graphs differ from %s (-update to rewrite):\n%s", golden, got.String())
	}
	// The proof for myquery: each output record depends on exactly
	// the input records it was built from.
	for _, line := range []string{
		"res[0] <= t, t.Name, t.Phone, nameE, phone, te, ta, agencies@0, agencies[0], tours@0, tours[2], \"boat\", 0, 1",
		"res[1] <= t, t.Name, t.Phone, nameE, phone, te, ta, agencies@0, agencies[1], tours@0, tours[3], \"boat\", 0, 1",
	} {
		if !strings.Contains(got.String(), line+"\n") {
			t.Errorf("myquery: no line %q", line)
		}
	}
}
