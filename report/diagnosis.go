package report

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/culprit-go/culprit/diagnosis"
	"github.com/culprit-go/culprit/source"
)

// DiagnosisInfo is what the renderers say about the diagnosed run besides
// the ranking: the group of failing tests, the other groups, the
// evidence gathered, and notes.
type DiagnosisInfo struct {
	Root   string  // the module root files are relative to
	Group  Group   // the failing tests diagnosed
	Others []Group // failing tests that fail another way
	// Together says the other groups were diagnosed with Group (no
	// -test named one), not apart.
	Together bool
	Sources  []string // the evidence gathered: "spectra", "slices (2 tests)", "mutants (40)"
	Notes    []string
	// Files are the source files read already (deps.Run.Files of the
	// slicing runs): the lines are read from it; nil reads them anew.
	Files *source.Set
}

// Group is a group of failing tests that fail the same way.
type Group struct {
	Signature string   `json:"signature"` // how they fail: "panic: index out of range", "check mid_test.go:12"
	Tests     []string `json:"tests"`     // their names (package-qualified when several packages ran)
}

// rangeText is "3" or the tie range "3-5".
func rangeText(best, worst int) string {
	if best == worst {
		return strconv.Itoa(best)
	}
	return fmt.Sprintf("%d-%d", best, worst)
}

// why says in a few words why a line ranks where it does.
func why(ev diagnosis.Evidence) string {
	parts := []string{fmt.Sprintf("%s %s (%dF %dP)", ev.Event, strconv.FormatFloat(ev.Spectrum, 'f', 2, 64), ev.EF, ev.EP)}
	if ev.Slices > 0 {
		if ev.Sliced > 0 {
			parts = append(parts, fmt.Sprintf("in slice %d/%d", ev.Sliced, ev.Slices))
		} else {
			parts = append(parts, "not in slice")
		}
	}
	switch {
	case ev.StackTop:
		parts = append(parts, "panicked here")
	case ev.Stack:
		parts = append(parts, "on panic stack")
	}
	switch {
	case ev.Mutants > 0 && ev.Changed == 0:
		// Passing tests run against a mutant that changed the failure
		// only: nothing is known of what these broke.
		parts = append(parts, fmt.Sprintf("mutants 0/%d changed the failure", ev.Mutants))
	case ev.Mutants > 0:
		parts = append(parts, fmt.Sprintf("mutants %d/%d changed the failure, %d broke passing tests", ev.Changed, ev.Mutants, ev.Broke))
		switch {
		case ev.Fix > 0:
			parts = append(parts, "a mutant fixes it")
		case changesAlone(ev.MutantRuns):
			parts = append(parts, "a mutant changes the failing check alone")
		case ev.Partial > 0:
			parts = append(parts, fmt.Sprintf("a mutant partly fixes it (%.2f)", ev.Partial))
		}
	}
	return strings.Join(parts, "; ")
}

// changesAlone reports whether one of the mutants changed a failing
// test's failure report without any other test or case failing anew.
func changesAlone(ms []diagnosis.Mutant) bool {
	for _, m := range ms {
		if m.Lost > 0 && m.Added == 0 && m.Broke == 0 && m.Crashed == 0 {
			return true
		}
	}
	return false
}

