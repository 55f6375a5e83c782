package a

import "testing"

func TestQuad(t *testing.T) {
	if Quad(2) != 8 {
		t.Fatal("Quad")
	}
}
