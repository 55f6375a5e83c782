package command

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/culprit-go/culprit/reduce"
	"github.com/culprit-go/culprit/reduce/oracle"
)

// jsonbug panics on a JSON document holding an object of kind "bug" with
// a size above 100, and exits 1 on invalid JSON: most candidates of the
// tokens and bytes levels are invalid.
func jsonbug(path string) {
	b, _ := os.ReadFile(path)
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		fmt.Fprintln(os.Stderr, "invalid JSON:", err)
		os.Exit(1)
	}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if size, ok := v["size"].(float64); ok && v["kind"] == "bug" && size > 100 {
				panic("bug too large")
			}
			for _, w := range v {
				walk(w)
			}
		case []any:
			for _, w := range v {
				walk(w)
			}
		}
	}
	walk(v)
}

// largeJSON is a compact document of about n bytes with one bug in the
// middle.
func largeJSON(n int) []byte {
	rng := rand.New(rand.NewSource(1))
	var items []any
	for i := 0; i*70 < n; i++ {
		items = append(items, map[string]any{"id": i, "name": fmt.Sprint("item", i), "kind": "abc"[rng.Intn(3):][:1], "size": rng.Intn(100)})
	}
	items[len(items)/2] = map[string]any{"kind": "bug", "size": 150}
	b, _ := json.Marshal(map[string]any{"items": items})
	return b
}

// BenchmarkLevels60K runs the tokens and bytes levels on a 60 KB document
// (no tree passes) against a fast oracle for a fixed number of tests, and
// reports culprit's own time per test: everything but the oracle's run.
func BenchmarkLevels60K(b *testing.B) {
	const tests = 2000
	path := filepath.Join(b.TempDir(), "big.json")
	os.WriteFile(path, largeJSON(60000), 0o644)
	for b.Loop() {
		in, err := Read(path)
		if err != nil {
			b.Fatal(err)
		}
		r := &Reducer{
			Input: in,
			Command: oracle.Command{
				Args:    []string{os.Args[0]},
				Env:     append(os.Environ(), helperEnv+"=jsonbug", "GORACE=atexit_sleep_ms=0"),
				Timeout: time.Minute,
			},
			Judge:  oracle.Judge{Rule: oracle.GoPanic},
			Mode:   reduce.Min,
			Levels: []Level{Tokens, Bytes},
			Jobs:   2,
			Output: path + ".reduced",
		}
		ctx, cancel := context.WithCancel(context.Background())
		var oracleTime time.Duration
		r.OnTest = func(e Event) {
			oracleTime += e.Run.Duration
			if e.Number >= tests {
				cancel()
			}
		}
		if err := r.Check(ctx); err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		sum, _ := r.Reduce(ctx)
		cancel()
		wall := time.Since(start)
		b.ReportMetric(float64(wall.Microseconds())/float64(sum.Tests), "µs/test")
		b.ReportMetric(float64(oracleTime.Microseconds())/float64(sum.Tests)/2, "oracle-µs/test")
		b.ReportMetric(float64(sum.FinalBytes), "bytes")
	}
}
