package mem

import "testing"

func TestShadow(t *testing.T) {
	if Shadow(1, 2) != 1 {
		t.Error("shadow")
	}
}

func TestElems(t *testing.T) {
	if Elems(1, 2) != 2 {
		t.Error("elems")
	}
}

func TestAlias(t *testing.T) {
	if Alias(1, 2) != 2 {
		t.Error("alias")
	}
}

func TestField(t *testing.T) {
	if Field("a", "b") != "a" {
		t.Error("field")
	}
}

func TestPointer(t *testing.T) {
	if Pointer(1, 2) != 2 {
		t.Error("pointer")
	}
}

func TestMap(t *testing.T) {
	if Map(1, 2) != 1 {
		t.Error("map")
	}
}

func TestSwitch(t *testing.T) {
	if Switch(2, 1, 2) != 2 {
		t.Error("switch")
	}
}

func TestSum(t *testing.T) {
	got := Sum([]int{1, 2})
	want := 3
	equal(t, got, want)
}

// equal is a helper making the check.
func equal(t *testing.T, got, want int) {
	t.Helper()
	if got != want {
		t.Errorf("got %d, want %d", got, want)
	}
}

func TestFirst(t *testing.T) {
	if got := First(5); got != 1 {
		t.Errorf("First(5) = %d", got)
	}
}
