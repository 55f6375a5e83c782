package invariant

import (
	"testing"

	"github.com/culprit-go/culprit/trace"
)

// TestShare: a value equal to the call before's takes its parts (so
// later comparisons find them the same at once), one that differs
// keeps its own, and a record left with no parts of its own is copied
// out of its block.
func TestShare(t *testing.T) {
	mk := func(xs ...int64) trace.Value {
		return ptr("*m.T", strct("m.T", trace.Field{Name: "xs", Value: ints(xs)}))
	}
	like := []trace.Value{mk(1, 2), iv(3)}
	same := []trace.Value{mk(1, 2), iv(4)}
	got := share(same, like)
	if &got[0].Elems[0] != &like[0].Elems[0] {
		t.Errorf("equal value: parts not shared")
	}
	if &got[0] == &same[0] {
		t.Errorf("no parts of its own left: the record was not copied")
	}
	if !equalValues(&got[0], &like[0]) || got[1].Int != 4 {
		t.Errorf("shared values changed: %+v", got)
	}
	other := []trace.Value{mk(1, 5), iv(3)}
	got = share(other, like)
	if &got[0].Elems[0] == &like[0].Elems[0] || &got[0] != &other[0] {
		t.Errorf("a different value shares parts, or its record was copied")
	}
	if a, b := mk(1, 2), mk(1, 5); equalValues(&a, &b) {
		t.Errorf("equalValues: different parts equal")
	}
	if share(nil, like) != nil {
		t.Errorf("share(nil) is not nil")
	}
}
