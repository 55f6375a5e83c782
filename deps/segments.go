package deps

import (
	"go/ast"
	"sort"
	"strings"

	"github.com/culprit-go/culprit/trace"
)

// Segment is a stretch of a test's run cut at its checks: the statements
// of non-test files that ran since the checks before it, and whether a
// check after them failed. A table-driven test without subtests runs a
// segment per case (its code, then the case's checks). Test case
// purification (Xuan and Monperrus) takes a failing test's passing
// segments as passing runs of their own, so that lines only the cases
// that passed ran stand apart from the failing case's. Only segments
// that the same checks as a failing one closed are kept: the cases of a
// table, not the setup a later case builds on (a parser made and checked
// for an error before the call that fails), which a check of its own
// closes.
type Segment struct {
	Lines    []Line   // statements, sorted
	Branches []Branch // decisions' outcomes, sorted
	Failed   bool     // a check after it failed (or the test failed in it, for the last)
	checks   []*unit  // the check conditions that closed it
}

// Branch is a decision's outcome at a line: "if true", "case 2".
type Branch struct {
	Line
	Outcome string
}

// segmenter cuts the run at its checks (Options.Segments). A check is a
// t.Error*/t.Fatal*/t.Fail* call of a test file or a condition of a test
// file guarding one; the statements of non-test files that run after
// checks begin a new segment, which the checks closed.
type segmenter struct {
	on      bool
	seen    map[int]int   // site -> 1 + the index of the segment that last saw it
	cur     []int         // sites of the open segment's statements
	checked bool          // a check ran since the open segment's latest statement
	checks  []*unit       // the check conditions that ran since then
	failed  bool          // a check call ran since then
	conds   map[*unit]int // condition units of test files: 1 guards a check call, -1 not
	segs    []Segment
	sites   []trace.Site
}

// step is told of a statement that starts, u at site.
func (s *segmenter) step(u *unit, site int) {
	if u == nil || strings.HasSuffix(u.fn.file.path, "_test.go") {
		return
	}
	s.add(site)
}

// add adds site to the open segment, which the checks before closed.
func (s *segmenter) add(site int) {
	if s.checked {
		s.close(s.failed)
	}
	n := len(s.segs) + 1
	if s.seen[site] != n {
		s.seen[site] = n
		s.cur = append(s.cur, site)
	}
}

// decision is told of a decision of u at site: one of a non-test file
// is the segment's; a condition of a test file guarding a check call is
// a check.
func (s *segmenter) decision(u *unit, site int) {
	if !strings.HasSuffix(u.fn.file.path, "_test.go") {
		s.add(site)
		return
	}
	if u.kind == UnitCond && s.guards(u) {
		s.checked = true
		for _, c := range s.checks {
			if c == u {
				return
			}
		}
		s.checks = append(s.checks, u)
	}
}

// check is told of a check call.
func (s *segmenter) check() { s.checked, s.failed = true, true }

// guards reports whether condition u controls a check call statement of
// its function.
func (s *segmenter) guards(u *unit) bool {
	if v, ok := s.conds[u]; ok {
		return v > 0
	}
	for _, c := range u.fn.units {
		if !isCheckCall(c) {
			continue
		}
		for _, d := range c.ctrl {
			if w := u.fn.units[d]; w.kind == UnitCond {
				s.conds[w] = 1
			}
		}
	}
	if _, ok := s.conds[u]; !ok {
		s.conds[u] = -1
	}
	return s.conds[u] > 0
}

// close ends the open segment.
func (s *segmenter) close(failed bool) {
	seg := Segment{Failed: failed, checks: s.checks}
	seen := map[Branch]bool{}
	for _, site := range s.cur {
		st := s.sites[site]
		b := Branch{Line{st.File, st.Line}, ""}
		if st.Kind == trace.KindBranch {
			b.Outcome = st.Info
		}
		if seen[b] {
			continue
		}
		seen[b] = true
		if b.Outcome == "" {
			seg.Lines = append(seg.Lines, b.Line)
		} else {
			seg.Branches = append(seg.Branches, b)
		}
	}
	less := func(a, b Branch) bool {
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line.Line != b.Line.Line {
			return a.Line.Line < b.Line.Line
		}
		return a.Outcome < b.Outcome
	}
	sort.Slice(seg.Lines, func(i, j int) bool { return less(Branch{Line: seg.Lines[i]}, Branch{Line: seg.Lines[j]}) })
	sort.Slice(seg.Branches, func(i, j int) bool { return less(seg.Branches[i], seg.Branches[j]) })
	s.segs = append(s.segs, seg)
	s.cur, s.checked, s.failed, s.checks = nil, false, false, nil
}

// finish closes the last segment and returns the segments, or nil when
// the run is not cut in a failing and a passing part: a test that failed
// without a failing check fails in its last segment.
func (s *segmenter) finish(failed bool) []Segment {
	if !s.on {
		return nil
	}
	checkFailed := false
	for _, seg := range s.segs {
		checkFailed = checkFailed || seg.Failed
	}
	if len(s.cur) > 0 {
		s.close(s.failed || failed && !checkFailed)
	}
	failing := map[*unit]bool{}
	for _, seg := range s.segs {
		if seg.Failed {
			for _, c := range seg.checks {
				failing[c] = true
			}
		}
	}
	var out []Segment
	np := 0
	for _, seg := range s.segs {
		sibling := false
		for _, c := range seg.checks {
			sibling = sibling || failing[c]
		}
		switch {
		case seg.Failed:
			out = append(out, seg)
		case sibling && len(seg.Lines)+len(seg.Branches) > 0:
			out = append(out, seg)
			np++
		}
	}
	if np == 0 {
		return nil
	}
	return out
}

// isCheckCall reports whether u is a call statement of a check
// (t.Error*, t.Fatal*, t.Fail*).
func isCheckCall(u *unit) bool {
	name, ok := calledBy(u)
	return ok && u.fn.file.isCheck(name)
}

// calledBy returns the callee of call statement u, as written ("t.Errorf").
func calledBy(u *unit) (string, bool) {
	if u.kind != UnitSimple {
		return "", false
	}
	es, ok := u.node.(*ast.ExprStmt)
	if !ok {
		return "", false
	}
	c, ok := ast.Unparen(es.X).(*ast.CallExpr)
	if !ok {
		return "", false
	}
	return u.fn.file.text(c.Fun), true
}
