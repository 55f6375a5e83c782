package trace

import (
	"reflect"
	"testing"
)

func TestSiteResults(t *testing.T) {
	tests := []struct {
		info string
		want []string
	}{
		{"f(a, b)", nil},
		{"f()", nil},
		{"f() (_culpritR0)", []string{"_culpritR0"}},
		{"Multi(s) (n, up, err)", []string{"n", "up", "err"}},
		{"T.M(t, x) (result)", []string{"result"}},
		{"Sorted.func(i, j) (_culpritR0)", []string{"_culpritR0"}},
	}
	for _, tt := range tests {
		if got := (Site{Kind: KindFunc, Info: tt.info}).Results(); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Results of %q = %q, want %q", tt.info, got, tt.want)
		}
	}
	if got := (Site{Kind: KindCall, Info: "f() (x)"}).Results(); got != nil {
		t.Errorf("a call site has results %q", got)
	}
}
