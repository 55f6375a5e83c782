package spectrum

import (
	"fmt"
	"io"
	"strings"
)

// Node is a node of a decision tree over events: a split on whether a run
// had Event, or (Event < 0) a leaf predicting Outcome.
type Node struct {
	Event   int     // index into Spectra.Events; -1 at a leaf
	Outcome Outcome // the majority outcome of the runs reaching the node (Fail on a tie)
	Failed  int     // failing runs reaching the node
	Passed  int     // passing runs reaching the node
	Had     *Node   // runs that had the event
	Lacked  *Node   // runs that did not
}

// Leaf reports whether n is a leaf.
func (n *Node) Leaf() bool { return n.Event < 0 }

// TreeOptions bound a decision tree.
type TreeOptions struct {
	MaxDepth int // splits from the root to a leaf; 0 is 3
	MinRuns  int // runs a node needs to be split; 0 is 2
}

// Tree learns a CART decision tree (binary splits on "the run had event
// e", chosen by the largest decrease of Gini impurity) that separates
// the failing runs of s from the passing ones, as the seed's classifying
// debugger does. Among equally good splits the first event in s.Events
// wins, so the tree is deterministic.
func Tree(s *Spectra, opt TreeOptions) *Node {
	if opt.MaxDepth <= 0 {
		opt.MaxDepth = 3
	}
	if opt.MinRuns <= 0 {
		opt.MinRuns = 2
	}
	runs := make([]int, len(s.Runs))
	for i := range runs {
		runs[i] = i
	}
	return grow(s, runs, opt.MaxDepth, opt.MinRuns)
}

func gini(f, p int) float64 {
	n := float64(f + p)
	if n == 0 {
		return 0
	}
	a, b := float64(f)/n, float64(p)/n
	return 1 - a*a - b*b
}

func grow(s *Spectra, runs []int, depth, minRuns int) *Node {
	n := &Node{Event: -1}
	for _, r := range runs {
		if s.Runs[r].Outcome == Fail {
			n.Failed++
		} else {
			n.Passed++
		}
	}
	n.Outcome = Pass
	if n.Failed >= n.Passed {
		n.Outcome = Fail
	}
	if depth == 0 || len(runs) < minRuns || n.Failed == 0 || n.Passed == 0 {
		return n
	}
	type tally struct{ f, p int }
	counts := map[int32]*tally{}
	for _, r := range runs {
		fail := s.Runs[r].Outcome == Fail
		for _, e := range s.runEvents[r] {
			t := counts[e]
			if t == nil {
				t = &tally{}
				counts[e] = t
			}
			if fail {
				t.f++
			} else {
				t.p++
			}
		}
	}
	total := float64(len(runs))
	parent := gini(n.Failed, n.Passed)
	best, bestGain := -1, 1e-12
	for e, t := range counts {
		had := t.f + t.p
		if had == len(runs) {
			continue // no split
		}
		imp := float64(had)/total*gini(t.f, t.p) + float64(len(runs)-had)/total*gini(n.Failed-t.f, n.Passed-t.p)
		gain := parent - imp
		if gain > bestGain+1e-12 || (gain > bestGain-1e-12 && best >= 0 && int(e) < best) {
			best, bestGain = int(e), gain
		}
	}
	if best < 0 {
		return n
	}
	var had, lacked []int
	for _, r := range runs {
		if s.Has(r, best) {
			had = append(had, r)
		} else {
			lacked = append(lacked, r)
		}
	}
	n.Event = best
	n.Had = grow(s, had, depth-1, minRuns)
	n.Lacked = grow(s, lacked, depth-1, minRuns)
	return n
}

// WriteRules prints the tree as one rule per leaf, each a conjunction of
// the conditions on the path to it and the leaf's prediction with its
// support (runs of the predicted outcome / runs reaching the leaf):
//
//	if middle.go:12:4 stmt executed -> FAIL (1/1)
//	if middle.go:12:4 stmt not executed -> PASS (5/5)
func WriteRules(w io.Writer, s *Spectra, root *Node) error {
	var lines []string
	var walk func(n *Node, conds []string)
	walk = func(n *Node, conds []string) {
		if n.Leaf() {
			cond := "always"
			if len(conds) > 0 {
				cond = "if " + strings.Join(conds, " and ")
			}
			right := n.Passed
			if n.Outcome == Fail {
				right = n.Failed
			}
			lines = append(lines, fmt.Sprintf("%s -> %s (%d/%d)\n", cond, strings.ToUpper(n.Outcome.String()), right, n.Failed+n.Passed))
			return
		}
		e := s.Events[n.Event]
		walk(n.Had, append(conds[:len(conds):len(conds)], e.String()+" "+verb(e.Kind, true)))
		walk(n.Lacked, append(conds[:len(conds):len(conds)], e.String()+" "+verb(e.Kind, false)))
	}
	walk(root, nil)
	for _, l := range lines {
		if _, err := io.WriteString(w, l); err != nil {
			return fmt.Errorf("write tree: %w", err)
		}
	}
	return nil
}

// verb says what having an event of kind k means.
func verb(k Kind, had bool) string {
	var yes, no string
	switch k {
	case Stmt:
		yes, no = "executed", "not executed"
	case Branch:
		yes, no = "taken", "not taken"
	case Func:
		yes, no = "entered", "not entered"
	default:
		yes, no = "seen", "never seen"
	}
	if had {
		return yes
	}
	return no
}
