package calls

import "testing"

func TestRecovered(t *testing.T) {
	if got := Recovered(5); got != 60 {
		t.Errorf("Recovered(5) = %d, want 60", got)
	}
}

func TestRecoveredParse(t *testing.T) {
	if got := RecoveredParse(); got != 12 {
		t.Errorf("RecoveredParse() = %d, want 12", got)
	}
}

func TestRecoveredAt(t *testing.T) {
	if _, err := GuardedAt([]int{1}, 3); err == nil {
		t.Error("GuardedAt([1], 3): no error")
	}
}
