package addr

import "testing"

func TestAddr(t *testing.T) {
	t.Run("Filled", func(t *testing.T) {
		if got := Filled(1, 2); got != "\x001\x00" {
			t.Errorf("Filled = %q", got)
		}
	})
	t.Run("Encoded", func(t *testing.T) {
		if got := Encoded(1, 2); got != "01" {
			t.Errorf("Encoded = %q", got)
		}
	})
	t.Run("Decoded", func(t *testing.T) {
		if !Decoded(0) {
			t.Errorf("Decoded(0) = false")
		}
	})
	t.Run("Marked", func(t *testing.T) {
		if got := Marked(1, 1); got != 1 {
			t.Errorf("Marked(1, 1) = %d", got)
		}
	})
}
