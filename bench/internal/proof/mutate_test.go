package proof

import (
	"go/parser"
	"go/token"
	"strings"
	"testing"
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

func h(v int) int {
	switch {
	case v > 3:
		return 1
	}
	return 0
}
`

// TestCandidates checks each operator's mutants: they parse, they change
// one statement, and they name its first line (a case's expressions,
// the case's).
func TestCandidates(t *testing.T) {
	ms, err := FileCandidates("p.go", []byte(sample))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range ms {
		out := m.Apply([]byte(sample))
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
		"p.go:16 flip: v > 3: > -> <=",
		"p.go:16 swap: swapped v > 3",
		"p.go:16 const: 3 -> 4",
		"p.go:17 const: 1 -> 2",
		"p.go:19 const: 0 -> 1",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if o1, o2 := Order(ms, 1), Order(ms, 1); o1[0] != o2[0] || len(o1) != len(ms) {
		t.Error("order is not deterministic or loses mutants")
	}
}
