package invariant

import (
	"encoding/json"
	"testing"

	"github.com/culprit-go/culprit/trace"
)

// TestStreamed mines the fixtures with the first calls buffered and the
// rest checked one at a time, and with all calls buffered: the results
// are the same. The calls after the buffered ones keep their values
// without parts, as the collector keeps them after MaxDeepCalls, so
// that no variable is first seen among them.
func TestStreamed(t *testing.T) {
	fixtures := map[string]*Calls{"deep": deepCalls(), "aggregate": aggregateCalls(), "middle": middleCalls()}
	for name, cs := range fixtures {
		for _, k := range []int{1, 3, 10, 40} {
			shallowAfter(cs, k)
			for _, conf := range []float64{0, 0.5, 1} {
				opt := Options{Confidence: conf}
				want := mineBuffered(cs, opt, 1<<30)
				if got := mineBuffered(cs, opt, k); got != want {
					t.Errorf("%s, %d calls buffered, conf %g:\n%s\nwant (all buffered)\n%s", name, k, conf, got, want)
				}
				opt.Use = func(*Call) bool { return true }
				want = mineBuffered(cs, opt, 1<<30)
				if got := mineBuffered(cs, opt, k); got != want {
					t.Errorf("%s, %d calls buffered, conf %g, all calls:\n%s\nwant (all buffered)\n%s", name, k, conf, got, want)
				}
			}
		}
	}
}

// shallowAfter drops the parts of the values of every call after the
// first k of each function.
func shallowAfter(cs *Calls, k int) {
	for _, f := range cs.Functions {
		for i := k; i < len(f.Calls); i++ {
			c := &f.Calls[i]
			c.Args, c.Results, c.Final = shallow(c.Args), shallow(c.Results), shallow(c.Final)
		}
	}
}

// mineBuffered mines cs with k calls buffered (with -contrast when cs
// has failing calls) and returns the contracts as JSON.
func mineBuffered(cs *Calls, opt Options, k int) string {
	defer func(old int) { maxBuffered = old }(maxBuffered)
	maxBuffered = k
	c := Mine(cs, opt)
	if cc := Contrast(cs, opt); len(cc.Functions) > 0 {
		c.Functions = append(c.Functions, cc.Functions...)
	}
	b, err := json.MarshalIndent(c, "", " ")
	if err != nil {
		panic(err)
	}
	return string(b)
}

// shallow returns vs without their parts (keeping errors' messages).
func shallow(vs []trace.Value) []trace.Value {
	deep := false
	for _, v := range vs {
		deep = deep || v.Deep
	}
	if !deep {
		return vs
	}
	out := make([]trace.Value, len(vs))
	for i, v := range vs {
		v.Fields, v.Elems, v.Deep = nil, nil, false
		out[i] = v
	}
	return out
}
