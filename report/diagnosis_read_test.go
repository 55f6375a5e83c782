package report

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/culprit-go/culprit/diagnosis"
)

// TestDiagnosisJSONRoundTrip writes a diagnosis as JSON and reads it back
// (the web view shows a diagnosis rank made this way).
func TestDiagnosisJSONRoundTrip(t *testing.T) {
	ev := diagnosis.Evidence{Spectrum: 0.7071067811865475, Event: "branch if true", EF: 1, EP: 1, Sliced: 1, Slices: 2,
		Stack: true, StackTop: true, Mutants: 6, Changed: 4, Broke: 5, Mutation: 0.7071067811865475, Fix: 0.5}
	d := &diagnosis.Diagnosis{
		Lines: []diagnosis.Line{
			{Location: diagnosis.Location{File: "middle/middle.go", Line: 12}, Func: "example.com/middle.Middle", Score: 2.169, Evidence: ev,
				Best: 1, Worst: 2, Rank: 1.5, FuncBest: 1, FuncWorst: 1, FuncRank: 1},
			{Location: diagnosis.Location{File: "middle/middle.go", Line: 11}, Func: "example.com/middle.Middle", Score: 2.169,
				Evidence: diagnosis.Evidence{Event: "stmt"}, Best: 1, Worst: 2, Rank: 1.5, FuncBest: 1, FuncWorst: 1, FuncRank: 1},
		},
		Funcs:   []diagnosis.Func{{Name: "example.com/middle.Middle", File: "middle/middle.go", Line: 12, Score: 2.169, Best: 1, Worst: 1, Rank: 1, Mutants: 2, Mutation: 0.5}},
		Failing: 1, Passing: 5, Weights: diagnosis.DefaultWeights,
	}
	info := DiagnosisInfo{
		Group:   Group{Signature: "check middle_test.go: Middle(N, N, N) = N, want N", Tests: []string{"TestMiddle/2_1_3"}},
		Others:  []Group{{Signature: "panic: boom", Tests: []string{"TestOther"}}},
		Sources: []string{"spectra (statements, branches)", "mutants (20)"},
		Notes:   []string{"a note"},
	}
	var buf bytes.Buffer
	if err := DiagnosisJSON(&buf, d, info, 0); err != nil {
		t.Fatal(err)
	}
	got, gotInfo, err := ReadDiagnosisJSON(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, d) {
		t.Errorf("diagnosis read back:\n%+v\nwant\n%+v", got, d)
	}
	if !reflect.DeepEqual(gotInfo, info) {
		t.Errorf("info read back:\n%+v\nwant\n%+v", gotInfo, info)
	}

	if _, _, err := ReadDiagnosisJSON(strings.NewReader(`{"kind": "ranking"}`)); err == nil || !strings.Contains(err.Error(), "want \"diagnosis\"") {
		t.Errorf("a single-metric ranking read as a diagnosis: %v, want an error", err)
	}
}
