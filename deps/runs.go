package deps

import "github.com/culprit-go/culprit/trace"

// BuildAll builds the graphs of the runs opts name in one trace held in
// memory, each as Build would, runs[i] opts[i]'s, with one replay: the
// program's sources are read and parsed once for all, and the graphs of
// one process's tests, of either view, are built side by side from one
// pass over its events (the web view draws slice's summary graph and
// flow's execution-level graph of the same run). errs[i] says why
// opts[i]'s graph could not be built, runs[i] being nil.
func BuildAll(tr *trace.Trace, opts ...Options) (runs []*Run, errs []error) {
	runs, errs = make([]*Run, len(opts)), make([]error, len(opts))
	type job struct {
		tests []*trace.Test
		opts  []Options
		at    []int // the indexes of opts
	}
	jobs := map[*trace.Process]*job{}
	var procs []*trace.Process
	for i, opt := range opts {
		proc, test, err := pick(tr, opt.Test)
		if err != nil {
			errs[i] = err
			continue
		}
		if opt.MaxNodes == 0 {
			opt.MaxNodes = max(minNodes, len(proc.Events)/eventsPerNode)
		}
		j := jobs[proc]
		if j == nil {
			j = &job{}
			jobs[proc] = j
			procs = append(procs, proc)
		}
		j.tests, j.opts, j.at = append(j.tests, test), append(j.opts, opt), append(j.at, i)
	}
	if len(procs) == 0 {
		return runs, errs
	}
	prog := newProgram(tr.Sites.Sites)
	for _, proc := range procs {
		j := jobs[proc]
		rs, err := replayEach(tr, prog, proc, j.tests, j.opts, held(proc))
		for k, i := range j.at {
			if err != nil {
				errs[i] = err
			} else {
				runs[i] = rs[k]
			}
		}
	}
	return runs, errs
}
