package deps

import (
	"os"

	"github.com/culprit-go/culprit/trace"
)

// BuildAll builds the graphs of the runs opts name in one trace held in
// memory, each as Build would, runs[i] opts[i]'s, with one replay: the
// program's sources are read and parsed once for all, and the graphs of
// one process's tests, of either view, are built side by side from one
// pass over its events (the web view draws slice's summary graph and
// flow's execution-level graph of the same run). errs[i] says why
// opts[i]'s graph could not be built, runs[i] being nil.
func BuildAll(tr *trace.Trace, opts ...Options) (runs []*Run, errs []error) {
	return buildAll(tr, opts, held, func(proc *trace.Process) int {
		return max(minNodes, len(proc.Events)/eventsPerNode)
	})
}

// BuildAllStream is BuildAll for a trace directory whose events are not
// held in memory, as BuildStream: one pass over each events file finds
// the tests, and one more replays the records of all the runs of its
// process that opts name as they are decoded (a diagnosis slicing every
// failing test of a package).
func BuildAllStream(dir string, opts ...Options) (runs []*Run, errs []error) {
	d, tr, err := openStream(dir)
	if err != nil {
		errs = make([]error, len(opts))
		for i := range errs {
			errs[i] = err
		}
		return make([]*Run, len(opts)), errs
	}
	return buildAll(tr, opts, func(proc *trace.Process) events { return stream(d, proc) }, func(proc *trace.Process) int {
		if fi, err := os.Stat(proc.File); err == nil {
			return max(minNodes, int(fi.Size()/(eventBytes*eventsPerNode)))
		}
		return minNodes
	})
}

// buildAll is BuildAll over the events each process's pass calls back
// with, an execution-level graph's default bound on its nodes given by
// maxNodes (Options.MaxNodes).
func buildAll(tr *trace.Trace, opts []Options, pass func(*trace.Process) events, maxNodes func(*trace.Process) int) (runs []*Run, errs []error) {
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
			opt.MaxNodes = maxNodes(proc)
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
		rs, err := replayEach(tr, prog, proc, j.tests, j.opts, pass(proc))
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
