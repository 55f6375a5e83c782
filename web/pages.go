package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html/template"
	"math"
	"net/http"
	"net/url"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/culprit-go/culprit/deps"
	"github.com/culprit-go/culprit/report"
	"github.com/culprit-go/culprit/spectrum"
)

// page is what every template gets: the layout's fields and the page's
// own data in Body.
type page struct {
	Title    string
	Nav      string // the active section: rank, source, guide, graph, flow, mine
	Trace    string
	Run      string // the sliced run: "TestX/sub (fail)"
	Header   string // the ranking's summary
	Notes    []string
	StoreKey string // the browser's local storage key for marks
	Body     any
}

// render executes a page template, answering 500 when it fails.
func (s *Server) render(w http.ResponseWriter, name string, p page) {
	p.Trace = s.dir
	p.StoreKey = "culprit:" + s.dir
	if s.run != nil {
		p.Run = s.run.Test + " (" + s.run.Outcome.String() + ")"
	}
	if s.ranking != nil {
		p.Header = report.Header(s.ranking)
	}
	var buf bytes.Buffer
	if err := templates.ExecuteTemplate(&buf, name, p); err != nil {
		http.Error(w, fmt.Sprintf("web: render %s: %v", name, err), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write(buf.Bytes())
}

// start serves the start page.
func (s *Server) start(w http.ResponseWriter, r *http.Request) {
	switch s.opt.Start {
	case "/source":
		s.sourcePage(w, r)
	case "/guide":
		s.guidePage(w, r)
	case "/mine":
		s.minePage(w, r)
	case "/flow":
		s.flowPage(w, r)
	default:
		s.rankPage(w, r)
	}
}

// sourceURL links to a line in the source view, selecting it.
func sourceURL(k lineKey) string {
	return "/source?sel=" + url.QueryEscape(k.String()) + "#L" + k.String()
}

// lineTip is a line's tooltip: its counts and scores, and its place in
// the diagnosis where there is one.
func (s *Server) lineTip(k lineKey, d *lineData) string {
	tip := s.spectrumTip(k, d)
	if l := s.diag[k]; l != nil {
		tip += fmt.Sprintf("; diagnosis rank %s, score %s: %s", rangeText(l.Best, l.Worst), scoreText(l.Score), report.DiagnosisWhy(l.Evidence))
	}
	return tip
}

// spectrumTip is what lineTip says of a line's spectrum.
func (s *Server) spectrumTip(k lineKey, d *lineData) string {
	if d == nil || !d.ranked {
		if d != nil && len(d.nodes) > 0 {
			return fmt.Sprintf("Line %d: executed by %s (not ranked)", k.line, s.run.Test)
		}
		return fmt.Sprintf("Line %d: not executed", k.line)
	}
	c := d.counts
	return fmt.Sprintf("Line %d: %d of %d failing and %d of %d passing runs; Tarantula %s; %s %s, rank %s",
		k.line, c.EF, c.Failed(), c.EP, c.Passed(), scoreText(d.susp), s.ranking.Metric.Name, scoreText(d.entry.Score), rankText(d.entry))
}

// color is a line's background: Tarantula's continuous spectrum, hue
// from red (failing runs only) to green (passing runs only), saturation
// from the larger fraction.
func color(d *lineData) template.CSS {
	if d == nil || !d.ranked {
		return ""
	}
	return template.CSS(fmt.Sprintf("background-color: hsl(%.0f, %.0f%%, 80%%)", d.hue*120, d.bright*100))
}

func scoreText(x float64) string {
	if math.IsInf(x, 1) {
		return "+Inf"
	}
	return strconv.FormatFloat(x, 'f', 3, 64)
}

func rankText(e spectrum.Entry) string {
	if e.Best == e.Worst {
		return strconv.Itoa(e.Best)
	}
	return fmt.Sprintf("%d-%d", e.Best, e.Worst)
}

// rankRow is one entry of the ranking page.
type rankRow struct {
	Rank, Score, Pos, Event, Source, Link, Tip string
	EF, EP                                     int
	Style                                      template.CSS
}

func (s *Server) rankPage(w http.ResponseWriter, r *http.Request) {
	if s.opt.Diagnosis != nil && r.URL.Query().Get("by") != "metric" {
		s.diagnosisPage(w, r)
		return
	}
	body := struct {
		Error     string
		Metric    spectrum.Metric
		Rows      []rankRow
		Diagnosed bool // the diagnosis is on /rank, this is /rank?by=metric
	}{Diagnosed: s.opt.Diagnosis != nil}
	if s.ranking == nil {
		body.Error = s.rankErr.Error()
	} else {
		body.Metric = s.ranking.Metric
		sp := s.ranking.Spectra
		for _, e := range s.ranking.Entries {
			ev := sp.Events[e.Event]
			k := lineKey{ev.File, ev.Line}
			d := s.lines[k]
			text := ev.Kind.String()
			if ev.Text != "" {
				text += " " + ev.Text
			}
			body.Rows = append(body.Rows, rankRow{Rank: rankText(e), Score: scoreText(e.Score), EF: e.Counts.EF, EP: e.Counts.EP,
				Pos: ev.Pos(), Event: text, Source: s.source(k), Link: sourceURL(k), Tip: s.lineTip(k, d), Style: color(d)})
		}
	}
	s.render(w, "rank.html", page{Title: "ranking", Nav: "rank", Notes: s.notes, Body: body})
}

// diagRow is one line of the diagnosis page.
type diagRow struct {
	Rank, FuncRank, Score, Pos, Func, Source, Link, Tip string
	Spectrum, Event                                     string // the line's best spectrum score and its event
	EF, EP                                              int
	Slice                                               string // "k/n" of the sliced tests, "" when none were sliced
	InSlice                                             bool
	Stack                                               string // "top" (panicked here), "yes" or ""
	Mutants                                             string // "changed/run", "" when none ran
	Broke                                               int
	Fix                                                 string // the best fixing mutant's share of the failing tests, "" when none
	Style                                               template.CSS
}

// weightText is one weight of the diagnosis, as the page explains it.
type weightText struct {
	Name, Value, Of string
}

// diagnosisPage is the ranking page with a diagnosis: every line the
// failing tests executed, by its fused score, with the evidence for it.
func (s *Server) diagnosisPage(w http.ResponseWriter, r *http.Request) {
	d, info := s.opt.Diagnosis, s.opt.DiagnosisInfo
	body := struct {
		Failing, Passing int
		Group            report.Group
		Others           []report.Group
		Sources          []string
		Weights          []weightText
		Metric           string // the single metric the other tab ranks by
		Size             string // "4 lines in 1 function"
		Rows             []diagRow
	}{Failing: d.Failing, Passing: d.Passing, Group: info.Group, Others: info.Others, Sources: info.Sources,
		Metric: s.opt.Metric.Name, Size: count(len(d.Lines), "line") + " in " + count(len(d.Funcs), "function")}
	wt := d.Weights
	num := func(x float64) string { return strconv.FormatFloat(x, 'g', 3, 64) }
	body.Weights = []weightText{
		{"spectrum", num(wt.Spectrum), "the best Ochiai score among the line's events (statement, branch outcomes)"},
		{"slice", num(wt.Slice), "the share of the sliced failing tests whose backward slice holds the line"},
		{"stack", num(wt.Stack), "the innermost ranked frame of a failing test's panic stack (half for an outer frame)"},
		{"mutation", num(wt.Mutation), "the line's best mutant score: failing tests it changed against passing tests it broke"},
		{"func", num(wt.Func), "the best spectrum score in the line's function"},
		{"fix", num(wt.Fix), "the share of failing tests a mutant of the line made pass, breaking no passing test"},
		{"partial", num(wt.Partial), "the share of the failing tests' failure reports a mutant of the line removed, adding none, times the share of passing tests it left passing"},
	}
	for i := range d.Lines {
		l := &d.Lines[i]
		k := lineKey{filepath.ToSlash(l.File), l.Line}
		ev := l.Evidence
		row := diagRow{Rank: rangeText(l.Best, l.Worst), FuncRank: rangeText(l.FuncBest, l.FuncWorst), Score: scoreText(l.Score),
			Pos: k.String(), Func: shortFunc(l.Func), Source: s.source(k), Link: sourceURL(k),
			Tip:      fmt.Sprintf("%s (%s): %s", k, l.Func, report.DiagnosisWhy(ev)),
			Spectrum: scoreText(ev.Spectrum), Event: ev.Event, EF: ev.EF, EP: ev.EP, Broke: ev.Broke, Style: color(s.lines[k])}
		if ev.Slices > 0 {
			row.Slice, row.InSlice = fmt.Sprintf("%d/%d", ev.Sliced, ev.Slices), ev.Sliced > 0
		}
		switch {
		case ev.StackTop:
			row.Stack = "top"
		case ev.Stack:
			row.Stack = "yes"
		}
		if ev.Mutants > 0 {
			row.Mutants = fmt.Sprintf("%d/%d", ev.Changed, ev.Mutants)
		}
		switch {
		case ev.Fix > 0:
			row.Fix = strconv.FormatFloat(100*ev.Fix, 'f', 0, 64) + "%"
		case ev.Partial > 0:
			row.Fix = "part " + strconv.FormatFloat(100*ev.Partial, 'f', 0, 64) + "%"
		}
		body.Rows = append(body.Rows, row)
	}
	notes := append(append([]string(nil), info.Notes...), s.notes...)
	s.render(w, "diagnosis.html", page{Title: "diagnosis", Nav: "rank", Notes: notes, Body: body})
}

// count is "1 line", "2 lines".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// rangeText is a position with ties: "3", or "3-5" for a tie group.
func rangeText(best, worst int) string {
	if best == worst {
		return strconv.Itoa(best)
	}
	return fmt.Sprintf("%d-%d", best, worst)
}

// shortFunc drops a function's package path but for its last element:
// "example.com/middle.Middle" is "middle.Middle".
func shortFunc(name string) string {
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		return name[i+1:]
	}
	return name
}

// srcFile is one file of the source page.
type srcFile struct {
	Name  string
	Lines []srcLine
	Funcs []funcSpec
}

// srcLine is one line of the source page.
type srcLine struct {
	N                   int
	Key, Text, Pct, Tip string
	Link                string // "" for a line that was not executed
	Class, Mark         string
	Style               template.CSS
}

// depLink is a dependency to follow one step.
type depLink struct {
	Var, Pos, Link, Source string
}

// selection is the selected line (or the failure) and its slices.
type selection struct {
	Key, Source, What string
	Msg               string // why there is no slice
	Data, Control     []depLink
	Users             []depLink // what depends on it, one step
	Back, Fwd         []depLink // the lines of the whole slices
	Whole             bool
	StepURL, WholeURL string
	GraphBack         string
	GraphFwd          string
}

// criterion returns the nodes of a selected line, or the failure's when
// sel is empty.
func (s *Server) criterion(sel string) (ids []int, k lineKey, what string, err error) {
	if s.run == nil {
		return nil, k, "", s.slErr
	}
	if sel == "" {
		if len(s.run.Failure) == 0 {
			return nil, k, "", fmt.Errorf("%s did not fail where the trace shows it (%s): select a line", s.run.Test, s.run.Outcome)
		}
		ids = s.run.Failure
		k = s.nodeKey(ids[0])
		return ids, k, "the failure of " + s.run.Test, nil
	}
	k, ok := parseLine(sel)
	if !ok {
		return nil, k, "", fmt.Errorf("sel=%q: want FILE:LINE", sel)
	}
	d := s.lines[k]
	if d == nil || len(d.nodes) == 0 {
		return nil, k, k.String(), fmt.Errorf("%s holds nothing %s executed: no slice", k, s.run.Test)
	}
	return d.nodes, k, k.String(), nil
}

// links turns nodes into links to their lines, one per node.
func (s *Server) links(ids []int) []depLink {
	var out []depLink
	seen := map[int]bool{}
	for _, id := range ids {
		if seen[id] {
			continue
		}
		seen[id] = true
		n := s.run.Nodes[id]
		k := s.nodeKey(id)
		out = append(out, depLink{Var: n.Var, Pos: k.String(), Link: sourceURL(k), Source: s.source(k)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Pos < out[j].Pos })
	return out
}

// lineLinks turns lines into links.
func (s *Server) lineLinks(lines map[lineKey]bool) []depLink {
	var out []depLink
	for k := range lines {
		out = append(out, depLink{Pos: k.String(), Link: sourceURL(k), Source: s.source(k)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Pos < out[j].Pos })
	return out
}

func (s *Server) sourcePage(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	sel := q.Get("sel")
	whole := q.Get("mode") != "step"
	body := struct {
		Sel   selection
		Files []srcFile
	}{}
	back, fwd, direct := map[lineKey]bool{}, map[lineKey]bool{}, map[lineKey]bool{}
	ids, k, what, err := s.criterion(sel)
	body.Sel = selection{Key: k.String(), What: what, Whole: whole}
	if k.line > 0 {
		body.Sel.Source = s.source(k)
	}
	if err != nil {
		body.Sel.Msg = err.Error()
	} else {
		bs, fs := s.run.Backward(ids...), s.run.Forward(ids...)
		back, fwd = s.sliceLines(bs), s.sliceLines(fs)
		var data, control, users []int
		for _, id := range ids {
			for _, e := range s.run.In(id) {
				if e.Kind == deps.Data {
					data = append(data, e.From)
				} else {
					control = append(control, e.From)
				}
				direct[s.nodeKey(e.From)] = true
			}
			for _, e := range s.run.Out(id) {
				users = append(users, e.To)
			}
		}
		sl := &body.Sel
		sl.Data, sl.Control, sl.Users = s.links(data), s.links(control), s.links(users)
		delete(back, k)
		delete(fwd, k)
		sl.Back, sl.Fwd = s.lineLinks(back), s.lineLinks(fwd)
		v := url.Values{}
		if sel != "" {
			v.Set("sel", sel)
		}
		sl.WholeURL = "/source?" + v.Encode() + "#L" + k.String()
		v.Set("mode", "step")
		sl.StepURL = "/source?" + v.Encode() + "#L" + k.String()
		v.Del("mode")
		v.Set("dir", "back")
		sl.GraphBack = "/graph?" + v.Encode()
		v.Set("dir", "fwd")
		sl.GraphFwd = "/graph?" + v.Encode()
	}
	specs := s.specsByFile()
	for _, f := range s.files {
		sf := srcFile{Name: f, Funcs: specs[f]}
		for i, text := range s.src[f] {
			lk := lineKey{f, i + 1}
			d := s.lines[lk]
			l := srcLine{N: i + 1, Key: lk.String(), Text: text, Tip: s.lineTip(lk, d), Style: color(d)}
			if d != nil {
				if d.ranked {
					l.Pct = fmt.Sprintf("%d%%", int(d.susp*100))
				}
				if d.ranked || len(d.nodes) > 0 {
					l.Link = sourceURL(lk)
				}
			}
			var cls []string
			switch {
			case lk == k && err == nil:
				cls, l.Mark = append(cls, "sel"), "▶"
			case direct[lk]:
				cls, l.Mark = append(cls, "slice", "dep"), "●"
			case back[lk] && whole:
				cls, l.Mark = append(cls, "slice"), "●"
			case fwd[lk]:
				cls, l.Mark = append(cls, "fwd"), "▷"
			}
			if fwd[lk] && l.Mark == "●" {
				cls = append(cls, "fwd")
			}
			l.Class = strings.Join(cls, " ")
			if l.Text == "" {
				l.Text = " "
			}
			sf.Lines = append(sf.Lines, l)
		}
		body.Files = append(body.Files, sf)
	}
	s.render(w, "source.html", page{Title: "source", Nav: "source", Body: body})
}

// funcSpec is one function's mined contract, for display.
type funcSpec struct {
	Name, File, Pos, Link string
	Calls                 int
	Pre, Post             []string
	Types                 []string // "x: int (5)"
}

// specsByFile returns the mined contracts of each file's functions.
func (s *Server) specsByFile() map[string][]funcSpec {
	out := map[string][]funcSpec{}
	if s.mined == nil {
		return out
	}
	for _, f := range s.specs() {
		out[f.File] = append(out[f.File], f)
	}
	return out
}

// specs returns every mined contract, for display.
func (s *Server) specs() []funcSpec {
	var out []funcSpec
	for _, sp := range s.mined.Functions {
		name := sp.Name
		if i := strings.LastIndexByte(name, '/'); i >= 0 {
			name = name[i+1:]
		}
		if i := strings.IndexByte(name, '.'); i >= 0 {
			name = name[i+1:]
		}
		k := lineKey{strings.ReplaceAll(sp.File, "\\", "/"), sp.Line}
		f := funcSpec{Name: name, File: k.file, Pos: k.String(), Link: sourceURL(k), Calls: sp.Calls, Pre: sp.Pre, Post: sp.Post}
		vars := make([]string, 0, len(sp.Types))
		for v := range sp.Types {
			vars = append(vars, v)
		}
		sort.Strings(vars)
		for _, v := range vars {
			var ts []string
			for t, n := range sp.Types[v] {
				ts = append(ts, fmt.Sprintf("%s (%d)", t, n))
			}
			sort.Strings(ts)
			f.Types = append(f.Types, v+": "+strings.Join(ts, ", "))
		}
		out = append(out, f)
	}
	return out
}

func (s *Server) minePage(w http.ResponseWriter, r *http.Request) {
	body := struct {
		Error string
		Funcs []funcSpec
	}{}
	if s.mined == nil {
		body.Error = s.mineErr.Error()
	} else {
		body.Funcs = s.specs()
	}
	s.render(w, "mine.html", page{Title: "invariants", Nav: "mine", Body: body})
}

// graphQuery is what a graph shows: a slice (Sel, Dir) or the flow graph.
type graphQuery struct {
	Flow bool
	Sel  string
	Fwd  bool
}

func readGraphQuery(r *http.Request) graphQuery {
	q := r.URL.Query()
	return graphQuery{Flow: q.Get("of") == "flow", Sel: q.Get("sel"), Fwd: q.Get("dir") == "fwd"}
}

func (g graphQuery) values() url.Values {
	v := url.Values{}
	if g.Flow {
		v.Set("of", "flow")
		return v
	}
	if g.Sel != "" {
		v.Set("sel", g.Sel)
	}
	if g.Fwd {
		v.Set("dir", "fwd")
	} else {
		v.Set("dir", "back")
	}
	return v
}

// dotSource returns the DOT text of a graph and its title.
func (s *Server) dotSource(g graphQuery) (dot []byte, title string, err error) {
	var buf bytes.Buffer
	if g.Flow {
		if s.flow == nil {
			return nil, "", s.flowErr
		}
		err := report.FlowDOT(&buf, s.flow, s.info(s.flow.Package, s.flow.Test, s.flow.Outcome.String()))
		return buf.Bytes(), "flow graph of " + s.flow.Test, err
	}
	ids, _, what, err := s.criterion(g.Sel)
	if err != nil {
		return nil, "", err
	}
	sl, dir := s.run.Backward(ids...), "backward"
	if g.Fwd {
		sl, dir = s.run.Forward(ids...), "forward"
	}
	err = report.SliceDOT(&buf, sl, s.info(s.run.Package, s.run.Test, s.run.Outcome.String()))
	return buf.Bytes(), dir + " slice of " + what, err
}

func (s *Server) info(pkg, test, outcome string) report.SliceInfo {
	return report.SliceInfo{Root: s.root, Package: pkg, Test: test, Outcome: outcome}
}

func (s *Server) graphPage(w http.ResponseWriter, r *http.Request) {
	g := readGraphQuery(r)
	body := struct {
		Title, Error, Missing, DOT, Img string
		Flow                            bool
	}{Flow: g.Flow}
	dot, title, err := s.dotSource(g)
	switch {
	case err != nil:
		body.Error = err.Error()
	case s.dot == "":
		body.Title = title
		body.Missing = "Graphviz's dot was not found on PATH, so the graph cannot be drawn here. Install Graphviz (Debian: apt-get install graphviz) and restart the view. Its DOT source:"
		body.DOT = string(dot)
	default:
		body.Title = title
		body.Img = "/graph.svg?" + g.values().Encode()
	}
	nav := "graph"
	if g.Flow {
		nav = "flow"
	}
	s.render(w, "graph.html", page{Title: "graph", Nav: nav, Body: body})
}

func (s *Server) graphSVG(w http.ResponseWriter, r *http.Request) {
	dot, _, err := s.dotSource(readGraphQuery(r))
	if err != nil {
		http.Error(w, err.Error(), http.StatusNotFound)
		return
	}
	if s.dot == "" {
		http.Error(w, "Graphviz's dot was not found on PATH: install Graphviz to draw graphs", http.StatusServiceUnavailable)
		return
	}
	svg, err := renderSVG(r.Context(), s.dot, dot)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "image/svg+xml")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
	w.Write(svg)
}

// renderSVG runs dot -Tsvg on a graph.
func renderSVG(ctx context.Context, dot string, src []byte) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, dot, "-Tsvg")
	cmd.Stdin = bytes.NewReader(src)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("dot -Tsvg: %v: %s", err, bytes.TrimSpace(stderr.Bytes()))
	}
	return out, nil
}

