package vetfail

import "testing"

func TestHello(t *testing.T) {
	if x := Hello(""); x == "" {
		t.Fatal(x)
	}
}
