package spectrum

import (
	"math/rand"
	"testing"
)

// BenchmarkRankMatrix ranks 10,000 runs by 100,000 events held as
// bitsets (each run having 10% of the events, 1% of runs failing): counts
// by population count, Ochiai scores, sort with tie ranges. The matrix is
// built before the timer starts.
func BenchmarkRankMatrix(b *testing.B) {
	const runs, events = 10000, 100000
	m := NewMatrix(runs, events)
	rng := rand.New(rand.NewSource(1))
	for r := 0; r < runs; r++ {
		if rng.Intn(100) == 0 {
			m.Fail(r)
		}
		for k := 0; k < events/10; k++ {
			m.Set(r, rng.Intn(events))
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		RankCounts(m.Counts(), Ochiai)
	}
}

// BenchmarkRankSpectra is the path culprit rank takes: Spectra built from
// per-run event lists (10,000 runs by 100,000 events, each run having 1%
// of them), counted, then ranked.
func BenchmarkRankSpectra(b *testing.B) {
	const runs, events = 10000, 100000
	rng := rand.New(rand.NewSource(1))
	evs := make([]Event, events)
	for i := range evs {
		evs[i] = Event{Kind: Stmt, File: "a.go", Line: i + 1, Col: 1}
	}
	rs := make([]Run, runs)
	sets := make([][]int, runs)
	for r := range rs {
		rs[r] = Run{Name: "T", Outcome: Pass}
		if rng.Intn(100) == 0 {
			rs[r].Outcome = Fail
		}
		for k := 0; k < events/100; k++ {
			sets[r] = append(sets[r], rng.Intn(events))
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Rank(build("", rs, evs, sets), Ochiai)
	}
}

// TestMatrixCounts checks the bitset counts against Spectra's.
func TestMatrixCounts(t *testing.T) {
	s := suite()
	m := NewMatrix(len(s.Runs), len(s.Events))
	for r, run := range s.Runs {
		if run.Outcome == Fail {
			m.Fail(r)
		}
		for _, e := range s.RunEvents(r) {
			m.Set(r, int(e))
		}
	}
	for e, c := range m.Counts() {
		if c != s.Counts(e) {
			t.Fatalf("event %d: matrix %+v, spectra %+v", e, c, s.Counts(e))
		}
	}
}
