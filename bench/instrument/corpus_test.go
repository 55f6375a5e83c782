//go:build unix

package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestCorpus checks the corpus: at least 60 entries, each named once,
// every hazard of the list covered and none unknown.
func TestCorpus(t *testing.T) {
	all := corpus()
	if len(all) < 60 {
		t.Errorf("%d modules in the corpus, want at least 60", len(all))
	}
	seen := map[string]bool{}
	covered := map[string]bool{}
	for _, e := range all {
		if seen[e.name()] {
			t.Errorf("%s: twice", e.name())
		}
		seen[e.name()] = true
		for _, h := range e.Hazards {
			if hazards[h] == "" {
				t.Errorf("%s: unknown hazard %q", e.name(), h)
			}
			covered[h] = true
		}
		if e.Packages != nil && e.Why == "" {
			t.Errorf("%s: runs some packages only, and does not say why", e.name())
		}
	}
	for h, what := range hazards {
		if !covered[h] {
			t.Errorf("hazard %s (%s): no module covers it", h, what)
		}
	}
	for _, name := range []string{"github.com/spf13/cobra (vendor)", "github.com/spf13/cobra", "example.com/other"} {
		if got := selectEntries(name); len(got) != 1 || got[0].name() != name {
			t.Errorf("selectEntries(%q) = %v", name, got)
		}
	}
}

// TestParseJSONAddresses checks that subtests named with addresses are
// compared without them.
func TestParseJSONAddresses(t *testing.T) {
	out := []byte(`{"Action":"pass","Package":"p","Test":"TestC/Contains((*A)(0xc000010030))"}
{"Action":"fail","Package":"p","Test":"TestC/Contains((*A)(0xc000010058))"}
{"Action":"pass","Package":"p","Test":"TestD/0x1f"}
{"Action":"output","Package":"p","Output":"panic: test timed out after 20m0s\n"}
{"Action":"output","Package":"p","Output":"\trunning tests:\n"}
{"Action":"output","Package":"p","Output":"panic: again\n"}
`)
	got, _, _, tails := parseJSON(out)
	if tails["p"] != "panic: test timed out after 20m0s" {
		t.Errorf("package p stopped by %q, want the timeout's panic", tails["p"])
	}
	want := map[testKey]string{{"p", "TestC/Contains((*A)(0x?))"}: "fail", {"p", "TestD/0x1f"}: "pass"}
	if len(got) != len(want) {
		t.Fatalf("parseJSON = %v, want %v", got, want)
	}
	for k, o := range want {
		if got[k] != o {
			t.Errorf("%v: %q, want %q", k, got[k], o)
		}
	}
}

// TestReadResultsMerge checks that results read from several -json files
// give one row per module: a re-run's test runs replace the earlier ones,
// an analyses-only run (-events none) adds its analyses to them, with
// the load of the run that made them.
func TestReadResultsMerge(t *testing.T) {
	dir := t.TempDir()
	runs := map[string]*run{"all": {Elapsed: 1}}
	write := func(name string, rs ...*result) string {
		file := filepath.Join(dir, name)
		for _, r := range rs {
			if err := appendResult(file, r); err != nil {
				t.Fatal(err)
			}
		}
		return file
	}
	first := write("a.jsonl",
		&result{Module: "a", Tests: 2, Identical: 1, Runs: runs},
		&result{Module: "b", Tests: 3, Identical: 3, Runs: runs, Fault: &fault{Test: "TestB", Load: "1.00"}, Load: "2.00"},
		&result{Module: "c", Err: "fails plain"})
	second := write("b.jsonl",
		&result{Module: "a", Tests: 2, Identical: 2, Runs: runs},
		&result{Module: "a", Tests: 2, Identical: 2, Fault: &fault{Test: "TestA"}, Load: "3.00"},
		&result{Module: "b", Tests: 3, Identical: 2, Runs: runs},
		&result{Module: "c", Err: "fails plain again"})
	got, err := readResults([]string{first, second})
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, r := range got {
		test := ""
		if r.Fault != nil {
			test = r.Fault.Test + " " + r.Fault.Load
		}
		rows = append(rows, fmt.Sprintf("%s %d/%d %s %s", r.Module, r.Identical, r.Tests, test, r.Err))
	}
	want := []string{"a 2/2 TestA 3.00 ", "b 2/3 TestB 1.00 ", "c 0/0  fails plain again"}
	if strings.Join(rows, "\n") != strings.Join(want, "\n") {
		t.Errorf("merged rows:\n%s\nwant:\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
	}
}
