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
