package calls

import "testing"

func TestCalls(t *testing.T) {
	for _, c := range []struct {
		name string
		got  func() int
		want int
	}{
		{"Sscan", func() int { return Sscan("42") }, 42},
		{"Unmarshal", func() int { return Unmarshal([]byte(`{"N": 7}`)) }, 7},
		{"BinaryRead", func() int { return int(BinaryRead([]byte{1, 2})) }, 513},
		{"ReadFull", func() int { return int(ReadFull("abcd")) }, 'b'},
		{"Min", func() int { return Min(5, 2) }, 2},
		{"Reflect", func() int { return Reflect(3) }, 3},
		{"Delete", func() int { return Delete(1, "a") }, 0},
		{"ReadOnly", func() int { return ReadOnly(1, 2) }, 1},
		{"Instrumented", func() int { return Instrumented(1, 2) }, 2},
		{"Mapped", func() int { return Mapped("a") }, 99},
		{"Through", func() int { return Through(4) }, 4},
		{"Builder", func() int { return Builder("ab", "c") }, 3},
		{"Counter", func() int { return Counter(5) }, 5},
		{"Scaled", func() int { return Scaled(2, "b") }, 8},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := c.got(); got != c.want {
				t.Errorf("%s = %d, want %d", c.name, got, c.want)
			}
		})
	}
}
