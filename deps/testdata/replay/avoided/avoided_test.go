package avoided

import "testing"

func TestAvoided(t *testing.T) {
	if Panicked(2) {
		t.Errorf("Panicked(2)")
	}
}
