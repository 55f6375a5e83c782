package web

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/culprit-go/culprit/deps"
	"github.com/culprit-go/culprit/diagnosis"
	"github.com/culprit-go/culprit/flow"
	"github.com/culprit-go/culprit/invariant"
	"github.com/culprit-go/culprit/report"
	"github.com/culprit-go/culprit/source"
	"github.com/culprit-go/culprit/spectrum"
	"github.com/culprit-go/culprit/trace"
)

// Options say what the view shows of a trace.
type Options struct {
	// Metric ranks the events; the zero value is Ochiai.
	Metric spectrum.Metric
	// Kinds are the event kinds ranked; 0 is statements.
	Kinds spectrum.Kinds
	// TestFiles ranks events in _test.go files too.
	TestFiles bool
	// Test names the test whose run is sliced ("TestX/sub"); "" is the
	// first failing leaf test.
	Test string
	// Flow draws the flow graph; its Test defaults to Test.
	Flow flow.Options
	// Contracts are shown beside the source; nil mines them from the
	// trace with invariant's defaults.
	Contracts *invariant.Contracts
	// Dot is the path of Graphviz's dot; "" looks it up on PATH. Where
	// it cannot be run, graph views say so and show the DOT source.
	Dot string
	// Diagnosis is the fused ranking (package diagnosis) made by the
	// caller, as culprit rank makes it: the view runs no tests and no
	// mutants. Where it is given, the ranking page shows it, each line
	// with its evidence, and the single metric's ranking moves to
	// /rank?by=metric; nil shows the single metric's ranking only.
	Diagnosis *diagnosis.Diagnosis
	// DiagnosisInfo is what the ranking page says about the diagnosis:
	// the failing tests diagnosed, the other groups, the evidence
	// gathered, notes. Its Root is ignored (the trace's is used).
	DiagnosisInfo report.DiagnosisInfo
	// Start is the path "/" shows: "" or "/rank" the ranking, or
	// "/source", "/guide", "/mine", "/flow".
	Start string
}

// Server is the view of one trace. It is built once by Load and not
// changed afterwards, so its handler is safe for concurrent use.
type Server struct {
	dir   string // the trace directory, absolute
	root  string // the module root files are relative to
	opt   Options
	dot   string // "" when Graphviz's dot is missing
	notes []string

	ranking *spectrum.Ranking // nil with rankErr
	rankErr error
	run     *deps.Run // the sliced run; nil with sliceErr
	slErr   error
	mined   *invariant.Contracts // nil with mineErr
	mineErr error
	flow    *flow.Graph // nil with flowErr
	flowErr error

	diag map[lineKey]*diagnosis.Line // the diagnosis's lines; nil without one

	files    []string            // files shown, relative to root, slash-separated
	src      map[string][]string // their lines, tabs expanded
	lines    map[lineKey]*lineData
	executed int // lines the sliced (or failing) runs executed
}

// lineKey names a source line.
type lineKey struct {
	file string // relative to the root, slash-separated
	line int
}

func (k lineKey) String() string { return k.file + ":" + strconv.Itoa(k.line) }

// lineData is what the view knows of one executed line.
type lineData struct {
	ranked bool           // the line has a ranked event
	entry  spectrum.Entry // its most suspicious event under the metric
	counts spectrum.Counts
	susp   float64 // Tarantula's suspiciousness, 1 - hue
	hue    float64
	bright float64
	nodes  []int // nodes of the sliced run's graph at the line
}

