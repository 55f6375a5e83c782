package doconly_test

import "testing"

func TestSum(t *testing.T) {
	sum := 0
	for i := 1; i <= 3; i++ {
		sum += i
	}
	if sum != 6 {
		t.Errorf("sum = %d, want 6", sum)
	}
}
