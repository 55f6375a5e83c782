//go:build !race

package hazards

import "testing"

func TestForged(t *testing.T) {
	if k := KindOf(Forged()); k != "*Forgery" {
		t.Errorf("KindOf(Forged()) = %s, want *Forgery", k)
	}
}
