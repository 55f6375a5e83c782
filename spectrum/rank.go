package spectrum

import (
	"math"
	"sort"
)

// Entry is one event of a ranking.
type Entry struct {
	Event  int // index into Spectra.Events
	Counts Counts
	Score  float64
	// Position is the entry's place in the list, from 1. Events with equal
	// scores are tied: they share Best (the first position of the tie
	// group) and Worst (its last), and Rank is their mean, the expected
	// position of any one of them when the tie is broken at random.
	Position int
	Best     int
	Worst    int
	Rank     float64
}

// Ranking is a list of events, most suspicious first.
type Ranking struct {
	Metric  Metric
	Spectra *Spectra
	Entries []Entry
}

// Rank scores every event of s with m and sorts them, most suspicious
// first. Within a tie the order is the events' order (by file, line,
// column, kind and text), so the ranking is deterministic.
func Rank(s *Spectra, m Metric) *Ranking {
	return &Ranking{Metric: m, Spectra: s, Entries: RankCounts(s.counts, m)}
}

// RankCounts scores events given by their counts with m and sorts them,
// most suspicious first; Entry.Event is the index into counts, which also
// breaks ties.
func RankCounts(counts []Counts, m Metric) []Entry {
	entries := make([]Entry, len(counts))
	for i, c := range counts {
		entries[i] = Entry{Event: i, Counts: c, Score: m.Score(c)}
	}
	sort.Slice(entries, func(i, j int) bool {
		a, b := entries[i].Score, entries[j].Score
		if same(a, b) {
			return entries[i].Event < entries[j].Event
		}
		return a > b
	})
	for i := 0; i < len(entries); {
		j := i + 1
		for j < len(entries) && same(entries[j].Score, entries[i].Score) {
			j++
		}
		for k := i; k < j; k++ {
			entries[k].Position = k + 1
			entries[k].Best = i + 1
			entries[k].Worst = j
			entries[k].Rank = float64(i+1+j) / 2
		}
		i = j
	}
	return entries
}

// Tied reports whether two scores are tied in a ranking.
func Tied(a, b float64) bool { return same(a, b) }

// same reports whether two scores are equal up to rounding: scores that
// differ in the last bits come from different evaluation orders of the
// same quantity. An infinite score equals only itself.
func same(a, b float64) bool {
	if a == b {
		return true
	}
	if math.IsInf(a, 0) || math.IsInf(b, 0) {
		return false
	}
	return math.Abs(a-b) <= 1e-12*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

// Of returns the entry of event e, or false when e is not in the ranking.
func (r *Ranking) Of(e int) (Entry, bool) {
	for _, x := range r.Entries {
		if x.Event == e {
			return x, true
		}
	}
	return Entry{}, false
}

// Top returns the first n entries (all of them when n <= 0 or n is larger
// than the ranking). Ties cut by n are not completed: Best and Worst say
// how far a tie extends.
func (r *Ranking) Top(n int) []Entry {
	if n <= 0 || n > len(r.Entries) {
		return r.Entries
	}
	return r.Entries[:n]
}

// Side is the discrete spectrum's view of an event: which runs had it.
type Side uint8

// Discrete spectrum classes, as the seed colors them.
const (
	Never    Side = iota // no run had it
	OnlyFail             // only failing runs had it (red)
	Both                 // passing and failing runs had it (yellow)
	OnlyPass             // only passing runs had it (green)
)

func (d Side) String() string {
	switch d {
	case OnlyFail:
		return "only in failing runs"
	case Both:
		return "in passing and failing runs"
	case OnlyPass:
		return "only in passing runs"
	}
	return "never"
}

// Discrete classifies counts in the three-color discrete spectrum.
func Discrete(c Counts) Side {
	switch {
	case c.EF > 0 && c.EP > 0:
		return Both
	case c.EF > 0:
		return OnlyFail
	case c.EP > 0:
		return OnlyPass
	}
	return Never
}

// Fractions returns the fractions of passing and of failing runs that had
// the event (0 when there are no such runs).
func Fractions(c Counts) (passed, failed float64) {
	return ratio(float64(c.EP), float64(c.Passed())), ratio(float64(c.EF), float64(c.Failed()))
}

// Hue is Tarantula's continuous spectrum: 0 is red (only failing runs),
// 1 green (only passing runs), 0.5 yellow. ok is false for an event no run
// had.
func Hue(c Counts) (hue float64, ok bool) {
	p, f := Fractions(c)
	if p+f == 0 {
		return 0, false
	}
	return p / (p + f), true
}

// Brightness is Tarantula's support: the larger of the two fractions.
func Brightness(c Counts) float64 {
	p, f := Fractions(c)
	return math.Max(p, f)
}
