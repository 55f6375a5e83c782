package mutateold

import "testing"

func TestFirst(t *testing.T) {
	if got := First([]interface{}{nil, 2}); got != 2 {
		t.Errorf("First = %v", got)
	}
}
