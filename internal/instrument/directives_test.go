package instrument

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/culprit-go/culprit/trace"
)

// TestExampleOutput runs the hazards fixture's examples instrumented with
// every event kind: each runs as an example with output (go test takes the
// body's last comment as the output, vet wants it last, so no comment the
// instrumenter adds may follow it), and the //line-mapped function reports
// its mapped position (TestHazards checks its value).
func TestExampleOutput(t *testing.T) {
	dir, _ := filepath.Abs("testdata/hazards")
	var out bytes.Buffer
	res, err := Run(context.Background(), Config{Dir: dir, Packages: []string{"."}, Events: trace.AllEvents,
		TraceDir: t.TempDir(), Stdout: &out, Stderr: &out, GoFlags: []string{"-v", "-run", "Example|TestHazards$"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 0 {
		t.Fatalf("exit %d:\n%s", res.ExitCode, out.Bytes())
	}
	for _, ex := range []string{"ExampleSum", "ExampleSum_trailing", "ExampleSum_unordered", "TestHazards"} {
		if !strings.Contains(out.String(), "--- PASS: "+ex+" ") {
			t.Errorf("%s did not run and pass:\n%s", ex, out.Bytes())
		}
	}
}

func TestLineDirectiveFile(t *testing.T) {
	tests := []struct{ text, want string }{
		{"a.y:10", "a.y"},
		{"a.y:10:3", "a.y"},
		{"/x/a.y:1", "/x/a.y"},
		{"c:\\x\\a.y:7:2", "c:\\x\\a.y"},
		{":10:3", ""},
		{"nonumber", ""},
	}
	for _, tt := range tests {
		if got := lineDirectiveFile(tt.text); got != tt.want {
			t.Errorf("lineDirectiveFile(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

func TestGoMinor(t *testing.T) {
	tests := []struct {
		v    string
		want int
	}{{"go1.26.8", 26}, {"go1.21", 21}, {"go1.22rc1", 22}, {"devel go1.27-abc", 27}, {"", 0}, {"gccgo", 0}}
	for _, tt := range tests {
		if got := goMinor(tt.v); got != tt.want {
			t.Errorf("goMinor(%q) = %d, want %d", tt.v, got, tt.want)
		}
	}
}