// flowOutput is one output of the flow page.
type flowOutput struct {
	Value, Values, Pos, Link string
	DependsOn                []string
}

func (s *Server) flowPage(w http.ResponseWriter, r *http.Request) {
	body := struct {
		Error, Text, Graph string
		Outputs            []flowOutput
	}{}
	if s.flow == nil {
		body.Error = s.flowErr.Error()
	} else {
		var buf bytes.Buffer
		if err := report.FlowText(&buf, s.flow, s.info(s.flow.Package, s.flow.Test, s.flow.Outcome.String())); err != nil {
			body.Error = err.Error()
		}
		body.Text = buf.String()
		body.Graph = "/graph?of=flow"
		for _, o := range s.flow.Outputs {
			fo := flowOutput{Value: o.Value, Values: strings.Join(o.Values, ", "), DependsOn: o.DependsOn}
			if n := s.flow.Node(o.Node); n != nil {
				k := lineKey{s.rel(n.File), n.Line}
				fo.Pos, fo.Link = k.String(), sourceURL(k)
			}
			body.Outputs = append(body.Outputs, fo)
		}
	}
	s.render(w, "flow.html", page{Title: "flow", Nav: "flow", Body: body})
}

// guideRow is one statement of the guided path.
type guideRow struct {
	Key, Link, Source, Reason string
	Step                      int
	Deps                      string // JSON list of the keys of the lines it depends on
	Root                      bool   // a line of the failure itself
}

