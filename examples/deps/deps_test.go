package deps

import (
	"strings"
	"testing"
)

// TestDemo is the seed's call Demo(10): 10, 20, 40, 80.
func TestDemo(t *testing.T) {
	if got := Demo(10); got != 80 {
		t.Errorf("Demo(10) = %d, want 80", got)
	}
}

// TestAddThenMultiply is the seed's nested call.
func TestAddThenMultiply(t *testing.T) {
	if got := AddThenMultiply(); got != 5 {
		t.Errorf("AddThenMultiply() = %d, want 5", got)
	}
}

// TestFun2 is the seed's call Fun2(10).
func TestFun2(t *testing.T) {
	if got := Fun2(10); got != 10 {
		t.Errorf("Fun2(10) = %d, want 10", got)
	}
}

// TestCheckPassword tries the seed's wrong password and the right one.
func TestCheckPassword(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     bool
	}{
		{"wrong", "secret123\n", false},
		{"right", "debugging\n", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := CheckPassword(strings.NewReader(tc.in)); got != tc.want {
				t.Errorf("CheckPassword(%q) = %v, want %v", tc.in, got, tc.want)
			}
		})
	}
}

// TestMax is the seed's call Max(3, 4), and the other branch.
func TestMax(t *testing.T) {
	for _, tc := range []struct{ a, b, want int }{
		{3, 4, 4},
		{4, 3, 4},
	} {
		if got := Max(tc.a, tc.b); got != tc.want {
			t.Errorf("Max(%d, %d) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestFunc is the seed's call Func(3, 4, 5).
func TestFunc(t *testing.T) {
	if got := Func(3, 4, 5); got != 7 {
		t.Errorf("Func(3, 4, 5) = %d, want 7", got)
	}
}
