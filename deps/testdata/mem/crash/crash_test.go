package crash

import "testing"

func TestAttr(t *testing.T) {
	c, err := Attr("i")
	if err == nil && c != ']' {
		t.Errorf("Attr = %c", c)
	}
}
