package constructs

import "testing"

func TestMiddle(t *testing.T) {
	cases := []struct{ x, y, z, want int }{{3, 3, 5, 3}, {1, 2, 3, 2}, {3, 2, 1, 2}, {5, 5, 5, 5}, {5, 3, 4, 4}, {2, 1, 3, 2}}
	for _, c := range cases {
		t.Run("", func(t *testing.T) {
			if got := Middle(c.x, c.y, c.z); got != c.want {
				t.Errorf("Middle(%d, %d, %d) = %d, want %d", c.x, c.y, c.z, got, c.want)
			}
		})
	}
}

func TestPar(t *testing.T) {
	for _, n := range []string{"a", "b"} {
		t.Run(n, func(t *testing.T) {
			t.Parallel()
			done := make(chan int)
			go func() { r, _ := Named(5); done <- r }()
			<-done
			Gen([]int{1, 2})
		})
	}
}

func TestSkip(t *testing.T) { t.Skip("no") }
