package hazards

import "testing"

func TestInterfaceKeys(t *testing.T) {
	if sum, found := InterfaceKeys(); sum != 3 || found {
		t.Errorf("InterfaceKeys() = %d, %v, want 3, false", sum, found)
	}
}

func TestShorten(t *testing.T) {
	b := &Batch{calls: []int{7}}
	b.Shorten(0)
	if len(b.calls) != 0 {
		t.Errorf("calls = %v, want none", b.calls)
	}
	b = &Batch{calls: []int{1, 2, 3}}
	b.Shorten(0)
	if len(b.calls) != 2 || b.calls[0] != 3 {
		t.Errorf("calls = %v, want [3 2]", b.calls)
	}
}
