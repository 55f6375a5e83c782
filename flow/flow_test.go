package flow

import (
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"

	"github.com/culprit-go/culprit/deps"
)

// synth builds an execution-level graph from lines "name <- dep, dep":
// names "x@0" are versions, digits constants, "<F() return value>@0"
// return values; nodes are created in order of appearance.
func synth(t *testing.T, lines ...string) *deps.Run {
	t.Helper()
	var nodes []*deps.Node
	ids := map[string]int{}
	get := func(s string) int {
		if id, ok := ids[s]; ok {
			return id
		}
		n := &deps.Node{ID: len(nodes), Var: s, Line: len(nodes) + 1, Func: "F", Versioned: deps.Versioned{Seq: len(nodes) + 1}, Count: 1}
		if i := strings.LastIndexByte(s, '@'); i > 0 {
			n.Var = s[:i]
			n.Version = int(s[i+1] - '0')
		} else if s[0] >= '0' && s[0] <= '9' {
			n.Const = true
		}
		nodes = append(nodes, n)
		ids[s] = n.ID
		return n.ID
	}
	var edges []deps.Edge
	for _, l := range lines {
		to, from, _ := strings.Cut(l, " <- ")
		id := get(to)
		for _, f := range strings.Split(from, ", ") {
			kind := deps.Data
			if strings.HasPrefix(f, "?") {
				kind, f = deps.Control, f[1:]
			}
			edges = append(edges, deps.Edge{From: get(f), To: id, Kind: kind})
		}
	}
	return &deps.Run{Graph: deps.NewGraph(nodes, edges), Test: "TestSynth"}
}

func TestFromRun(t *testing.T) {
	// x = 4; y = 5; y = y * x; x = x + y; return x, y (the seed's
	// reduction example) and x = 10; y = 11; y = y + 1; x = x + y.
	reduction := []string{
		"x@0 <- 4", "y@0 <- 5", "y@1 <- y@0, x@0", "x@1 <- x@0, y@1",
		"<F() return value>@0 <- x@1, y@1",
	}
	versions := []string{"x@0 <- 10", "y@0 <- 11", "y@1 <- y@0, 1", "x@1 <- x@0, y@1", "<F() return value>@0 <- x@1"}
	max := []string{"a@0 <- 3", "b@0 <- 4", "<test>@0 <- a@0, b@0", "<test>@1 <- a@0, b@0, ?<test>@0", "res@0 <- b@0, ?<test>@1", "<F() return value>@0 <- res@0"}
	cases := []struct {
		name, reason string
		lines        []string
		opt          Options
		depends      []string
		edges        int
		removed      int
	}{
		{"versions", "the issue's x = 10; y = 11; y = y + 1; x = x + y: x@1 from both constants and 1", versions, Options{Return: "F"}, []string{"1", "10", "11"}, 7, 0},
		{"reduction", "the seed's figure 3.6: the return's edge to y@1 and x@1's to x@0 are implied", reduction, Options{Return: "F", Reduce: true}, []string{"4", "5"}, 6, 2},
		{"max", "the seed's max(3, 4): res depends on the decision of the else-if, which depends on a and b", max, Options{Return: "F"}, []string{"3", "4"}, 10, 0},
		{"max reduced", "figure 4.2: res's edge to b is implied through the decision", max, Options{Return: "F", Reduce: true}, []string{"3", "4"}, 7, 3},
		{"max no-cond", "decisions folded away: what they read reaches what they controlled", max, Options{Return: "F", NoCond: true}, []string{"3", "4"}, 5, 0},
		{"depth", "one edge from the output", versions, Options{Return: "F", Depth: 1}, []string{"1", "10", "11"}, 1, 0},
		{"focus", "paths from y to the output", versions, Options{Return: "F", Focus: "y"}, []string{"1", "10", "11"}, 3, 0},
		{"focus range", "paths from y@1, named as a folded node shows it", versions, Options{Return: "F", Focus: "y@1..1"}, []string{"1", "10", "11"}, 2, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g, err := FromRun(synth(t, tc.lines...), tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			if len(g.Outputs) != 1 || !reflect.DeepEqual(g.Outputs[0].DependsOn, tc.depends) {
				t.Errorf("outputs %+v, want one depending on %v (%s)", g.Outputs, tc.depends, tc.reason)
			}
			if len(g.Edges) != tc.edges || g.Removed != tc.removed {
				t.Errorf("%d edges, %d removed; want %d, %d (%s)", len(g.Edges), g.Removed, tc.edges, tc.removed, tc.reason)
			}
		})
	}
}

