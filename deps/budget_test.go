package deps

import "testing"

// TestWaterLevel: the cap on a position's versions once an
// execution-level graph reached its budget is the greatest that leaves
// the positions' versions, each capped, within the total.
func TestWaterLevel(t *testing.T) {
	for _, c := range []struct {
		counts []int
		total  int
		want   int
		reason string
	}{
		{[]int{10, 1, 1}, 12, 10, "all fit: the most any made"},
		{[]int{10, 1, 1}, 6, 4, "the hot position capped, the others whole"},
		{[]int{10, 10, 1}, 11, 5, "two hot positions share what is left"},
		{[]int{100, 50, 3}, 60, 28, "28+28+3 fits, 29+29+3 does not"},
		{[]int{5, 5}, 3, 1, "rounded down"},
		{[]int{5, 5}, 1, 0, "none fits"},
	} {
		if got := waterLevel(append([]int(nil), c.counts...), c.total); got != c.want {
			t.Errorf("%v within %d: %d, want %d (%s)", c.counts, c.total, got, c.want, c.reason)
		}
	}
}
