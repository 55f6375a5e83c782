package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/culprit-go/culprit/bench/internal/proof"
)

// printVerify prints each bug's reproduction.
func printVerify(w io.Writer, results []*result, markdown bool) {
	rows := [][]string{{"bug", "set", "A fails", "B passes", "failure on A", "error"}}
	for _, r := range results {
		rows = append(rows, []string{r.Bug.ID, r.Bug.Set,
			fmt.Sprintf("%d/%d", r.AFailed, r.Runs), fmt.Sprintf("%d/%d", r.BPassed, r.Runs),
			clip(r.Failure, 60), clip(r.Err, 80)})
	}
	proof.WriteTable(w, rows, markdown)
}

// rankings are the rankings' names in the order printed.
func rankings(b *bench) []string {
	return append([]string{"diagnosis"}, b.metrics...)
}

// printResults prints the per-bug table, then the summary per ranking
// and set, then slice and flow's table when they ran.
func printResults(w io.Writer, results []*result, b *bench, markdown bool) {
	names := rankings(b)
	if b.analyses["rank"] {
		head := []string{"bug", "set", "plain s", "built s", "lines"}
		for _, n := range names {
			head = append(head, n+" line", n+" func", n+" x")
		}
		rows := [][]string{head}
		for _, r := range results {
			row := []string{r.Bug.ID, r.Bug.Set, fmt.Sprintf("%.1f", r.Plain), fmt.Sprintf("%.1f", r.PlainBuild), fmt.Sprint(r.Executed)}
			for _, n := range names {
				rk, ok := r.Ranks[n]
				if r.Err != "" || !ok {
					row = append(row, "-", "-", "-")
					continue
				}
				row = append(row, rk.Line.String(), rk.Func.String(), ratio(r.Times[n], r.Plain))
			}
			if r.Err != "" {
				row[len(row)-1] = clip(r.Err, 60)
			}
			rows = append(rows, row)
		}
		proof.WriteTable(w, rows, markdown)
		fmt.Fprintln(w)
		printSummary(w, results, names, markdown)
	}
	if b.analyses["slice"] || b.analyses["flow"] {
		fmt.Fprintln(w)
		rows := [][]string{{"bug", "set", "plain s", "built s", "slice x", "slice x built", "slice exit", "fault in slice", "slice lines", "slice MiB", "flow x", "flow x built", "flow exit", "flow MiB", "notes"}}
		for _, r := range results {
			var notes []string
			for _, a := range []analysis{r.Slice, r.Flow} {
				if a.Note != "" {
					notes = append(notes, clip(a.Note, 60))
				}
			}
			if r.Err != "" {
				notes = append(notes, clip(r.Err, 60))
			}
			rows = append(rows, []string{r.Bug.ID, r.Bug.Set, fmt.Sprintf("%.1f", r.Plain), fmt.Sprintf("%.1f", r.PlainBuild),
				ran(r.Slice, ratio(r.Slice.Wall, r.Plain)), ran(r.Slice, ratio(r.Slice.Wall, r.PlainBuild)), ran(r.Slice, fmt.Sprint(r.Slice.Exit)), ran(r.Slice, yesNo(r.Slice.InSlice)), ran(r.Slice, fmt.Sprint(r.Slice.Lines)), ran(r.Slice, mib(r.Slice.RSS)),
				ran(r.Flow, ratio(r.Flow.Wall, r.Plain)), ran(r.Flow, ratio(r.Flow.Wall, r.PlainBuild)), ran(r.Flow, fmt.Sprint(r.Flow.Exit)), ran(r.Flow, mib(r.Flow.RSS)),
				strings.Join(notes, "; ")})
		}
		proof.WriteTable(w, rows, markdown)
	}
}

// printSummary prints, per ranking and set, the share of bugs whose
// fault's expected place is within the top k, at line and function
// level, the mean EXAM (expected line place over executed lines) and
// the time against the plain run (median and worst).
func printSummary(w io.Writer, results []*result, names []string, markdown bool) {
	rows := [][]string{{"ranking", "set", "bugs", "line top-1", "top-3", "top-5", "top-10", "EXAM", "func top-1", "top-3", "top-5", "top-10", "time x median", "max", "x built median", "max", "within 10x built"}}
	for _, n := range names {
		for _, set := range []string{Train, Validation, "all"} {
			var lines, funcs []Pos
			var exam, times, built []float64
			for _, r := range results {
				rk, ok := r.Ranks[n]
				if r.Err != "" || !ok || (set != "all" && r.Bug.Set != set) {
					continue
				}
				lines, funcs = append(lines, rk.Line), append(funcs, rk.Func)
				if r.Executed > 0 {
					exam = append(exam, rk.Line.Expected()/float64(r.Executed))
				}
				if r.Plain > 0 {
					times = append(times, r.Times[n]/r.Plain)
				}
				if r.PlainBuild > 0 {
					built = append(built, r.Times[n]/r.PlainBuild)
				}
			}
			if len(lines) == 0 {
				continue
			}
			row := []string{n, set, fmt.Sprint(len(lines))}
			for _, k := range []int{1, 3, 5, 10} {
				row = append(row, top(lines, k))
			}
			row = append(row, fmt.Sprintf("%.3f", mean(exam)))
			for _, k := range []int{1, 3, 5, 10} {
				row = append(row, top(funcs, k))
			}
			med, worst := medianMax(times)
			bmed, bworst := medianMax(built)
			within := 0
			for _, x := range built {
				if x <= 10 {
					within++
				}
			}
			rows = append(rows, append(row, med, worst, bmed, bworst, fmt.Sprintf("%d/%d", within, len(built))))
		}
	}
	proof.WriteTable(w, rows, markdown)
}

// top is the share of ps whose expected place is at most k.
func top(ps []Pos, k int) string {
	n := 0
	for _, p := range ps {
		if p.Expected() <= float64(k) {
			n++
		}
	}
	return fmt.Sprintf("%d%%", (200*n+len(ps))/(2*len(ps)))
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// String is "3" or "2-5", and "(12-80)" when the ranking does not hold
// the fault.
func (p Pos) String() string {
	s := fmt.Sprint(p.Best)
	if p.Worst != p.Best {
		s = fmt.Sprintf("%d-%d", p.Best, p.Worst)
	}
	if !p.Ranked {
		s = "(" + s + ")"
	}
	return s
}

func ratio(a, b float64) string {
	if b <= 0 || a <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f", a/b)
}

func ran(a analysis, s string) string {
	if !a.Ran {
		return "-"
	}
	return s
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func mib(kib int64) string {
	if kib <= 0 {
		return "-"
	}
	return fmt.Sprint(kib >> 10)
}

func clip(s string, n int) string {
	s = strings.ReplaceAll(s, "|", "/")
	if len(s) > n {
		return s[:n-3] + "..."
	}
	return s
}

// medianMax returns xs's median and maximum, formatted ("-" when empty);
// it sorts xs.
func medianMax(xs []float64) (med, worst string) {
	if len(xs) == 0 {
		return "-", "-"
	}
	slices.Sort(xs)
	return fmt.Sprintf("%.1f", xs[len(xs)/2]), fmt.Sprintf("%.1f", xs[len(xs)-1])
}