// Load reads the trace in dir and runs the analyses the view presents,
// each streaming the events files (the trace need not fit in memory).
// An analysis that cannot run on the trace (no failing test, events not
// recorded, an events file that cannot be read) leaves a message in its
// place; Load fails only when the trace's site table cannot be read.
func Load(dir string, opt Options) (*Server, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("trace %s: %w", dir, err)
	}
	st, err := os.Stat(abs)
	if err != nil {
		return nil, fmt.Errorf("trace: %w", err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("trace %s: not a directory", dir)
	}
	d, err := trace.OpenDir(abs)
	if err != nil {
		return nil, fmt.Errorf("read trace: %w", err)
	}
	sites := d.Sites
	if opt.Metric.Score == nil {
		opt.Metric = spectrum.Ochiai
	}
	if opt.Flow.Test == "" {
		opt.Flow.Test = opt.Test
	}
	s := &Server{dir: abs, root: sites.Root, opt: opt, src: map[string][]string{}, lines: map[lineKey]*lineData{}}
	s.dot = findDot(opt.Dot)

	sp, err := spectrum.Load(abs, spectrum.Options{Kinds: opt.Kinds, TestFiles: opt.TestFiles})
	switch {
	case err != nil:
		s.rankErr = fmt.Errorf("rank: %w", bare(err, abs))
	case len(sp.Runs) == 0:
		s.rankErr = errors.New("no test ran: nothing to rank")
	case sp.Failed() == 0:
		s.rankErr = fmt.Errorf("no failing test: nothing to rank (%d tests passed)", sp.Passed())
	default:
		s.ranking = spectrum.Rank(sp, opt.Metric)
		s.notes = append(s.notes, sp.Notes...)
	}

	const stream = trace.EventWrite | trace.EventRead | trace.EventCall
	if sites.Events&stream != stream {
		s.slErr = errors.New("the trace has no dependence events (reads, writes, calls): record it with culprit slice, or culprit test -events all")
		s.flowErr = s.slErr
	} else {
		s.graphs()
	}

	if opt.Contracts != nil {
		s.mined = opt.Contracts
	} else if sites.Events&trace.EventFunc == 0 {
		s.mineErr = errors.New("the trace has no function events: record it with culprit mine, or culprit test -events all")
	} else if cs, err := invariant.Load(abs, invariant.CollectOptions{TestFiles: opt.TestFiles}); err != nil {
		s.mineErr = fmt.Errorf("mine: %w", bare(err, abs))
	} else {
		s.mined = invariant.Mine(cs, invariant.Options{})
	}

	s.index()
	return s, nil
}

// bare returns err without the trace directory a streaming analysis
// names in it ("read trace DIR: events ... were not recorded"): the view
// shows one trace.
func bare(err error, dir string) error {
	if u := errors.Unwrap(err); u != nil && strings.HasPrefix(err.Error(), "read trace "+dir+": ") {
		return u
	}
	return err
}

// graphs builds the graphs of the run the view slices and of the run
// whose flow it draws, with one replay (deps.BuildAllStream): the
// summary graph and the execution-level one, of the same run unless
// Options.Flow names another test. The flow graph is left out, with its
// error, when the slices' graph cannot be built.
func (s *Server) graphs() {
	runs, errs, p := buildRuns(s.dir, deps.Options{Test: s.opt.Test}, deps.Options{Test: s.opt.Flow.Test, Versions: true})
	if p != nil {
		// The execution-level graph's replay is the one still being
		// completed: the slices' graph is built alone.
		runs, errs = make([]*deps.Run, 2), []error{nil, fmt.Errorf("internal error: %v", p)}
		runs[0], errs[0] = deps.BuildStream(s.dir, deps.Options{Test: s.opt.Test})
	}
	if errs[0] != nil {
		s.slErr = fmt.Errorf("slice: %w", errs[0])
		s.flowErr = s.slErr
		return
	}
	s.run = runs[0]
	s.notes = append(s.notes, s.run.Notes...)
	if errs[1] != nil {
		s.flowErr = fmt.Errorf("flow: %w", errs[1])
		return
	}
	s.flow, s.flowErr = buildFlow(runs[1], s.opt.Flow)
}

// buildRuns is deps.BuildAllStream, returning the value of a panic.
func buildRuns(dir string, opts ...deps.Options) (runs []*deps.Run, errs []error, p any) {
	defer func() {
		p = recover()
	}()
	runs, errs = deps.BuildAllStream(dir, opts...)
	return runs, errs, nil
}

// buildFlow draws the flow graph of an execution-level graph, turning a
// panic of the flow package (still being completed) into an error.
func buildFlow(r *deps.Run, opt flow.Options) (g *flow.Graph, err error) {
	defer func() {
		if p := recover(); p != nil {
			g, err = nil, fmt.Errorf("flow: internal error: %v", p)
		}
	}()
	g, err = flow.FromRun(r, opt)
	if err != nil {
		return nil, fmt.Errorf("flow: %w", err)
	}
	return g, nil
}

