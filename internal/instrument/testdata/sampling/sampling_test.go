package sampling

import "testing"

func calls(t *testing.T) {
	for i := 0; i < 6; i++ {
		if Twice(i) != 2*i {
			t.Fatal(i)
		}
	}
}

func TestA(t *testing.T) { calls(t) }

func TestB(t *testing.T) { calls(t) }
