package mutate

import "testing"

// TestTable's case "bad" fails as TestMiddleFails does; its other cases
// pass.
func TestTable(t *testing.T) {
	for _, c := range []struct {
		name       string
		x, y, z, m int
	}{{"bad", 2, 1, 3, 2}, {"low", 1, 2, 3, 2}, {"high", 3, 2, 1, 2}} {
		t.Run(c.name, func(t *testing.T) {
			if got := Middle(c.x, c.y, c.z); got != c.m {
				t.Errorf("Middle(%d, %d, %d) = %d, want %d", c.x, c.y, c.z, got, c.m)
			}
		})
	}
}