// DiagnosisText writes the fused ranking: the most suspicious lines with
// their function's rank and why they rank there, then the groups of
// failing tests left for another run (info.Notes are the caller's to
// show).
func DiagnosisText(w io.Writer, d *diagnosis.Diagnosis, info DiagnosisInfo, top int) error {
	src := newSources(info.Root, nil, info.Files)
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# diagnosis: %d failing and %d passing runs; evidence: %s\n", d.Failing, d.Passing, strings.Join(info.Sources, ", "))
	if info.Group.Signature != "" {
		fmt.Fprintf(bw, "# failing tests (%s): %s\n", info.Group.Signature, strings.Join(info.Group.Tests, ", "))
	}
	tw := tabwriter.NewWriter(bw, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "RANK\tFUNC\tSCORE\tLOCATION\tSOURCE\tWHY")
	lines := d.Lines
	if top > 0 && len(lines) > top {
		lines = lines[:top]
	}
	for _, l := range lines {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s:%d\t%s\t%s\n", rangeText(l.Best, l.Worst), rangeText(l.FuncBest, l.FuncWorst),
			strconv.FormatFloat(l.Score, 'f', 3, 64), l.File, l.Line, clip(strings.TrimSpace(src.line(l.File, l.Line)), 60), why(l.Evidence))
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("write diagnosis: %w", err)
	}
	for _, g := range info.Others {
		if info.Together {
			fmt.Fprintf(bw, "# also failing, another way, diagnosed with them (%s): %s: diagnose one way alone with -test NAME\n", g.Signature, strings.Join(g.Tests, ", "))
		} else {
			fmt.Fprintf(bw, "# also failing, another way (%s): %s: diagnose them with -test NAME\n", g.Signature, strings.Join(g.Tests, ", "))
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write diagnosis: %w", err)
	}
	return nil
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-3] + "..."
}

// JSONDiagnosis is the JSON form of a diagnosis (schema in docs/rank.md).
type JSONDiagnosis struct {
	Kind      string              `json:"kind"` // "diagnosis"
	Failed    int                 `json:"failed"`
	Passed    int                 `json:"passed"`
	Evidence  []string            `json:"evidence"`
	Weights   diagnosis.Weights   `json:"weights"`
	Group     Group               `json:"group"`
	Others    []Group             `json:"other_groups"`
	Together  bool                `json:"together"`  // the other groups were diagnosed with group
	Locations []JSONDiagnosedLine `json:"locations"` // most suspicious first
	Functions []JSONDiagnosedFunc `json:"functions"` // most suspicious first
	Notes     []string            `json:"notes"`
}

// JSONRank is a position with ties: best and worst of the tie group,
// and their mean, the expected position.
type JSONRank struct {
	Best     int     `json:"best"`
	Worst    int     `json:"worst"`
	Expected float64 `json:"expected"`
}

// JSONDiagnosedLine is one ranked line.
type JSONDiagnosedLine struct {
	File     string       `json:"file"`
	Line     int          `json:"line"`
	Func     string       `json:"func"`
	Score    float64      `json:"score"`
	Rank     JSONRank     `json:"rank"`
	FuncRank JSONRank     `json:"func_rank"`
	Source   string       `json:"source"`
	Evidence JSONEvidence `json:"evidence"`
}

// JSONEvidence is why a line ranks where it does.
type JSONEvidence struct {
	Spectrum float64 `json:"spectrum"`
	Event    string  `json:"event"`
	EF       int     `json:"ef"`
	EP       int     `json:"ep"`
	Sliced   int     `json:"sliced"`
	Slices   int     `json:"slices"`
	Stack    bool    `json:"stack"`
	StackTop bool    `json:"stack_top"`
	Home     bool    `json:"home"`
	Mutants  int     `json:"mutants"`
	Changed  int     `json:"mutants_changed"`
	Broke    int     `json:"mutants_broke"`
	Mutation float64 `json:"mutation"`
	Fix      float64 `json:"fix"`
	Partial  float64 `json:"partial_fix"`
	// MutantRuns are what each mutant of the line did.
	MutantRuns []JSONMutant `json:"mutant_runs,omitempty"`
}

// JSONMutant is what one mutant of a line did to the tests run against
// it: failing tests changed and fixed, passing tests broken, and the
// failing tests' failure reports it removed and added.
type JSONMutant struct {
	Operator string `json:"operator"`
	Failing  int    `json:"failing"`
	Passing  int    `json:"passing"`
	Changed  int    `json:"changed"`
	Fixed    int    `json:"fixed"`
	Broke    int    `json:"broke"`
	Reports  int    `json:"reports"`
	Lost     int    `json:"lost"`
	Added    int    `json:"added"`
	Crashed  int    `json:"crashed"`
}

