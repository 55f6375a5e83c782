package gosyntax

import (
	"context"
	"go/parser"
	"go/token"

	"github.com/culprit-go/culprit/reduce/rewrite"
)

// Reduce reduces the Go source file src by its syntax tree while fails
// reports true, with workers candidates tested concurrently, and returns
// the smallest failing source found, gofmt-formatted. Candidates that do
// not parse, or that add a type error, are never given to fails.
func Reduce(ctx context.Context, src string, fails func(ctx context.Context, src string) bool, workers int) (string, error) {
	return rewrite.String(ctx, &Syntax{}, "input.go", src, fails, workers)
}

// Rewrite is a hook for reduce.Call's Rewrite field: it reduces the
// string arguments that parse as Go source files by their syntax trees,
// and leaves the others to the rune-by-rune reduction.
func Rewrite(ctx context.Context, arg int, s string, fails func(ctx context.Context, s string) bool) (string, error) {
	if _, err := parser.ParseFile(token.NewFileSet(), "", s, parser.SkipObjectResolution); err != nil {
		return s, nil
	}
	return Reduce(ctx, s, fails, 1)
}
