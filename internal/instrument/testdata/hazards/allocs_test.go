//go:build !race

package hazards

import "testing"

func TestAllocs(t *testing.T) {
	buf := make([]byte, 0, 64)
	prefix := []byte("group.")
	n := testing.AllocsPerRun(100, func() { buf = Quote(buf[:0], prefix, "key") })
	if n != 0 {
		t.Errorf("Quote allocates %v times a run, want none", n)
	}
	if string(buf) != `"group.key"` {
		t.Errorf("Quote = %s", buf)
	}
}

func TestAllocsRecorded(t *testing.T) {
	m := map[string][]string{"a": {"x", "yz"}, "b": {"uvw"}}
	n := 0
	if a := testing.AllocsPerRun(100, func() { n = Total(m) }); a != 0 {
		t.Errorf("Total allocates %v times a run, want none", a)
	}
	if n != 6 {
		t.Errorf("Total = %d, want 6", n)
	}
}

func TestAllocsInlined(t *testing.T) {
	tok := token{raw: []byte(`"hello"`)}
	var m map[string]bool
	if n := testing.AllocsPerRun(10, func() {
		if m[tok.String()] {
			panic("never")
		}
	}); n != 0 {
		t.Errorf("token.String allocates %v times a run, want none", n)
	}
}