func TestFold(t *testing.T) {
	// A loop: k@1..k@3 at one site fold into one node with a count.
	r := synth(t, "k@0 <- 0", "k@1 <- k@0, 1", "k@2 <- k@1, 1", "k@3 <- k@2, 1", "<F() return value>@0 <- k@3")
	for _, n := range r.Nodes[2:] {
		if n.Var == "k" {
			n.Line = 100
		}
	}
	r.Nodes[1].Line = 1
	g, err := FromRun(r, Options{Return: "F"})
	if err != nil {
		t.Fatal(err)
	}
	var folded *Node
	for _, n := range g.Nodes {
		if n.Count > 1 {
			folded = n
		}
	}
	if folded == nil || folded.Count != 3 || folded.Name != "k@1..3" {
		t.Fatalf("no folded k@1..3 x3: %+v", g.Nodes)
	}
	g, err = FromRun(r, Options{Return: "F", Unfold: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Nodes) != 7 {
		t.Errorf("-unfold: %d nodes, want 7", len(g.Nodes))
	}
}

// TestReduceProperties checks Reduce on random DAGs: reachability is
// unchanged, and no kept edge is implied by the others.
func TestReduceProperties(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for iter := 0; iter < 200; iter++ {
		n := 2 + rng.Intn(12)
		var edges []Edge
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				if rng.Intn(3) == 0 {
					edges = append(edges, Edge{From: i, To: j})
				}
			}
		}
		kept, removed, ok := Reduce(edges)
		if !ok || removed != len(edges)-len(kept) {
			t.Fatalf("Reduce(%v) = %v, %d, %v", edges, kept, removed, ok)
		}
		all := closure(n, edges)
		if !reflect.DeepEqual(all, closure(n, kept)) {
			t.Fatalf("reachability changed: %v -> %v", edges, kept)
		}
		for i, e := range kept {
			rest := append(append([]Edge(nil), kept[:i]...), kept[i+1:]...)
			if closure(n, rest)[e.From][e.To] {
				t.Fatalf("kept edge %v is implied by %v", e, rest)
			}
		}
	}
	if _, _, ok := Reduce([]Edge{{0, 1, deps.Data}, {1, 0, deps.Data}}); ok {
		t.Errorf("Reduce accepted a cycle")
	}
}

func closure(n int, edges []Edge) [][]bool {
	r := make([][]bool, n)
	for i := range r {
		r[i] = make([]bool, n)
	}
	for _, e := range edges {
		r[e.From][e.To] = true
	}
	for k := 0; k < n; k++ {
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				if r[i][k] && r[k][j] {
					r[i][j] = true
				}
			}
		}
	}
	return r
}

func TestFoldRange(t *testing.T) {
	// A recursive function's frames number one site's versions in turn:
	// made in the order k@2, k@0, k@1, they fold into k@0..2.
	r := synth(t, "k@2 <- 1", "k@0 <- k@2", "k@1 <- k@0", "<F() return value>@0 <- k@1")
	for _, n := range r.Nodes {
		if n.Var == "k" {
			n.Line = 100
		}
	}
	g, err := FromRun(r, Options{Return: "F"})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, n := range g.Nodes {
		names = append(names, n.Name)
	}
	if want := []string{"1", "<F() return value>@0", "k@0..2"}; !reflect.DeepEqual(names, want) {
		t.Errorf("nodes %q, want %q", names, want)
	}
}

func TestGraphNode(t *testing.T) {
	g, err := FromRun(synth(t, "x@0 <- 10", "<F() return value>@0 <- x@0"), Options{Return: "F"})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range g.Outputs {
		if n := g.Node(o.Node); n == nil || n.Name != o.Value {
			t.Errorf("Node(%d) = %+v, want the output %s", o.Node, n, o.Value)
		}
	}
	if n := g.Node(-1); n != nil {
		t.Errorf("Node(-1) = %+v, want nil", n)
	}
}

func TestInRange(t *testing.T) {
	cases := []struct {
		name, r string
		want    bool
	}{
		{"x@3", "x@1..4", true},
		{"x@5", "x@1..4", false},
		{"y@3", "x@1..4", false},
		{"stdin line 2", "stdin line 1..3", true},
		{"stdin line 4", "stdin line 1..3", false},
		{"stdin rune 2", "stdin line 1..3", false},
		{"x@3", "x@3", false}, // not a range: matched by name
	}
	for _, tc := range cases {
		if got := inRange(tc.name, tc.r); got != tc.want {
			t.Errorf("inRange(%q, %q) = %v, want %v", tc.name, tc.r, got, tc.want)
		}
	}
}

// TestWalksBounded: the walks that list each output's inputs and the
// variables it came through are bounded together, so that hundreds of
// outputs over a graph of millions of nodes take time bounded by the
// graph: an output whose walk is cut short lists what is nearest it, and
// a note says so. Here a chain c0 <- c1 <- ... <- c39 from the constant 7,
// two outputs at its end, walks of at most 8 nodes.
func TestWalksBounded(t *testing.T) {
	defer func(m, n int) { maxWalks, minWalk = m, n }(maxWalks, minWalk)
	maxWalks, minWalk = 16, 8
	lines := []string{"c0 <- 7"}
	for i := 1; i < 40; i++ {
		lines = append(lines, fmt.Sprintf("c%d <- c%d", i, i-1))
	}
	r := synth(t, lines...)
	last := len(r.Nodes) - 1
	r.Failure, r.FailureKind = []int{last - 1, last}, deps.FailureCheck
	g, err := FromRun(r, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Outputs) != 2 {
		t.Fatalf("outputs: %+v", g.Outputs)
	}
	for _, o := range g.Outputs {
		if len(o.DependsOn) != 0 || len(o.Through) != 7 || o.Through[0] != r.Nodes[o.Node-1].Var {
			t.Errorf("%s: depends on %q through %q, want nothing through the 7 nearest", o.Value, o.DependsOn, o.Through)
		}
	}
	noted := false
	for _, n := range g.Notes {
		noted = noted || strings.Contains(n, "2 of the 2 outputs depend on more than 8 nodes")
	}
	if !noted {
		t.Errorf("no note of the walks cut short: %q", g.Notes)
	}
	// Unbounded, the constant is found.
	maxWalks, minWalk = 1<<24, 1<<14
	if g, err = FromRun(r, Options{}); err != nil || len(g.Outputs[0].DependsOn) != 1 || g.Outputs[0].DependsOn[0] != "7" {
		t.Errorf("unbounded: %v %+v", err, g.Outputs)
	}
}
