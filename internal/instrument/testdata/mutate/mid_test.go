package mutate

import "testing"

func TestMiddle(t *testing.T) {
	for _, c := range [][4]int{{3, 3, 5, 3}, {1, 2, 3, 2}, {3, 2, 1, 2}, {5, 5, 5, 5}, {5, 3, 4, 4}} {
		if got := Middle(c[0], c[1], c[2]); got != c[3] {
			t.Errorf("Middle(%d, %d, %d) = %d, want %d", c[0], c[1], c[2], got, c[3])
		}
	}
}

func TestMiddleFails(t *testing.T) {
	if got := Middle(2, 1, 3); got != 2 {
		t.Errorf("Middle(2, 1, 3) = %d, want 2", got)
	}
}

func TestSum(t *testing.T) {
	if got := Sum([]int{1, 2, 3}, 2); got != 3 {
		t.Errorf("Sum = %d", got)
	}
}
