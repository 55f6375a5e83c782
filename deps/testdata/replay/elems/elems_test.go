package elems

import "testing"

func TestElems(t *testing.T) {
	t.Run("Append", func(t *testing.T) {
		if got := Append(1, 2, 3); got != 1 {
			t.Errorf("Append = %d", got)
		}
	})
	t.Run("Appended", func(t *testing.T) {
		if got := Appended(1, 2, 3); got != 3 {
			t.Errorf("Appended = %d", got)
		}
	})
	t.Run("Struct", func(t *testing.T) {
		if got := Struct(1, 2); got != 1 {
			t.Errorf("Struct = %d", got)
		}
	})
}