// findDot returns the path of Graphviz's dot, "" when it is missing.
func findDot(path string) string {
	if path == "" {
		p, err := exec.LookPath("dot")
		if err != nil {
			return ""
		}
		return p
	}
	if _, err := os.Stat(path); err != nil {
		return ""
	}
	return path
}

// rel returns a file's name relative to the root, slash-separated.
func (s *Server) rel(file string) string {
	if filepath.IsAbs(file) && s.root != "" {
		if r, err := filepath.Rel(s.root, file); err == nil && !strings.HasPrefix(r, "..") {
			return filepath.ToSlash(r)
		}
	}
	return filepath.ToSlash(file)
}

// index collects the lines of the ranking and of the sliced run and reads
// their files.
func (s *Server) index() {
	at := func(k lineKey) *lineData {
		d := s.lines[k]
		if d == nil {
			d = &lineData{}
			s.lines[k] = d
		}
		return d
	}
	files := map[string]bool{}
	failing := map[lineKey]bool{}
	if s.ranking != nil {
		for _, e := range s.ranking.Entries {
			ev := s.ranking.Spectra.Events[e.Event]
			if ev.Line == 0 {
				continue
			}
			k := lineKey{ev.File, ev.Line}
			files[k.file] = true
			if e.Counts.EF > 0 {
				failing[k] = true
			}
			d := at(k)
			if d.ranked {
				continue // entries come most suspicious first
			}
			hue, _ := spectrum.Hue(e.Counts)
			d.ranked, d.entry, d.counts = true, e, e.Counts
			d.susp, d.hue, d.bright = 1-hue, hue, spectrum.Brightness(e.Counts)
		}
	}
	if s.run != nil {
		for _, n := range s.run.Nodes {
			k := lineKey{s.rel(n.File), n.Line}
			files[k.file] = true
			failing[k] = true
			d := at(k)
			d.nodes = append(d.nodes, n.ID)
		}
	}
	if d := s.opt.Diagnosis; d != nil {
		s.diag = map[lineKey]*diagnosis.Line{}
		for i := range d.Lines {
			l := &d.Lines[i]
			k := lineKey{filepath.ToSlash(l.File), l.Line}
			files[k.file] = true
			if s.diag[k] == nil {
				s.diag[k] = l
			}
		}
	}
	if s.mined != nil {
		for _, f := range s.mined.Functions {
			if f.File != "" {
				files[filepath.ToSlash(f.File)] = true
			}
		}
	}
	s.executed = len(failing)
	read := source.New(nil) // the replay's files, when it ran
	if s.run != nil {
		read = s.run.Files()
	}
	for f := range files {
		s.files = append(s.files, f)
		name := filepath.FromSlash(f)
		if !filepath.IsAbs(name) {
			name = filepath.Join(s.root, name)
		}
		s.src[f] = read.Lines(name)
	}
	// Files with ranked events first (the code under test), then tests.
	sort.Slice(s.files, func(i, j int) bool {
		ti, tj := strings.HasSuffix(s.files[i], "_test.go"), strings.HasSuffix(s.files[j], "_test.go")
		if ti != tj {
			return tj
		}
		return s.files[i] < s.files[j]
	})
}

// source returns line n of file, "" when unknown.
func (s *Server) source(k lineKey) string {
	ls := s.src[k.file]
	if k.line < 1 || k.line > len(ls) {
		return ""
	}
	return strings.TrimSpace(ls[k.line-1])
}

// parseLine parses "file:line" as the view's links write it.
func parseLine(v string) (lineKey, bool) {
	i := strings.LastIndexByte(v, ':')
	if i <= 0 {
		return lineKey{}, false
	}
	n, err := strconv.Atoi(v[i+1:])
	if err != nil || n < 1 {
		return lineKey{}, false
	}
	return lineKey{v[:i], n}, true
}

// nodeKey returns the line of a node of the sliced run.
func (s *Server) nodeKey(id int) lineKey {
	n := s.run.Nodes[id]
	return lineKey{s.rel(n.File), n.Line}
}

// sliceLines returns the lines holding nodes of a slice.
func (s *Server) sliceLines(sl *deps.Slice) map[lineKey]bool {
	out := map[lineKey]bool{}
	for id := range sl.Nodes {
		out[s.nodeKey(id)] = true
	}
	return out
}
