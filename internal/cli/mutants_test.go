package cli

import (
	"reflect"
	"testing"

	"github.com/culprit-go/culprit/diagnosis"
	"github.com/culprit-go/culprit/internal/instrument"
	"github.com/culprit-go/culprit/spectrum"
)

// TestPlanMutants checks what the mutation step mutates: the lines of
// the most suspicious functions in their order, and the function where
// a failing test panicked however low it ranks, its panicking line
// first.
func TestPlanMutants(t *testing.T) {
	line := func(file string, n int, fn string, top bool) diagnosis.Line {
		return diagnosis.Line{Location: diagnosis.Location{File: file, Line: n}, Func: fn, Evidence: diagnosis.Evidence{StackTop: top, Stack: top}}
	}
	tests := []struct {
		name   string
		funcs  []string
		lines  []diagnosis.Line
		ranked []instrument.FileLine
	}{
		{
			name:  "the top functions",
			funcs: []string{"p.A", "p.B", "p.C"},
			lines: []diagnosis.Line{line("a.go", 3, "p.A", false), line("b.go", 7, "p.B", false), line("c.go", 9, "p.C", false)},
			ranked: []instrument.FileLine{{File: "/r/a.go", Line: 3}, {File: "/r/b.go", Line: 7}},
		},
		{
			name:  "and where it panicked",
			funcs: []string{"p.A", "p.B", "p.C"},
			lines: []diagnosis.Line{line("a.go", 3, "p.A", false), line("b.go", 7, "p.B", false), line("c.go", 9, "p.C", true), line("c.go", 10, "p.C", false)},
			ranked: []instrument.FileLine{{File: "/r/c.go", Line: 9}, {File: "/r/a.go", Line: 3}, {File: "/r/b.go", Line: 7}, {File: "/r/c.go", Line: 10}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			first := &diagnosis.Diagnosis{Lines: tt.lines}
			for _, f := range tt.funcs {
				first.Funcs = append(first.Funcs, diagnosis.Func{Name: f})
			}
			p := planMutants(mutationFlags{funcs: 2, passing: 3}, first, diagnosis.Group{}, &spectrum.Spectra{Root: "/r"})
			if !reflect.DeepEqual(p.ranked, tt.ranked) {
				t.Errorf("ranked %v, want %v", p.ranked, tt.ranked)
			}
		})
	}
}
