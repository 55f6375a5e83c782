package listlength

import "testing"

// TestListLength is the seed's call.
func TestListLength(t *testing.T) {
	if got := ListLength([]int{1, 2, 3}); got != 3 {
		t.Errorf("ListLength([1 2 3]) = %d, want 3", got)
	}
}

// TestListLengthEmpty covers the base case alone.
func TestListLengthEmpty(t *testing.T) {
	if got := ListLength([]string(nil)); got != 0 {
		t.Errorf("ListLength(nil) = %d, want 0", got)
	}
}

// TestListLengthStrings counts a slice of another element type.
func TestListLengthStrings(t *testing.T) {
	if got := ListLength([]string{"a", "b"}); got != 2 {
		t.Errorf(`ListLength(["a" "b"]) = %d, want 2`, got)
	}
}