// jsonMutants converts a line's mutants to JSON.
func jsonMutants(ms []diagnosis.Mutant) []JSONMutant {
	var out []JSONMutant
	for _, m := range ms {
		out = append(out, JSONMutant{Operator: m.Operator, Failing: m.Failing, Passing: m.Passing, Changed: m.Changed, Fixed: m.Fixed,
			Broke: m.Broke, Reports: m.Reports, Lost: m.Lost, Added: m.Added, Crashed: m.Crashed})
	}
	return out
}

// fromJSONMutants converts a line's mutants back from JSON.
func fromJSONMutants(at diagnosis.Location, ms []JSONMutant) []diagnosis.Mutant {
	var out []diagnosis.Mutant
	for _, m := range ms {
		out = append(out, diagnosis.Mutant{At: at, Operator: m.Operator, Failing: m.Failing, Passing: m.Passing, Changed: m.Changed,
			Fixed: m.Fixed, Broke: m.Broke, Reports: m.Reports, Lost: m.Lost, Added: m.Added, Crashed: m.Crashed})
	}
	return out
}

// JSONDiagnosedFunc is one ranked function.
type JSONDiagnosedFunc struct {
	Func  string   `json:"func"`
	File  string   `json:"file"`
	Line  int      `json:"line"`
	Score float64  `json:"score"`
	Rank  JSONRank `json:"rank"`
	// Mutants are how many mutants of its lines ran, Mutation the mean
	// of their scores.
	Mutants  int     `json:"mutants"`
	Mutation float64 `json:"mutation"`
}

// DiagnosisJSON writes the diagnosis as JSON.
func DiagnosisJSON(w io.Writer, d *diagnosis.Diagnosis, info DiagnosisInfo, top int) error {
	src := newSources(info.Root, nil, info.Files)
	out := JSONDiagnosis{Kind: "diagnosis", Failed: d.Failing, Passed: d.Passing, Evidence: info.Sources, Weights: d.Weights,
		Group: info.Group, Others: info.Others, Together: info.Together, Notes: info.Notes}
	if out.Others == nil {
		out.Others = []Group{}
	}
	if out.Notes == nil {
		out.Notes = []string{}
	}
	if out.Evidence == nil {
		out.Evidence = []string{}
	}
	lines := d.Lines
	if top > 0 && len(lines) > top {
		lines = lines[:top]
	}
	out.Locations = make([]JSONDiagnosedLine, 0, len(lines))
	for _, l := range lines {
		ev := l.Evidence
		out.Locations = append(out.Locations, JSONDiagnosedLine{File: l.File, Line: l.Line, Func: l.Func, Score: l.Score,
			Rank:     JSONRank{l.Best, l.Worst, l.Rank},
			FuncRank: JSONRank{l.FuncBest, l.FuncWorst, l.FuncRank},
			Source:   strings.TrimSpace(src.line(l.File, l.Line)),
			Evidence: JSONEvidence{Spectrum: ev.Spectrum, Event: ev.Event, EF: ev.EF, EP: ev.EP, Sliced: ev.Sliced, Slices: ev.Slices,
				Stack: ev.Stack, StackTop: ev.StackTop, Home: ev.Home, Mutants: ev.Mutants, Changed: ev.Changed, Broke: ev.Broke, Mutation: ev.Mutation, Fix: ev.Fix, Partial: ev.Partial,
				MutantRuns: jsonMutants(ev.MutantRuns)}})
	}
	out.Functions = make([]JSONDiagnosedFunc, 0, len(d.Funcs))
	for _, f := range d.Funcs {
		out.Functions = append(out.Functions, JSONDiagnosedFunc{Func: f.Name, File: f.File, Line: f.Line, Score: f.Score,
			Rank: JSONRank{f.Best, f.Worst, f.Rank}, Mutants: f.Mutants, Mutation: f.Mutation})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return fmt.Errorf("write diagnosis: %w", err)
	}
	return nil
}
