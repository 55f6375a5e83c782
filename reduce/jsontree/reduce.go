package jsontree

import (
	"context"
	"encoding/json"

	"github.com/culprit-go/culprit/reduce/rewrite"
)

// Reduce reduces the JSON document doc by its tree while fails reports
// true, with workers candidates tested concurrently, and returns the
// smallest failing document found, laid out in doc's style. Candidates
// that are not valid JSON are never given to fails.
func Reduce(ctx context.Context, doc string, fails func(ctx context.Context, doc string) bool, workers int) (string, error) {
	return rewrite.String(ctx, &Syntax{}, "input.json", doc, fails, workers)
}

// Rewrite is a hook for reduce.Call's Rewrite field: it reduces the
// string arguments that are JSON objects or arrays by their trees, and
// leaves the others to the rune-by-rune reduction.
func Rewrite(ctx context.Context, arg int, s string, fails func(ctx context.Context, s string) bool) (string, error) {
	if n, err := Parse([]byte(s)); err != nil || (n.Kind != Object && n.Kind != Array) || !json.Valid([]byte(s)) {
		return s, nil
	}
	return Reduce(ctx, s, fails, 1)
}
