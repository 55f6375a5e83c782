package sum

import (
	"strings"
	"testing"
)

// TestSum2Single is the seed's single call, from which a miner
// overspecializes.
func TestSum2Single(t *testing.T) {
	if got := Sum2(2, 2); got != 4 {
		t.Errorf("Sum2(2, 2) = %d, want 4", got)
	}
}

// TestSum2Varied is the seed's set of varied calls.
func TestSum2Varied(t *testing.T) {
	for _, tc := range []struct{ a, b, want int }{
		{31, 45, 76},
		{0, 0, 0},
		{-1, -5, -6},
		{1, 2, 3},
		{-4, -5, -9},
	} {
		if got := Sum2(tc.a, tc.b); got != tc.want {
			t.Errorf("Sum2(%d, %d) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestSum3Ints calls Sum3 on the seed's integers.
func TestSum3Ints(t *testing.T) {
	for _, tc := range []struct{ a, b, c, want int }{
		{1, 2, 3, 6},
		{-4, -5, -6, -15},
		{0, 0, 0, 0},
	} {
		if got := Sum3(tc.a, tc.b, tc.c); got != tc.want {
			t.Errorf("Sum3(%d, %d, %d) = %d, want %d", tc.a, tc.b, tc.c, got, tc.want)
		}
	}
}

// TestSum3Strings calls Sum3 on the seed's strings.
func TestSum3Strings(t *testing.T) {
	for _, tc := range []struct{ a, b, c, want string }{
		{"a", "b", "c", "abc"},
		{"f", "e", "d", "fed"},
		{"c", "b", "a", "cba"},
	} {
		if got := Sum3(tc.a, tc.b, tc.c); got != tc.want {
			t.Errorf("Sum3(%q, %q, %q) = %q, want %q", tc.a, tc.b, tc.c, got, tc.want)
		}
	}
}

// TestPrintSum checks what PrintSum writes for the seed's calls.
func TestPrintSum(t *testing.T) {
	var b strings.Builder
	PrintSum(&b, 31, 45)
	PrintSum(&b, 0, 0)
	PrintSum(&b, -1, -5)
	if got, want := b.String(), "76\n0\n-6\n"; got != want {
		t.Errorf("PrintSum wrote %q, want %q", got, want)
	}
}
