package report

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/culprit-go/culprit/diagnosis"
)

// ReadDiagnosisJSON reads what DiagnosisJSON wrote back into a diagnosis
// and what is said about it, so that a diagnosis made by one command (or
// saved with rank -format json) can be shown by another, such as the web
// view. info.Root is not in the JSON: the caller sets it. The functions'
// names, best lines and ranks come back; the lines' sources are read
// again from the files when rendered.
func ReadDiagnosisJSON(r io.Reader) (*diagnosis.Diagnosis, DiagnosisInfo, error) {
	var in JSONDiagnosis
	dec := json.NewDecoder(r)
	if err := dec.Decode(&in); err != nil {
		return nil, DiagnosisInfo{}, fmt.Errorf("read diagnosis: %w", err)
	}
	if in.Kind != "diagnosis" {
		return nil, DiagnosisInfo{}, fmt.Errorf("read diagnosis: kind %q, want \"diagnosis\" (culprit rank -format json without -metric)", in.Kind)
	}
	d := &diagnosis.Diagnosis{Failing: in.Failed, Passing: in.Passed, Weights: in.Weights}
	for _, l := range in.Locations {
		ev := l.Evidence
		d.Lines = append(d.Lines, diagnosis.Line{
			Location: diagnosis.Location{File: l.File, Line: l.Line}, Func: l.Func, Score: l.Score,
			Evidence: diagnosis.Evidence{Spectrum: ev.Spectrum, Event: ev.Event, EF: ev.EF, EP: ev.EP, Sliced: ev.Sliced, Slices: ev.Slices,
				Stack: ev.Stack, StackTop: ev.StackTop, Home: ev.Home, Mutants: ev.Mutants, Changed: ev.Changed, Broke: ev.Broke, Mutation: ev.Mutation, Fix: ev.Fix, Partial: ev.Partial,
				MutantRuns: fromJSONMutants(diagnosis.Location{File: l.File, Line: l.Line}, ev.MutantRuns)},
			Best: l.Rank.Best, Worst: l.Rank.Worst, Rank: l.Rank.Expected,
			FuncBest: l.FuncRank.Best, FuncWorst: l.FuncRank.Worst, FuncRank: l.FuncRank.Expected,
		})
	}
	for _, f := range in.Functions {
		d.Funcs = append(d.Funcs, diagnosis.Func{Name: f.Func, File: f.File, Line: f.Line, Score: f.Score,
			Best: f.Rank.Best, Worst: f.Rank.Worst, Rank: f.Rank.Expected, Mutants: f.Mutants, Mutation: f.Mutation})
	}
	info := DiagnosisInfo{Group: in.Group, Others: in.Others, Together: in.Together, Sources: in.Evidence, Notes: in.Notes}
	return d, info, nil
}
