package gosyntax_test

import (
	"context"
	"fmt"
	"go/format"
	"go/parser"
	"go/token"
	"math/rand"
	"strings"
	"testing"

	"github.com/culprit-go/culprit/reduce/gosyntax"
	"github.com/culprit-go/culprit/reduce/rewrite"
)

// randomProgram builds a random, type-correct Go file of n functions
// whose statements print numbered string literals.
func randomProgram(rng *rand.Rand, n int) string {
	var b strings.Builder
	b.WriteString("package p\n\nimport \"fmt\"\n\n")
	lit := 0
	stmt := func(depth int) string {
		lit++
		switch rng.Intn(4) {
		case 0:
			return fmt.Sprintf("fmt.Println(%q, x)", fmt.Sprint("s", lit))
		case 1:
			return fmt.Sprintf("if x > %d {\n\tfmt.Print(%q)\n} else {\n\tx++\n}", rng.Intn(9), fmt.Sprint("s", lit))
		case 2:
			return fmt.Sprintf("for i := 0; i < %d; i++ {\n\tx += i * %d\n\tfmt.Print(%q)\n}", rng.Intn(9), rng.Intn(9), fmt.Sprint("s", lit))
		}
		return fmt.Sprintf("x = helper%d(x+%d, %q)", rng.Intn(n), rng.Intn(9), fmt.Sprint("s", lit))
	}
	for f := 0; f < n; f++ {
		fmt.Fprintf(&b, "func helper%d(x int, s string) int {\n", f)
		for k := rng.Intn(4); k >= 0; k-- {
			b.WriteString(stmt(0) + "\n")
		}
		b.WriteString("return x + len(s)\n}\n\n")
	}
	src, err := format.Source([]byte(b.String()))
	if err != nil {
		panic(err)
	}
	return string(src)
}

// FuzzReduce reduces random programs against random oracles (one or two
// of the program's string literals must stay) and checks that every
// candidate parses and is gofmt'd, and that the result still fails.
func FuzzReduce(f *testing.F) {
	f.Add(int64(1), 3)
	f.Add(int64(7), 5)
	f.Fuzz(func(t *testing.T, seed int64, n int) {
		rng := rand.New(rand.NewSource(seed))
		src := randomProgram(rng, min(max(n, 1), 6))
		var lits []string
		for i := 1; strings.Contains(src, fmt.Sprintf(`"s%d"`, i)); i++ {
			lits = append(lits, fmt.Sprintf(`"s%d"`, i))
		}
		need := []string{lits[rng.Intn(len(lits))], lits[rng.Intn(len(lits))]}
		fails := func(_ context.Context, s string) bool {
			if _, err := parser.ParseFile(token.NewFileSet(), "", s, 0); err != nil {
				t.Fatalf("tested a candidate that does not parse: %v\n%s", err, s)
			}
			if f, err := format.Source([]byte(s)); err != nil || string(f) != s {
				t.Fatalf("tested a candidate that is not gofmt'd:\n%s", s)
			}
			return strings.Contains(s, need[0]) && strings.Contains(s, need[1])
		}
		out, err := gosyntax.Reduce(context.Background(), src, fails, 1+rng.Intn(2))
		if err != nil {
			t.Fatal(err)
		}
		if !fails(context.Background(), out) {
			t.Fatalf("result does not fail:\n%s", out)
		}
		if len(out) >= len(src) {
			t.Fatalf("nothing removed from\n%s", src)
		}
	})
}

// FuzzEditsUnparsable corrupts a random program at one byte and runs every
// round on the partial tree go/parser recovers: the edits must apply, and
// the candidates Normalize accepts must have no syntax error the
// corrupted original does not have.
func FuzzEditsUnparsable(f *testing.F) {
	f.Add(int64(1), 3, 100, byte('{'))
	f.Add(int64(7), 5, 40, byte(')'))
	f.Fuzz(func(t *testing.T, seed int64, n, at int, c byte) {
		rng := rand.New(rand.NewSource(seed))
		src := []byte(randomProgram(rng, min(max(n, 1), 6)))
		if at < 0 {
			at = -at
		}
		src[at%len(src)] = c
		s := &gosyntax.Syntax{}
		_, perr := parser.ParseFile(token.NewFileSet(), "p.go", src, 0)
		for round := 0; ; round++ {
			edits, more := s.Edits("p.go", src, round)
			for k := range edits {
				cand, err := rewrite.Apply(src, edits[k:k+1])
				if err != nil {
					t.Fatalf("round %d: %v", round, err)
				}
				out, err := s.Normalize("p.go", src, cand)
				if err == nil && perr == nil {
					if _, err := parser.ParseFile(token.NewFileSet(), "", out, 0); err != nil {
						t.Fatalf("round %d: accepted a candidate that does not parse: %v", round, err)
					}
				}
			}
			if !more {
				break
			}
		}
	})
}
