package mem

import "testing"

func TestDiv(t *testing.T) {
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("Div panicked: %v", r)
		}
	}()
	Div(1, 0)
}

func TestEither(t *testing.T) {
	if !Either(1, 2) {
		t.Error("either")
	}
}

func TestShift(t *testing.T) {
	if Shift(7) != 7 {
		t.Error("shift")
	}
}
