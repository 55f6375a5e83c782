package loops

import "testing"

func TestLoops(t *testing.T) {
	for _, c := range []struct {
		name string
		got  func() int
		want int
	}{
		{"Forever", func() int { return Forever("1") }, 19},
		{"Classic", func() int { return Classic(4) }, 4},
		{"PostOnly", func() int { return PostOnly(3) }, 3},
		{"RangeInt", func() int { return RangeInt(3) }, 3},
		{"RangeSlice", func() int { return RangeSlice([]int{1, 2, -1, 4}) }, 3},
		{"RangeMap", func() int { return RangeMap(map[string]int{"a": 5}) }, 5},
		{"RangeChan", func() int { return RangeChan(1, 2) }, 3},
		{"RangeFunc", func() int { return RangeFunc(3) }, 3},
		{"Labeled", func() int { return Labeled(3) }, 3},
		{"Goto", func() int { return Goto(3) }, 3},
		{"Select", func() int { return Select(5) }, 4},
		{"Fallthrough", func() int { return Fallthrough(2) }, 3},
		{"Block", func() int { return Block(2) }, 2},
		{"RangeYield", func() int { return RangeYield([]int{1, 2}) }, 6},
		{"RangeYield2", func() int { return RangeYield2([]int{1, 2}, 10) }, 23},
		{"RangeAdapter", func() int { return RangeAdapter([]int{1, 2}) }, 8},
		{"Header", func() int { return Header(1, 2) }, 8},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := c.got(); got != c.want {
				t.Errorf("%s = %d, want %d", c.name, got, c.want)
			}
		})
	}
}
