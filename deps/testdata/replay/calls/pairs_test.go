package calls

import "testing"

func TestPair(t *testing.T) {
	if v, err := Pair(3); v != 6 || err != nil {
		t.Errorf("Pair(3) = %d, %v", v, err)
	}
}
