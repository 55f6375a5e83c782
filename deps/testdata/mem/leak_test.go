package mem

import (
	"bytes"
	"testing"
)

func TestLeak(t *testing.T) {
	var buf bytes.Buffer
	if Leak(&buf, "x", "y") != "x!" {
		t.Error("leak")
	}
}
