package mem

import "testing"

// TestParent fails through its second subtest only.
func TestParent(t *testing.T) {
	t.Run("ok", func(t *testing.T) {})
	t.Run("bad", func(t *testing.T) {
		if Either(0, 0) {
			return
		}
		t.Error("neither")
	})
}
