package vendored

import "testing"

func TestTwice(t *testing.T) {
	if got := Twice(21); got != 42 {
		t.Errorf("Twice(21) = %d, want 42", got)
	}
}
