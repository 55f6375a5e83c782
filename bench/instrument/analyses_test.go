//go:build unix

package main

import (
	"bytes"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestUnrecordedNotes checks which lines of an analysis's standard error
// are kept as notes of what culprit could not record, and that the
// module's notes name each once with the analyses that printed it.
func TestUnrecordedNotes(t *testing.T) {
	asm := "culprit: rank: note: z/hash_amd64.s: not recorded: assembly (functions without a Go body record no entry, exit or statement: sum)"
	cgo := "culprit: slice: note: sqlite3.go: not recorded: it uses cgo (go compiles the code cgo generates from it)"
	pkg := "culprit: flow: note: example.com/c: not instrumented: it uses cgo"
	var many []string
	for i := range maxUnrecorded + 3 {
		many = append(many, fmt.Sprintf("culprit: mine: note: f%d.s: not recorded: assembly", i))
	}
	for _, tc := range []struct {
		name, stderr string
		want         []string
	}{
		{"none", "culprit: rank: 3 failing tests\n", nil},
		{"asm", "culprit: rank: building\n" + asm + "\n" + asm + "\nculprit: rank: done\n", []string{asm}},
		{"cgo", "  " + cgo + "\n" + pkg + "\n", []string{cgo, pkg}},
		{"other notes", "culprit: flow: note: the trace is kept in .culprit\n", nil},
		{"many", strings.Join(many, "\n"), append(many[:maxUnrecorded:maxUnrecorded], "and 3 more")},
	} {
		if got := unrecordedNotes(tc.stderr); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}

	// Each analysis names itself before its notes: the same note from
	// two analyses is listed once.
	r := &result{Module: "m", Fault: &fault{Analyses: []analysis{
		{Name: "rank", Unrecorded: []string{asm}},
		{Name: "slice", Unrecorded: []string{strings.Replace(asm, "rank", "slice", 1), cgo}},
		{Name: "flow"},
		{Name: "mine", Unrecorded: []string{"and 3 more"}},
	}}}
	want := []string{
		"(rank, slice) z/hash_amd64.s: not recorded: assembly (functions without a Go body record no entry, exit or statement: sum)",
		"(slice) sqlite3.go: not recorded: it uses cgo (go compiles the code cgo generates from it)",
		"(mine) and 3 more",
	}
	if got := r.unrecorded(); !reflect.DeepEqual(got, want) {
		t.Errorf("module notes: got %q, want %q", got, want)
	}
}

// TestPrintAnalysesOnly checks the tests' table of results merged from
// an -events none run (the analyses only, no instrumented test run): the
// module's row says so, where printing it used to panic.
func TestPrintAnalysesOnly(t *testing.T) {
	h, _, err := newHarness(t.TempDir(), "stmt,all", time.Minute, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	results := []*result{
		{Module: "a", Version: "v1.0.0", Plain: &run{Elapsed: 1}, Runs: map[string]*run{}, Load: "1.00"},
		{Module: "b", Version: "v1.0.0", Plain: &run{Elapsed: 1}, Runs: map[string]*run{"stmt": {Elapsed: 2}}},
	}
	var out bytes.Buffer
	h.print(&out, results, true)
	for _, m := range []string{"a", "b"} {
		if want := "| " + m + " | v1.0.0 | not run with every event kind of the table"; !strings.Contains(out.String(), want) {
			t.Errorf("no row %q in\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), "| total |") {
		t.Errorf("a total row of no module:\n%s", out.String())
	}
}
