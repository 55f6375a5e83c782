package report

import (
	"encoding/json"
	"fmt"
	"io"
	"math"

	"github.com/culprit-go/culprit/spectrum"
)

// The SARIF 2.1.0 subset culprit writes: plain structs named after the
// specification's objects (https://docs.oasis-open.org/sarif/sarif/v2.1.0/).
type sarifLog struct {
	Version string     `json:"version"` // "2.1.0"
	Schema  string     `json:"$schema"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool               sarifTool                `json:"tool"`
	OriginalURIBaseIDs map[string]sarifArtifact `json:"originalUriBaseIds,omitempty"`
	Results            []sarifResult            `json:"results"`
	ColumnKind         string                   `json:"columnKind"` // culprit's columns count bytes: code points for ASCII source
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID               string       `json:"id"`
	Name             string       `json:"name"`
	ShortDescription sarifMessage `json:"shortDescription"`
	FullDescription  sarifMessage `json:"fullDescription"`
	Help             sarifMessage `json:"help"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID     string          `json:"ruleId"`
	Level      string          `json:"level"` // error (rank 1), warning (rank_best <= 10), note
	Message    sarifMessage    `json:"message"`
	Locations  []sarifLocation `json:"locations"`
	Properties sarifProperties `json:"properties"`
}

type sarifProperties struct {
	Score     float64 `json:"score"`
	Rank      int     `json:"rank"`
	RankBest  int     `json:"rank_best"`
	RankWorst int     `json:"rank_worst"`
	EF        int     `json:"ef"`
	EP        int     `json:"ep"`
	Kind      string  `json:"kind"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           sarifRegion   `json:"region"`
}

type sarifArtifact struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
	EndLine     int `json:"endLine,omitempty"`
	EndColumn   int `json:"endColumn,omitempty"`
}

// SARIF writes the ranking as a SARIF 2.1.0 log with one run, one rule
// (the metric: ruleId is its name) and one result per event scoring
// above opt.Threshold (at most opt.Top of them when it is not 0). File
// URIs are relative to the module root (uriBaseId %SRCROOT%). A result's
// level is error for the events ranked first (rank_best 1), warning for
// rank_best up to 10, note below.
func SARIF(w io.Writer, r *spectrum.Ranking, opt Options) error {
	m := r.Metric
	rule := sarifRule{
		ID:               m.Name,
		Name:             "Suspicious" + title(m.Name),
		ShortDescription: sarifMessage{fmt.Sprintf("Code that failing tests execute more than passing tests (%s)", m.Name)},
		FullDescription:  sarifMessage{fmt.Sprintf("Spectrum-based fault localization: %s = %s. %s.", m.Name, m.Formula, m.Source)},
		Help:             sarifMessage{"Inspect the most suspicious locations first; ties share a rank range. See docs/rank.md."},
	}
	run := sarifRun{
		Tool:               sarifTool{Driver: sarifDriver{Name: "culprit", InformationURI: "https://github.com/culprit-go/culprit", Rules: []sarifRule{rule}}},
		OriginalURIBaseIDs: map[string]sarifArtifact{"%SRCROOT%": {URI: "file:///"}},
		Results:            []sarifResult{},
		ColumnKind:         "unicodeCodePoints",
	}
	if r.Spectra.Root != "" {
		run.OriginalURIBaseIDs["%SRCROOT%"] = sarifArtifact{URI: "file://" + r.Spectra.Root + "/"}
	}
	s := r.Spectra
	for _, e := range r.Entries {
		if opt.Top > 0 && len(run.Results) == opt.Top {
			break
		}
		if !(e.Score > opt.Threshold) {
			break // entries are sorted by score
		}
		ev := s.Events[e.Event]
		level := "note"
		switch {
		case e.Best == 1:
			level = "error"
		case e.Best <= 10:
			level = "warning"
		}
		score := e.Score
		if math.IsInf(score, 1) {
			score = math.MaxFloat64
		}
		what := eventText(ev)
		run.Results = append(run.Results, sarifResult{
			RuleID: m.Name,
			Level:  level,
			Message: sarifMessage{fmt.Sprintf("Suspicious %s (%s %s, rank %s of %d): %d of %d failing and %d of %d passing tests executed it.",
				what, m.Name, scoreText(e.Score), rankText(e), len(r.Entries), e.Counts.EF, e.Counts.Failed(), e.Counts.EP, e.Counts.Passed())},
			Locations: []sarifLocation{{PhysicalLocation: sarifPhysical{
				ArtifactLocation: sarifArtifact{URI: ev.File, URIBaseID: "%SRCROOT%"},
				Region:           sarifRegion{StartLine: ev.Line, StartColumn: ev.Col, EndLine: ev.EndLine, EndColumn: ev.EndCol},
			}}},
			Properties: sarifProperties{Score: score, Rank: e.Position, RankBest: e.Best, RankWorst: e.Worst, EF: e.Counts.EF, EP: e.Counts.EP, Kind: ev.Kind.String()},
		})
	}
	log := sarifLog{Version: "2.1.0", Schema: "https://json.schemastore.org/sarif-2.1.0.json", Runs: []sarifRun{run}}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(log); err != nil {
		return fmt.Errorf("write sarif: %w", err)
	}
	return nil
}

func title(s string) string {
	if s == "" {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}
