package deps

import (
	"slices"
	"testing"
)

// TestDefSet checks the sorted set of definitions: order kept on every
// insertion, no duplicates, removal, and only's reuse of its array.
func TestDefSet(t *testing.T) {
	tests := []struct {
		name string
		add  []int
		drop []int
		want defSet
	}{
		{"empty", nil, nil, nil},
		{"increasing", []int{1, 4, 9}, nil, defSet{1, 4, 9}},
		{"any order", []int{9, 1, 4, 2}, nil, defSet{1, 2, 4, 9}},
		{"repeats", []int{3, 3, 1, 3, 1}, nil, defSet{1, 3}},
		{"dropped", []int{5, 1, 7, 3}, []int{1, 7}, defSet{3, 5}},
		{"dropped absent", []int{5, 1}, []int{2, 6}, defSet{1, 5}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var s defSet
			for _, id := range tc.add {
				s = s.with(id)
			}
			if tc.drop != nil {
				s = s.without(tc.drop)
			}
			if !slices.Equal(s, tc.want) {
				t.Fatalf("got %v, want %v", s, tc.want)
			}
			for _, id := range tc.add {
				if s.has(id) != !slices.Contains(tc.drop, id) {
					t.Errorf("has(%d) = %v", id, s.has(id))
				}
			}
		})
	}
	s := defSet{2, 5, 8}
	o := only(s, 3)
	if !slices.Equal(o, defSet{3}) || &o[0] != &s[0] {
		t.Errorf("only(%v, 3) = %v, not made in place", s, o)
	}
	if e := only(nil, -1); e == nil || len(e) != 0 {
		t.Errorf("only(nil, -1) = %#v, want an empty set that is not nil (a variable defined)", e)
	}
}
