package examplestest

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/culprit-go/culprit/internal/cli"
)

// TestReduceExamples runs culprit reduce, in-process, on the examples'
// crash inputs against their commands, and checks the results against the
// seed's: the mystery input reduces to "()", the markup page to `">`, and
// the byte-level minimal difference of the mystery input is the seed's
// passing/failing pair.
func TestReduceExamples(t *testing.T) {
	dir := goExamples(t)
	bin := t.TempDir()
	for _, cmd := range []string{"mystery", "htmlmarkup"} {
		build := goCommand(dir, "build", "-o", filepath.Join(bin, cmd), "./"+cmd+"/cmd/"+cmd)
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("building %s: %v\n%s", cmd, err, out)
		}
	}
	tests := []struct {
		name     string
		input    string // relative to the examples module
		cmd      string
		flags    []string
		want     string // the reduced (failing) result
		wantPass string // the passing result, for --mode diff
	}{
		{"mystery", "mystery/testdata/crash.txt", "mystery", nil, "()", ""},
		{"htmlmarkup", "htmlmarkup/testdata/crash.html", "htmlmarkup", nil, `">`, ""},
		{"mystery max", "mystery/testdata/crash.txt", "mystery", []string{"--mode", "max", "--levels", "bytes"},
			"", `V"/+!aF-V4EOz*+s/Q,7)2@0_`},
		{"mystery diff", "mystery/testdata/crash.txt", "mystery", []string{"--mode", "diff", "--levels", "bytes"},
			`(z*+s/Q,7)2@0_`, `z*+s/Q,7)2@0_`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			original, err := os.ReadFile(filepath.Join(dir, tc.input))
			if err != nil {
				t.Fatal(err)
			}
			input := filepath.Join(t.TempDir(), filepath.Base(tc.input))
			if err := os.WriteFile(input, original, 0o644); err != nil {
				t.Fatal(err)
			}
			args := append([]string{"reduce", "--json"}, tc.flags...)
			args = append(args, input, "--", filepath.Join(bin, tc.cmd))
			var stdout, stderr bytes.Buffer
			if status := cli.Main(args, strings.NewReader(""), &stdout, &stderr); status != 0 {
				t.Fatalf("culprit %s: exit status %d\n%s", strings.Join(args, " "), status, stderr.String())
			}
			var summary struct {
				Result  string `json:"result"`
				Passing string `json:"passing"`
				Tests   int    `json:"tests"`
			}
			if err := json.Unmarshal(stdout.Bytes(), &summary); err != nil {
				t.Fatalf("--json output: %v\n%s", err, stdout.String())
			}
			if tc.want != "" {
				got, err := os.ReadFile(summary.Result)
				if err != nil {
					t.Fatal(err)
				}
				if string(got) != tc.want {
					t.Errorf("reduced to %q, want %q", got, tc.want)
				}
			}
			if tc.wantPass != "" {
				got, err := os.ReadFile(summary.Passing)
				if err != nil {
					t.Fatal(err)
				}
				if string(got) != tc.wantPass {
					t.Errorf("passing input %q, want %q", got, tc.wantPass)
				}
			}
			if after, _ := os.ReadFile(input); !bytes.Equal(after, original) {
				t.Errorf("the original input was modified")
			}
		})
	}
}