func (s *Server) guidePage(w http.ResponseWriter, r *http.Request) {
	body := struct {
		Rows     []guideRow
		Executed int
		Msgs     []string
	}{Executed: s.executed}
	seen := map[lineKey]bool{}
	// Step 1: the top suspicious statements, as far as failing runs ran them.
	const top = 5
	if d := s.opt.Diagnosis; d != nil {
		for i := 0; i < len(d.Lines) && len(body.Rows) < top; i++ {
			l := &d.Lines[i]
			k := lineKey{filepath.ToSlash(l.File), l.Line}
			if seen[k] {
				continue
			}
			seen[k] = true
			body.Rows = append(body.Rows, guideRow{Key: k.String(), Link: sourceURL(k), Source: s.source(k), Step: 1,
				Reason: fmt.Sprintf("diagnosis rank %s, score %s", rangeText(l.Best, l.Worst), scoreText(l.Score)), Deps: "[]"})
		}
	} else if s.ranking != nil {
		n := 0
		for _, e := range s.ranking.Entries {
			if n == top || e.Counts.EF == 0 || e.Score <= 0 {
				break
			}
			ev := s.ranking.Spectra.Events[e.Event]
			k := lineKey{ev.File, ev.Line}
			if ev.Line == 0 || seen[k] {
				continue
			}
			seen[k] = true
			n++
			body.Rows = append(body.Rows, guideRow{Key: k.String(), Link: sourceURL(k), Source: s.source(k), Step: 1,
				Reason: fmt.Sprintf("rank %s, %s %s", rankText(e), s.ranking.Metric.Name, scoreText(e.Score)), Deps: "[]"})
		}
	} else {
		body.Msgs = append(body.Msgs, "No ranking: "+s.rankErr.Error())
	}
	// Step 2: the failure's dependencies, nearest first.
	if s.run != nil && len(s.run.Failure) > 0 {
		lineDeps := map[lineKey]map[lineKey]bool{}
		dist := map[int]int{}
		queue := []int{}
		for _, id := range s.run.Failure {
			if _, ok := dist[id]; !ok {
				dist[id] = 0
				queue = append(queue, id)
			}
		}
		var order []lineKey
		byLine := map[lineKey]int{}
		roots := map[lineKey]bool{}
		for _, id := range s.run.Failure {
			roots[s.nodeKey(id)] = true
		}
		for len(queue) > 0 {
			id := queue[0]
			queue = queue[1:]
			k := s.nodeKey(id)
			if _, ok := byLine[k]; !ok {
				byLine[k] = dist[id]
				order = append(order, k)
			}
			for _, e := range s.run.In(id) {
				from := s.nodeKey(e.From)
				if from != k {
					if lineDeps[k] == nil {
						lineDeps[k] = map[lineKey]bool{}
					}
					lineDeps[k][from] = true
				}
				if _, ok := dist[e.From]; !ok {
					dist[e.From] = dist[id] + 1
					queue = append(queue, e.From)
				}
			}
		}
		rowOf := map[lineKey]int{}
		for i, row := range body.Rows {
			k, _ := parseLine(row.Key)
			rowOf[k] = i
		}
		for _, k := range order {
			ds := make([]string, 0, len(lineDeps[k]))
			for d := range lineDeps[k] {
				ds = append(ds, d.String())
			}
			sort.Strings(ds)
			js, _ := json.Marshal(ds)
			reason := "the failing check"
			if !roots[k] {
				reason = fmt.Sprintf("%d step(s) back from the failure", byLine[k])
			}
			if i, ok := rowOf[k]; ok {
				body.Rows[i].Deps, body.Rows[i].Root = string(js), roots[k]
				body.Rows[i].Reason += "; " + reason
				continue
			}
			body.Rows = append(body.Rows, guideRow{Key: k.String(), Link: sourceURL(k), Source: s.source(k), Step: 2,
				Reason: reason, Deps: string(js), Root: roots[k]})
		}
	} else if s.run == nil {
		body.Msgs = append(body.Msgs, "No dependencies: "+s.slErr.Error())
	} else {
		body.Msgs = append(body.Msgs, fmt.Sprintf("No dependencies: %s did not fail where the trace shows it", s.run.Test))
	}
	s.render(w, "guide.html", page{Title: "guide", Nav: "guide", Body: body})
}
