package budget

import "testing"

func TestMany(t *testing.T) {
	x := 0
	for i := 0; i < 300; i++ {
		x = Inc(x)
	}
	if x != 300 {
		t.Fatal(x)
	}
	total := 0
	for i := 0; i < 300; i++ {
		total += Steps(i)
	}
	if total != 29646 {
		t.Fatal(total)
	}
}
