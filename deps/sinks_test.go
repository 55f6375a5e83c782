package deps_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/culprit-go/culprit/deps"
)

// TestSinks: forward from Leak's a, the value reaches the print and the
// return, not the write of b.
func TestSinks(t *testing.T) {
	tr, _ := memRun(t)
	r, err := deps.Build(tr, deps.Options{Test: "TestLeak"})
	if err != nil {
		t.Fatal(err)
	}
	a := r.Find("leak.go", 9, 0, "a")
	if len(a) != 1 {
		t.Fatalf("parameter a: %v", a)
	}
	var got []string
	for _, s := range r.Forward(a...).Sinks() {
		n := r.Nodes[s.Node]
		got = append(got, fmt.Sprintf("%s %s (%d)", s.Kind, s.Call, n.Line))
	}
	if want := "log fmt.Println (10), return Leak (12)"; strings.Join(got, ", ") != want {
		t.Errorf("sinks of a: %s, want %s", strings.Join(got, ", "), want)
	}
	got = got[:0]
	for _, s := range r.Forward(r.Find("leak.go", 9, 0, "b")...).Sinks() {
		got = append(got, s.Kind+" "+s.Call)
	}
	if want := "write fmt.Fprintf"; strings.Join(got, ", ") != want {
		t.Errorf("sinks of b: %s, want %s", strings.Join(got, ", "), want)
	}
}

// TestFlowsOnlyFrom: the seed's assert_flow: Leak's result flows from a
// alone.
func TestFlowsOnlyFrom(t *testing.T) {
	tr, _ := memRun(t)
	r, err := deps.Build(tr, deps.Options{Test: "TestLeak"})
	if err != nil {
		t.Fatal(err)
	}
	ret := r.Returns("Leak")
	a, b := r.Find("leak.go", 9, 0, "a"), r.Find("leak.go", 9, 0, "b")
	if bad := r.FlowsOnlyFrom(ret, a); bad != nil {
		t.Errorf("the result flows from %v besides a", bad)
	}
	bad := r.FlowsOnlyFrom(ret, b)
	if len(bad) != 1 || bad[0].Var != "a" {
		t.Errorf("with b as the only source, want a reported, got %v", bad)
	}
}
