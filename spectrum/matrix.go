package spectrum

import "math/bits"

// Matrix is a spectra matrix as bitsets, for suites too large for
// per-run event lists: one bitset per event over the runs, so that an
// event's counts are two population counts (its runs and failing runs,
// its runs) over words of 64 runs. 10,000 runs by 100,000 events take
// 125 MB and count in tens of milliseconds (BenchmarkRankMatrix).
type Matrix struct {
	runs, events, words int
	bits                []uint64 // event-major: event e's runs are bits[e*words : (e+1)*words]
	fail                []uint64 // the failing runs
}

// NewMatrix returns an empty matrix of runs by events.
func NewMatrix(runs, events int) *Matrix {
	w := (runs + 63) / 64
	return &Matrix{runs: runs, events: events, words: w, bits: make([]uint64, w*events), fail: make([]uint64, w)}
}

// Set records that run r had event e.
func (m *Matrix) Set(r, e int) { m.bits[e*m.words+r/64] |= 1 << (r % 64) }

// Fail marks run r as failing (runs pass unless marked).
func (m *Matrix) Fail(r int) { m.fail[r/64] |= 1 << (r % 64) }

// Counts returns each event's counts.
func (m *Matrix) Counts() []Counts {
	failed := 0
	for _, w := range m.fail {
		failed += bits.OnesCount64(w)
	}
	passed := m.runs - failed
	out := make([]Counts, m.events)
	for e := range out {
		row := m.bits[e*m.words : (e+1)*m.words]
		ef, n := 0, 0
		for i, w := range row {
			n += bits.OnesCount64(w)
			ef += bits.OnesCount64(w & m.fail[i])
		}
		out[e] = Counts{EF: ef, EP: n - ef, NF: failed - ef, NP: passed - (n - ef)}
	}
	return out
}
