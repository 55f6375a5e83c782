package deps

import "github.com/culprit-go/culprit/trace"

// LeafRuns returns the graphs CheckedCoverage builds from the trace in
// dir, batch tests per read of an events file.
func LeafRuns(dir string, batch int) ([]*Run, error) {
	var out []*Run
	err := leafRuns(dir, batch, func(_ *trace.Trace, _ *trace.Test, r *Run) { out = append(out, r) })
	return out, err
}

// CheckedInMemory is checked coverage as it was computed from a trace
// held in memory: each leaf test replayed alone from its process's
// events, with its own parsed source; its graphs are returned too.
// CheckedCoverage and LeafRuns must equal them.
func CheckedInMemory(tr *trace.Trace) ([]*Coverage, []*Run, error) {
	var covs []*Coverage
	var runs []*Run
	for _, p := range tr.Processes {
		for _, t := range leafTests(p) {
			r, err := build(tr, p, t, Options{})
			if err != nil {
				return nil, nil, err
			}
			covs = append(covs, coverage(&tr.Sites, t, r))
			runs = append(runs, r)
		}
	}
	return covs, runs, nil
}
