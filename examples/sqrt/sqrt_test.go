package sqrt

import (
	"math"
	"testing"
)

// TestSquareRoot compares SquareRoot with math.Sqrt on the seeds' inputs.
// The negative input fails: SquareRoot panics where math.Sqrt returns NaN.
func TestSquareRoot(t *testing.T) {
	for _, tc := range []struct {
		name string
		x    float64
	}{
		{"two", 2.0},
		{"four", 4},
		{"ten", 10.0},
		{"twenty_five", 25.0},
		{"one", 1.0},
		{"one_hundredth", 0.01},
		{"minus_one", -1.0}, // fails: precondition panic
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("SquareRoot(%v) panicked: %v", tc.x, r)
				}
			}()
			got, want := SquareRoot(tc.x), math.Sqrt(tc.x)
			if math.IsNaN(want) {
				if !math.IsNaN(got) {
					t.Errorf("SquareRoot(%v) = %v, want NaN", tc.x, got)
				}
				return
			}
			if math.Abs(got-want) > 1e-12*want {
				t.Errorf("SquareRoot(%v) = %v, want %v", tc.x, got, want)
			}
		})
	}
}
