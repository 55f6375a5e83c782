package main

import (
	"go/parser"
	"go/token"
	"math"
	"strings"
	"testing"

	"github.com/culprit-go/culprit/spectrum"
)

const sample = `package p

func F(a, b int) int {
	x := a - b
	if x < 0 {
		x++
	}
	g(x)
	return x * 2
}

func g(int) {}
`

// TestCandidates checks each operator's mutants: they parse, they change
// one statement, and they name its first line.
func TestCandidates(t *testing.T) {
	ms, err := fileCandidates("p.go", []byte(sample))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range ms {
		out := m.apply([]byte(sample))
		if _, err := parser.ParseFile(token.NewFileSet(), "p.go", out, 0); err != nil {
			t.Errorf("%s: %v", m, err)
		}
		got = append(got, m.String())
	}
	want := []string{
		"p.go:4 swap: swapped a - b",
		"p.go:5 flip: x < 0: < -> >=",
		"p.go:5 swap: swapped x < 0",
		"p.go:5 const: 0 -> 1",
		"p.go:6 delete: deleted x++",
		"p.go:8 delete: deleted g(x)",
		"p.go:9 const: 2 -> 1",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if o1, o2 := order(ms, 1), order(ms, 1); o1[0] != o2[0] || len(o1) != len(ms) {
		t.Error("order is not deterministic or loses mutants")
	}
}

// TestPlace checks the fault's placement among lines, with ties and
// lines no event sits on.
func TestPlace(t *testing.T) {
	p := placement{Best: 2, Worst: 5, Total: 10}
	if p.top(1, 1) != 0 || p.top(3, 1) != 0.5 || p.top(5, 1) != 1 || p.top(3, 0) != 1 || p.top(3, 2) != 0 {
		t.Errorf("top: %v %v %v", p.top(1, 1), p.top(3, 1), p.top(5, 1))
	}
	if p.exam(0) != 0.2 || p.exam(1) != 0.35 || p.exam(2) != 0.5 {
		t.Errorf("exam: %v %v %v", p.exam(0), p.exam(1), p.exam(2))
	}
}

// TestPlaceInfinite checks that an infinite score (DStar) ties only with
// itself.
func TestPlaceInfinite(t *testing.T) {
	if spectrum.Tied(math.Inf(1), 3) || spectrum.Tied(3, math.Inf(1)) || !spectrum.Tied(math.Inf(1), math.Inf(1)) || !spectrum.Tied(0.1+0.2, 0.3) {
		t.Error("near")
	}
}
