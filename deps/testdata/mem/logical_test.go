package mem

import "testing"

func TestGuarded(t *testing.T) {
	if !Guarded(&cell{n: 5}, 3) {
		t.Error("5 > 3")
	}
}

func TestNested(t *testing.T) {
	if !Nested(0, 1, 2) {
		t.Error("b and c hold")
	}
}

func TestCopy(t *testing.T) {
	if Copy(7) != 7 {
		t.Error("copy")
	}
}

func TestSpawn(t *testing.T) {
	if Spawn(4) != 4 {
		t.Error("spawn")
	}
}
