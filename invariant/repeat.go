package invariant

import (
	"math"

	"github.com/culprit-go/culprit/trace"
)

// Repeated samples. Calls repeat: most of a function's later calls
// (whose values were recorded without their parts) have the values of
// the call before them, and so do many of the first ones. A fact alive
// after a row was fed held on it (or had a variable absent from it), so
// checking it again on the same row changes only what counts samples,
// not distinct tuples or bounds: how many samples had the fact's
// variables (present, slices) and, for a range, how many were at its
// bounds. So a run of equal rows is fed once and counted again for the
// rest (checking.again); the contracts are those of feeding every row.

// noRepeats feeds every row, for the tests.
var noRepeats bool

// same reports whether calls c and d have the same row: the values the
// builder reads are equal.
func (b *rowBuilder) same(c, d *Call) bool {
	if !sameValues(c.Args, d.Args) {
		return false
	}
	if !b.post {
		return true
	}
	return sameValues(c.Results, d.Results) && (len(b.changed) == 0 || sameValues(c.Final, d.Final))
}

func sameValues(a, b []trace.Value) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !identical(&a[i], &b[i]) {
			return false
		}
	}
	return true
}

// identical reports whether two recorded values are the same without
// comparing their parts one by one: parts are the same only when they
// are shared (the collector shares the parts of a value equal to the
// call before's). Equal values with parts of their own are taken as
// different, which only costs building a row again.
func identical(a, b *trace.Value) bool {
	if !sameTop(a, b) {
		return false
	}
	if a.Err != nil && a.Err != b.Err && !equalValues(a.Err, b.Err) {
		return false
	}
	return (len(a.Elems) == 0 || &a.Elems[0] == &b.Elems[0]) && (len(a.Fields) == 0 || &a.Fields[0] == &b.Fields[0])
}

// sameRow reports whether two rows have the same cells, floats compared
// by their bits (+0 and -0 hash differently).
func sameRow(a, b []cell) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] || math.Float64bits(a[i].f) != math.Float64bits(b[i].f) {
			return false
		}
	}
	return true
}

// again counts n more samples of row, the row fed last, for the facts
// alive: each held on it (observe counted it once).
func (c *checking) again(row []cell, n int) {
	for _, g := range c.shownFor(row) {
		for _, f := range g.facts {
			c.m.recount(f, row, n, c.stats)
		}
	}
}

// recount counts n more samples of row for f, which holds on it: what
// observe and count add for a sample they have seen before.
func (m *miner) recount(f *fact, row []cell, n int, stats bool) {
	if si, ok := aggregate(f.op); ok && row[f.v[si]].k != kAbsent {
		f.slices += n
	}
	if absent(f, row) {
		return
	}
	f.present += n
	if stats && f.op == opRange {
		x := row[f.v[0]].i
		if x == f.rlo {
			f.atLo += n
		}
		if x == f.rhi {
			f.atHi += n
		}
	}
}
