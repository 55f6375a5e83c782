package report

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/culprit-go/culprit/spectrum"
)

// Header returns the one-line summary of a ranking:
// "ochiai: 1 failing and 5 passing runs, 10 events".
func Header(r *spectrum.Ranking) string {
	s := r.Spectra
	return fmt.Sprintf("%s: %d failing and %d passing runs, %d events", r.Metric.Name, s.Failed(), s.Passed(), len(s.Events))
}

// rankText is an entry's rank: its position, or the tie range "4-5".
func rankText(e spectrum.Entry) string {
	if e.Best == e.Worst {
		return strconv.Itoa(e.Best)
	}
	return fmt.Sprintf("%d-%d", e.Best, e.Worst)
}

// scoreText formats a score with three decimals ("+Inf" for DStar's
// infinite scores).
func scoreText(x float64) string {
	if math.IsInf(x, 1) {
		return "+Inf"
	}
	return strconv.FormatFloat(x, 'f', 3, 64)
}

// eventText describes an event without its position: "stmt",
// "branch if true", "value x = 3".
func eventText(e spectrum.Event) string {
	if e.Text == "" {
		return e.Kind.String()
	}
	return e.Kind.String() + " " + e.Text
}

// Text writes the ranking as lines "rank score ef ep file:line:col event
// source", most suspicious first; tied entries show their rank range.
func Text(w io.Writer, r *spectrum.Ranking, opt Options) error {
	src := newSources(r.Spectra.Root, opt.Source, opt.Files)
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# %s\n", Header(r))
	tw := tabwriter.NewWriter(bw, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "RANK\tSCORE\tEF\tEP\tLOCATION\tEVENT\tSOURCE")
	for _, e := range r.Top(opt.Top) {
		ev := r.Spectra.Events[e.Event]
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\t%s\t%s\n", rankText(e), scoreText(e.Score), e.Counts.EF, e.Counts.EP,
			ev.Pos(), eventText(ev), strings.TrimSpace(src.line(ev.File, ev.Line)))
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("write ranking: %w", err)
	}
	for _, n := range r.Spectra.Notes {
		fmt.Fprintf(bw, "# note: %s\n", n)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write ranking: %w", err)
	}
	return nil
}

// MetricsTable writes the top events of the first metric side by side
// with their scores and ranks under every metric in opt.Metrics.
func MetricsTable(w io.Writer, s *spectrum.Spectra, opt Options) error {
	if len(opt.Metrics) == 0 {
		return fmt.Errorf("metrics table: no metrics")
	}
	rankings := make([]*spectrum.Ranking, len(opt.Metrics))
	byEvent := make([]map[int]spectrum.Entry, len(opt.Metrics))
	for i, m := range opt.Metrics {
		rankings[i] = spectrum.Rank(s, m)
		byEvent[i] = map[int]spectrum.Entry{}
		for _, e := range rankings[i].Entries {
			byEvent[i][e.Event] = e
		}
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# %d failing and %d passing runs, %d events; cells are score (rank), ordered by %s\n", s.Failed(), s.Passed(), len(s.Events), opt.Metrics[0].Name)
	tw := tabwriter.NewWriter(bw, 0, 4, 2, ' ', 0)
	fmt.Fprint(tw, "LOCATION\tEVENT")
	for _, m := range opt.Metrics {
		fmt.Fprintf(tw, "\t%s", strings.ToUpper(m.Name))
	}
	fmt.Fprintln(tw)
	for _, e := range rankings[0].Top(opt.Top) {
		ev := s.Events[e.Event]
		fmt.Fprintf(tw, "%s\t%s", ev.Pos(), eventText(ev))
		for i := range opt.Metrics {
			x := byEvent[i][e.Event]
			fmt.Fprintf(tw, "\t%s (%s)", scoreText(x.Score), rankText(x))
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("write metrics table: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write metrics table: %w", err)
	}
	return nil
}

// Table writes the seed's event table: one row per event (the top
// opt.Top events by rank, or all of them in source order), one column per
// run, X where the run had the event.
func Table(w io.Writer, r *spectrum.Ranking, opt Options) error {
	s := r.Spectra
	var rows []spectrum.Entry
	if opt.Top > 0 {
		rows = r.Top(opt.Top)
	} else {
		rows = append(rows, r.Entries...)
		sort.Slice(rows, func(i, j int) bool { return rows[i].Event < rows[j].Event })
	}
	names := runNames(s.Runs)
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# %s\n", Header(r))
	tw := tabwriter.NewWriter(bw, 0, 4, 1, ' ', 0)
	fmt.Fprint(tw, "\t\t")
	for _, run := range s.Runs {
		fmt.Fprintf(tw, "\t%s", strings.ToUpper(run.Outcome.String()))
	}
	fmt.Fprintln(tw)
	fmt.Fprint(tw, "EVENT\t\tSCORE")
	for _, n := range names {
		fmt.Fprintf(tw, "\t%s", n)
	}
	fmt.Fprintln(tw)
	for _, e := range rows {
		ev := s.Events[e.Event]
		fmt.Fprintf(tw, "%s\t%s\t%s", ev.Pos(), eventText(ev), scoreText(e.Score))
		for run := range s.Runs {
			cell := "-"
			if s.Has(run, e.Event) {
				cell = "X"
			}
			fmt.Fprintf(tw, "\t%s", cell)
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("write event table: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write event table: %w", err)
	}
	return nil
}

// runNames returns the runs' names without the prefix they all share up
// to a slash ("TestMiddle/"), and without packages when there is one.
func runNames(runs []spectrum.Run) []string {
	pkgs := map[string]bool{}
	for _, r := range runs {
		pkgs[r.Package] = true
	}
	names := make([]string, len(runs))
	for i, r := range runs {
		names[i] = r.Name
		if len(pkgs) > 1 {
			names[i] = r.ID()
		}
	}
	if len(names) < 2 {
		return names
	}
	prefix := names[0]
	for _, n := range names[1:] {
		for !strings.HasPrefix(n, prefix) {
			prefix = prefix[:len(prefix)-1]
		}
	}
	cut := strings.LastIndexByte(prefix, '/') + 1
	for i := range names {
		names[i] = names[i][cut:]
		if names[i] == "" {
			names[i] = runs[i].Name
		}
	}
	return names
}
