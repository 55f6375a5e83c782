package gosyntax_test

import (
	"bytes"
	"context"
	"flag"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/culprit-go/culprit/reduce"
	"github.com/culprit-go/culprit/reduce/gosyntax"
	"github.com/culprit-go/culprit/reduce/rewrite"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// oracle is the test of testdata/NAME.go.txt: the candidate matches every
// "// want: REGEXP" line of the input (which the oracle strips). It fails
// the test when given a candidate that does not parse or is not gofmt'd.
func oracle(t *testing.T, src string) (strip func(string) string, test rewrite.Test) {
	var wants []*regexp.Regexp
	var keep []string
	for _, line := range strings.SplitAfter(src, "\n") {
		if w, ok := strings.CutPrefix(line, "// want: "); ok {
			wants = append(wants, regexp.MustCompile(strings.TrimSpace(w)))
			continue
		}
		keep = append(keep, line)
	}
	var mu sync.Mutex
	test = func(_ context.Context, files []rewrite.File) reduce.Outcome {
		data := files[0].Data
		if _, err := parser.ParseFile(token.NewFileSet(), "", data, 0); err != nil {
			mu.Lock()
			t.Errorf("tested a candidate that does not parse: %v\n%s", err, data)
			mu.Unlock()
		}
		if f, err := format.Source(data); err != nil || !bytes.Equal(f, data) {
			mu.Lock()
			t.Errorf("tested a candidate that is not gofmt'd:\n%s", data)
			mu.Unlock()
		}
		for _, w := range wants {
			if !w.Match(data) {
				return reduce.Pass
			}
		}
		return reduce.Fail
	}
	return func(string) string { return strings.Join(keep, "") }, test
}

// TestGolden reduces each testdata/NAME.go.txt against the regular
// expressions of its "// want:" lines and compares with NAME.golden. Each
// input exercises one family of transformations (its name).
func TestGolden(t *testing.T) {
	inputs, _ := filepath.Glob("testdata/*.go.txt")
	if len(inputs) == 0 {
		t.Fatal("no inputs")
	}
	for _, in := range inputs {
		name := strings.TrimSuffix(filepath.Base(in), ".go.txt")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			strip, test := oracle(t, string(data))
			src := strip(string(data))
			files := []rewrite.File{{Path: name + ".go", Data: []byte(src), Syntax: &gosyntax.Syntax{}}}
			out, st, err := rewrite.Reduce(context.Background(), files, test, rewrite.Config{Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			got := string(out[0].Data)
			if test(context.Background(), out) != reduce.Fail {
				t.Errorf("the result does not fail:\n%s", got)
			}
			golden := filepath.Join("testdata", name+".golden")
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("reduced to\n%s\nwant\n%s\n(%+v)", got, want, st)
			}
		})
	}
}
