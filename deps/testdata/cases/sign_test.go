package cases

import "testing"

func TestSign(t *testing.T) {
	for _, tc := range []struct{ x, want int }{{5, 1}, {0, 0}, {-3, -1}, {-20, -1}, {7, 1}} {
		if got := Sign(tc.x); got != tc.want {
			t.Errorf("Sign(%d) = %d, want %d", tc.x, got, tc.want)
		}
	}
}

// TestSignInRow checks its cases one after another.
func TestSignInRow(t *testing.T) {
	if got := Sign(3); got != 1 {
		t.Fatalf("Sign(3) = %d", got)
	}
	if got := Sign(-30); got != -1 {
		t.Errorf("Sign(-30) = %d", got)
	}
	if got := Sign(0); got != 0 {
		t.Errorf("Sign(0) = %d", got)
	}
}

// TestSignAfterSetup checks what its cases build on first, with a check
// of its own.
func TestSignAfterSetup(t *testing.T) {
	base := Sign(1)
	if base != 1 {
		t.Fatalf("Sign(1) = %d", base)
	}
	for _, tc := range []struct{ x, want int }{{2, 1}, {-40, -1}} {
		if got := Sign(tc.x) * base; got != tc.want {
			t.Errorf("Sign(%d) = %d, want %d", tc.x, got, tc.want)
		}
	}
}
