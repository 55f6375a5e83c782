package gosyntax_test

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/culprit-go/culprit/reduce/gosyntax"
)

// BenchmarkNormalize checks a candidate of a 54 KB file of the standard
// library, as the levels do for every candidate of a Go input (with
// Check): a candidate that does not parse, and one that does (formatted,
// with Normalize, and type-checked).
func BenchmarkNormalize(b *testing.B) {
	path := filepath.Join(runtime.GOROOT(), "src", "go", "printer", "nodes.go")
	orig, err := os.ReadFile(path)
	if err != nil {
		b.Skip(err)
	}
	broken := append([]byte(nil), orig...)
	broken[len(broken)/2] = '{'
	for _, c := range []struct {
		name string
		text []byte
	}{{"unparsable", broken}, {"parses", orig[:len(orig)-1]}} {
		b.Run(c.name, func(b *testing.B) {
			s := &gosyntax.Syntax{}
			s.Normalize("nodes.go", orig, orig)
			for b.Loop() {
				s.Normalize("nodes.go", orig, c.text)
			}
		})
		b.Run(c.name+"/check", func(b *testing.B) {
			s := &gosyntax.Syntax{}
			s.Normalize("nodes.go", orig, orig)
			for b.Loop() {
				s.Check("nodes.go", orig, c.text)
			}
		})
	}
}
