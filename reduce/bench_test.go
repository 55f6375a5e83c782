package reduce

import (
	"context"
	"fmt"
	"testing"
)

// BenchmarkDDLarge is delta debugging over inputs as large as the tokens
// or bytes of a 60 KB file, with a test that costs nothing: what it
// measures is the algorithm's own work per test.
func BenchmarkDDLarge(b *testing.B) {
	for _, n := range []int{3000, 12000} {
		for _, need := range []int{2, 20, n / 10} {
			b.Run(fmt.Sprintf("n=%d/need=%d", n, need), func(b *testing.B) {
				input := allIndices(n)
				want := map[int]bool{}
				for k := range need {
					want[(k*7919+n/3)%n] = true
				}
				test := func(_ context.Context, c []int) Outcome {
					found := 0
					for _, x := range c {
						if want[x] {
							found++
						}
					}
					if found == need {
						return Fail
					}
					return Pass
				}
				tests := 0
				for b.Loop() {
					res, err := DD(context.Background(), input, test, Min, Config{NoCache: true})
					if err != nil || len(res.Fail) != need {
						b.Fatalf("DD = %d elements, %v", len(res.Fail), err)
					}
					tests = res.Tests
				}
				b.ReportMetric(float64(tests), "tests/op")
			})
		}
	}
}
