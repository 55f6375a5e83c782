package calc

import "testing"

// TestEval checks values and errors. Only division_by_zero fails: Eval
// panics instead of returning an error.
func TestEval(t *testing.T) {
	for _, tc := range []struct {
		name    string
		in      string
		want    int
		wantErr bool
	}{
		{"precedence", "1 + 2 * 3", 7, false},
		{"parentheses", "(1 + 2) * 3", 9, false},
		{"truncating_division", "7 / 2", 3, false},
		{"unary_minus", "-4 - -6", 2, false},
		{"missing_operand", "1 +", 0, true},
		{"unbalanced", "(1 + 2", 0, true},
		{"division_by_zero", "1 + 2 * 3 / 0", 0, true}, // fails: panics
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("Eval(%q) panicked: %v", tc.in, r)
				}
			}()
			got, err := Eval(tc.in)
			switch {
			case tc.wantErr && err == nil:
				t.Errorf("Eval(%q) = %d, want an error", tc.in, got)
			case !tc.wantErr && err != nil:
				t.Errorf("Eval(%q): %v", tc.in, err)
			case !tc.wantErr && got != tc.want:
				t.Errorf("Eval(%q) = %d, want %d", tc.in, got, tc.want)
			}
		})
	}
}
