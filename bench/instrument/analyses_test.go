//go:build unix

package main

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
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

	r := &result{Module: "m", Fault: &fault{Analyses: []analysis{
		{Name: "rank", Unrecorded: []string{asm}},
		{Name: "slice", Unrecorded: []string{asm, cgo}},
		{Name: "flow"},
	}}}
	want := []string{"(rank, slice) " + asm, "(slice) " + cgo}
	if got := r.unrecorded(); !reflect.DeepEqual(got, want) {
		t.Errorf("module notes: got %q, want %q", got, want)
	}
}
