package mutate

import (
	"runtime"
	"testing"
)

// TestManyCores fails only where it may run on more than one core (as a
// race or a deadline may show only there).
func TestManyCores(t *testing.T) {
	if runtime.GOMAXPROCS(0) > 1 {
		if got := Middle(2, 1, 3); got != 2 {
			t.Errorf("Middle(2, 1, 3) = %d, want 2", got)
		}
	}
}
