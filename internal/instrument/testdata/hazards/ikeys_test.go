package hazards

import "testing"

func TestInterfaceKeys(t *testing.T) {
	if sum, found := InterfaceKeys(); sum != 3 || found {
		t.Errorf("InterfaceKeys() = %d, %v, want 3, false", sum, found)
	}
}
