package mutateold

import "testing"

func TestFirst(t *testing.T) {
	if got := First([]interface{}{nil, 2}); got != 2 {
		t.Errorf("First = %v", got)
	}
}

// TestFirstWrong fails on purpose: the mutants are measured against a
// failing test.
func TestFirstWrong(t *testing.T) {
	if got := First([]interface{}{nil, 3}); got != 2 {
		t.Errorf("First = %v, want 2", got)
	}
}
