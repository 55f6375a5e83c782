package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/culprit-go/culprit/diagnosis"
	"github.com/culprit-go/culprit/report"
)

// An executedLine is a line the package's tests executed, with its
// function, as executed.json keeps them.
type executedLine struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Func string `json:"func"`
}

func executedLines(m map[lineKey]string) []executedLine {
	out := make([]executedLine, 0, len(m))
	for k, fn := range m {
		out = append(out, executedLine{k.File, k.Line, fn})
	}
	return out
}

// parseWeights reads "spectrum=1,slice=0.35,..." over the default
// weights.
func parseWeights(s string) (diagnosis.Weights, error) {
	w := diagnosis.DefaultWeights
	if s == "" || s == "default" {
		return w, nil
	}
	fields := map[string]*float64{"spectrum": &w.Spectrum, "slice": &w.Slice, "stack": &w.Stack, "mutation": &w.Mutation,
		"func": &w.Func, "func_mutation": &w.FuncMutation, "fix": &w.Fix, "partial": &w.Partial, "home": &w.Home}
	for _, kv := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
		f, err := strconv.ParseFloat(v, 64)
		if !ok || err != nil || fields[k] == nil {
			return w, fmt.Errorf("weights: %q: want NAME=NUMBER, NAME one of spectrum, slice, stack, mutation, func, func_mutation, fix, partial, home", kv)
		}
		*fields[k] = f
	}
	return w, nil
}

// rescore ranks again, with weights w, the diagnoses a run with the
// same -work directory kept (each bug's diagnosis.json and
// executed.json): the evidence is the run's, only its weighing changes,
// so weights can be compared without running anything.
func (b *bench) rescore(bug *Bug, w diagnosis.Weights) *result {
	r := &result{Bug: bug, Ranks: map[string]Rank{}, Times: map[string]float64{}}
	dirs, _ := filepath.Glob(filepath.Join(b.work, bug.ID, "*_"+bug.Buggy))
	f, err := os.Open(filepath.Join(b.work, bug.ID, "diagnosis.json"))
	if err != nil || len(dirs) != 1 {
		r.Err = fmt.Sprintf("no kept diagnosis of %s in %s", bug.ID, b.work)
		return r
	}
	defer f.Close()
	d, _, err := report.ReadDiagnosisJSON(f)
	if err != nil {
		r.Err = err.Error()
		return r
	}
	executed := map[lineKey]string{}
	if data, err := os.ReadFile(filepath.Join(b.work, bug.ID, "executed.json")); err == nil {
		var ls []executedLine
		if json.Unmarshal(data, &ls) == nil {
			for _, l := range ls {
				executed[lineKey{l.File, l.Line}] = l.Func
			}
		}
	}
	r.Executed = len(executed)
	// The diagnosis ranks lines of the module's other packages too,
	// which the statement ranking (executed.json) does not run.
	for _, l := range d.Lines {
		executed[lineKey{l.File, l.Line}] = l.Func
	}
	funcs := faultFuncs(dirs[0], bug, executed)
	re := diagnosis.Rank(d.Lines, w)
	var dj diagnosisJSON
	for _, l := range re.Lines {
		var x struct {
			File     string
			Line     int
			Func     string
			Rank     struct{ Best, Worst int }
			FuncRank struct{ Best, Worst int } `json:"func_rank"`
		}
		x.File, x.Line, x.Func = l.File, l.Line, l.Func
		x.Rank.Best, x.Rank.Worst = l.Best, l.Worst
		x.FuncRank.Best, x.FuncRank.Worst = l.FuncBest, l.FuncWorst
		dj.Locations = append(dj.Locations, x)
	}
	cands := candidates(dirs[0], bug)
	// The fault's stand-in lines, for analyses of the kept diagnoses
	// outside this program.
	var keep []lineKey
	for k := range cands {
		keep = append(keep, k)
	}
	sort.Slice(keep, func(i, j int) bool {
		return keep[i].File < keep[j].File || keep[i].File == keep[j].File && keep[i].Line < keep[j].Line
	})
	if data, err := json.Marshal(keep); err == nil {
		os.WriteFile(filepath.Join(b.work, bug.ID, "candidates.json"), data, 0o644)
	}
	r.Ranks["diagnosis"] = dj.place(cands, funcs, executed)
	return r
}
