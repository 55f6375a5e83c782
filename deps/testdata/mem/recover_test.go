package mem

import "testing"

func TestRecovered(t *testing.T) {
	if err := Parse("no"); err == nil {
		t.Error("no error")
	}
}
