package changes

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/culprit-go/culprit/reduce"
)

// TestDD: the minimal difference between a passing and a failing set,
// on a change where only unit 7 fails alone but every unit needs its
// neighbour to build, and the same result with any number of workers.
func TestDD(t *testing.T) {
	for _, c := range []struct {
		reason string
		test   func(set []int) reduce.Outcome
		want   string
	}{
		{
			reason: "unit 7 fails on its own",
			test: func(set []int) reduce.Outcome {
				if slices.Contains(set, 7) {
					return reduce.Fail
				}
				return reduce.Pass
			},
			want: "[7]",
		},
		{
			reason: "units 3 and 12 fail together, any other unit alone does not build",
			test: func(set []int) reduce.Outcome {
				switch {
				case slices.Contains(set, 3) && slices.Contains(set, 12):
					return reduce.Fail
				case len(set) == 1:
					return reduce.Unresolved
				}
				return reduce.Pass
			},
			want: "",
		},
	} {
		var first string
		for _, jobs := range []int{1, 3} {
			all := make([]int, 16)
			for i := range all {
				all[i] = i
			}
			pass, fail, err := dd(context.Background(), len(all), nil, all, jobs, func(_ context.Context, s []int) reduce.Outcome { return c.test(s) })
			if err != nil {
				t.Fatal(err)
			}
			if c.test(pass) != reduce.Pass || c.test(fail) != reduce.Fail {
				t.Errorf("%s: pass %v or fail %v wrong", c.reason, pass, fail)
			}
			got := fmt.Sprint(difference(fail, pass))
			if jobs == 1 {
				first = got
				if len(difference(fail, pass)) != 1 {
					t.Errorf("%s: difference %s, want one unit", c.reason, got)
				}
			} else if got != first {
				t.Errorf("%s: jobs %d gives %s, jobs 1 %s", c.reason, jobs, got, first)
			}
		}
		if c.want != "" && first != c.want {
			t.Errorf("%s: difference %s, want %s", c.reason, first, c.want)
		}
	}
}
