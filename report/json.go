package report

import (
	"encoding/json"
	"fmt"
	"io"
	"math"

	"github.com/culprit-go/culprit/spectrum"
)

// JSONReport is the JSON output of culprit rank: a contract, documented in
// docs/rank.md. Fields are added, never renamed or removed, within a
// schema version.
type JSONReport struct {
	Schema    int            `json:"schema"`  // 1
	Metric    string         `json:"metric"`  // the metric's name
	Formula   string         `json:"formula"` // the metric's formula
	Events    string         `json:"events"`  // the event kinds ranked ("stmt,branch")
	Passed    int            `json:"passed"`  // passing runs
	Failed    int            `json:"failed"`  // failing runs
	Runs      []JSONRun      `json:"runs"`
	Locations []JSONLocation `json:"locations"` // most suspicious first
	Notes     []string       `json:"notes"`     // what was left out and why
}

// JSONRun is one run (leaf test) of a JSONReport.
type JSONRun struct {
	Package string `json:"package"`
	Name    string `json:"name"`
	Outcome string `json:"outcome"`          // "pass" or "fail"
	Detail  string `json:"detail,omitempty"` // "panic", "running": how a failing test ended when not plain fail
	Shared  bool   `json:"shared,omitempty"` // other tests ran meanwhile: its events may include theirs
}

// JSONLocation is one ranked event of a JSONReport.
type JSONLocation struct {
	File      string  `json:"file"` // relative to the module root, slash-separated
	Line      int     `json:"line"`
	Column    int     `json:"column"`
	EndLine   int     `json:"end_line"`
	EndColumn int     `json:"end_column"`
	Func      string  `json:"func"`
	Kind      string  `json:"kind"` // stmt, branch, func, value, pred
	Text      string  `json:"text"` // "" for statements; "if true", "x = 3", "x < y"
	Score     float64 `json:"score"`
	Infinite  bool    `json:"infinite,omitempty"` // the score is +Inf (DStar); score holds the largest float64
	Rank      int     `json:"rank"`               // position in the list, from 1
	RankBest  int     `json:"rank_best"`          // first position of the entry's tie group
	RankWorst int     `json:"rank_worst"`         // last position of the tie group
	EF        int     `json:"ef"`                 // failing runs that had the event
	EP        int     `json:"ep"`                 // passing runs that had it
}

// JSON writes the ranking as a JSONReport (the top opt.Top locations, all
// when 0), indented.
func JSON(w io.Writer, r *spectrum.Ranking, events string, opt Options) error {
	s := r.Spectra
	rep := JSONReport{Schema: 1, Metric: r.Metric.Name, Formula: r.Metric.Formula, Events: events,
		Passed: s.Passed(), Failed: s.Failed(), Runs: []JSONRun{}, Locations: []JSONLocation{}, Notes: s.Notes}
	if rep.Notes == nil {
		rep.Notes = []string{}
	}
	for _, run := range s.Runs {
		rep.Runs = append(rep.Runs, JSONRun{Package: run.Package, Name: run.Name, Outcome: run.Outcome.String(), Detail: run.Detail, Shared: run.Shared})
	}
	for _, e := range r.Top(opt.Top) {
		ev := s.Events[e.Event]
		loc := JSONLocation{File: ev.File, Line: ev.Line, Column: ev.Col, EndLine: ev.EndLine, EndColumn: ev.EndCol,
			Func: ev.Func, Kind: ev.Kind.String(), Text: ev.Text, Score: e.Score,
			Rank: e.Position, RankBest: e.Best, RankWorst: e.Worst, EF: e.Counts.EF, EP: e.Counts.EP}
		if math.IsInf(e.Score, 1) {
			loc.Score, loc.Infinite = math.MaxFloat64, true
		}
		rep.Locations = append(rep.Locations, loc)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(rep); err != nil {
		return fmt.Errorf("write json: %w", err)
	}
	return nil
}
