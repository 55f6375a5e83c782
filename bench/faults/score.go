package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
)

// A Pos is a location's place in a ranking, ties as a range: best and
// worst, and the expected position under random tie breaking (their
// mean).
type Pos struct {
	Best, Worst int
	Ranked      bool // false: the ranking does not hold it; Best..Worst are the places after every ranked one
}

// Expected is the mean of Best and Worst.
func (p Pos) Expected() float64 { return float64(p.Best+p.Worst) / 2 }

// A Rank is the fault's place in one ranking, at line and at function
// level.
type Rank struct {
	Line, Func Pos
}

type lineKey struct {
	File string
	Line int
}

// metricJSON is what this bench reads of culprit rank -metric M
// -format json.
type metricJSON struct {
	Locations []struct {
		File  string
		Line  int
		Func  string
		Score float64
	}
}

// lines returns every line the ranking holds, with its function.
func (m *metricJSON) lines() map[lineKey]string {
	out := map[lineKey]string{}
	for _, l := range m.Locations {
		out[lineKey{l.File, l.Line}] = l.Func
	}
	return out
}

// place ranks lines by their best event's score and functions by their
// best line's, and places the fault's lines and functions.
func (m *metricJSON) place(faults faultSet, funcs map[string]bool) Rank {
	line := map[lineKey]float64{}
	fn := map[string]float64{}
	for _, l := range m.Locations {
		k := lineKey{l.File, l.Line}
		if s, ok := line[k]; !ok || l.Score > s {
			line[k] = l.Score
		}
		if s, ok := fn[l.Func]; !ok || l.Score > s {
			fn[l.Func] = l.Score
		}
	}
	var r Rank
	r.Line = placeBest(line, func(k lineKey) bool { return faults[k] }, len(line))
	r.Func = placeBest(fn, func(f string) bool { return funcs[f] }, len(fn))
	return r
}

// placeBest places the best-placed key that is a fault among the keys
// ranked by descending score, ties as ranges; when none is, the fault
// ranks after all of the n ranked keys, anywhere up to total.
func placeBest[K comparable](scores map[K]float64, fault func(K) bool, total int) Pos {
	var sorted []float64
	for _, s := range scores {
		sorted = append(sorted, s)
	}
	sort.Sort(sort.Reverse(sort.Float64Slice(sorted)))
	best := Pos{}
	for k, s := range scores {
		if !fault(k) {
			continue
		}
		above := sort.Search(len(sorted), func(i int) bool { return sorted[i] <= s })
		tied := sort.Search(len(sorted), func(i int) bool { return sorted[i] < s })
		p := Pos{Best: above + 1, Worst: tied, Ranked: true}
		if !best.Ranked || p.Expected() < best.Expected() {
			best = p
		}
	}
	if best.Ranked {
		return best
	}
	return unranked(len(scores), total)
}

// unranked is the place of a fault a ranking of n keys does not hold,
// out of total keys: after every ranked one.
func unranked(n, total int) Pos {
	return Pos{Best: n + 1, Worst: max(total, n+1)}
}

// diagnosisJSON is what this bench reads of culprit rank -format json
// (the diagnosis).
type diagnosisJSON struct {
	Locations []struct {
		File     string
		Line     int
		Func     string
		Rank     struct{ Best, Worst int }
		FuncRank struct{ Best, Worst int } `json:"func_rank"`
	}
}

// executed returns the lines of lines (executed line -> function) and
// the diagnosis's own: the lines a ranking of the diagnosis can name.
func (d *diagnosisJSON) executed(lines map[lineKey]string) map[lineKey]string {
	out := make(map[lineKey]string, len(lines)+len(d.Locations))
	for k, f := range lines {
		out[k] = f
	}
	for _, l := range d.Locations {
		out[lineKey{l.File, l.Line}] = l.Func
	}
	return out
}

// place takes the fault's places from the diagnosis's own ranks; a
// fault it does not list ranks after its listed lines, out of the
// executed lines (or functions) of the statement ranking.
func (d *diagnosisJSON) place(faults faultSet, funcs map[string]bool, executed map[lineKey]string) Rank {
	var r Rank
	nl, nf := 0, 0
	seenF := map[string]bool{}
	for _, l := range d.Locations {
		nl = max(nl, l.Rank.Worst)
		if !seenF[l.Func] {
			seenF[l.Func] = true
			nf = max(nf, l.FuncRank.Worst)
		}
		if faults.has(l.File, l.Line) {
			p := Pos{Best: l.Rank.Best, Worst: l.Rank.Worst, Ranked: true}
			if !r.Line.Ranked || p.Expected() < r.Line.Expected() {
				r.Line = p
			}
		}
		if funcs[l.Func] {
			p := Pos{Best: l.FuncRank.Best, Worst: l.FuncRank.Worst, Ranked: true}
			if !r.Func.Ranked || p.Expected() < r.Func.Expected() {
				r.Func = p
			}
		}
	}
	allF := map[string]bool{}
	for _, f := range executed {
		allF[f] = true
	}
	if !r.Line.Ranked {
		r.Line = unranked(nl, len(executed))
	}
	if !r.Func.Ranked {
		r.Func = unranked(nf, len(allF))
	}
	return r
}

// faultFuncs names the functions holding the bug's fault lines, as the
// rankings name them: the function of an executed fault line, else
// the executed function whose lines lie inside the declaration that
// holds the fault (its outermost, when closures are named apart).
func faultFuncs(dir string, bug *Bug, executed map[lineKey]string) map[string]bool {
	out := map[string]bool{}
	for _, f := range bug.Faults {
		var file *ast.File
		fset := token.NewFileSet()
		if src, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f.File))); err == nil {
			file, _ = parser.ParseFile(fset, f.File, src, parser.SkipObjectResolution)
		}
		for _, line := range f.Lines {
			if fn, ok := executed[lineKey{f.File, line}]; ok {
				out[fn] = true
				continue
			}
			if file == nil {
				continue
			}
			for _, d := range file.Decls {
				start, end := fset.Position(d.Pos()).Line, fset.Position(d.End()).Line
				if _, ok := d.(*ast.FuncDecl); !ok || line < start || line > end {
					continue
				}
				outer := ""
				for k, fn := range executed {
					if k.File == f.File && k.Line >= start && k.Line <= end && (outer == "" || len(fn) < len(outer)) {
						outer = fn
					}
				}
				if outer != "" {
					out[outer] = true
				}
			}
		}
	}
	return out
}
