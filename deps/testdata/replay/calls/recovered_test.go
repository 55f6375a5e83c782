package calls

import "testing"

func TestRecovered(t *testing.T) {
	if got := Recovered(5); got != 60 {
		t.Errorf("Recovered(5) = %d, want 60", got)
	}
}
