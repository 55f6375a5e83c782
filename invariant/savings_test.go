package invariant

import (
	"testing"

	"github.com/culprit-go/culprit/trace"
)

// TestSavings mines with and without Daikon's equal variables and
// constants (shareEqual, deferConstants): the contracts are the same,
// with a class of equal variables and constants that later calls split
// and change, and with those that stay.
func TestSavings(t *testing.T) {
	split := &Function{Name: "m.split", Params: []string{"a", "b", "c", "d", "s", "u"}, Results: []string{"result"}}
	for i := 0; i < 400; i++ {
		a := int64(i%37 + 1)
		b, c, s := a, int64(5), "key"
		if i >= 120 {
			b, c = a+int64(i%3), int64(i%7)
		}
		if i >= 200 {
			s = "key" + string(rune('a'+i%5))
		}
		args := []trace.Value{iv(a), iv(b), iv(c), iv(9), sv(s), sv("key")}
		split.Calls = append(split.Calls, Call{Args: args, Results: []trace.Value{iv(a + b + c)}, Returned: true, Outcome: trace.OutcomePass, Test: "TestSplit"})
	}
	fixtures := map[string]*Calls{"deep": deepCalls(), "aggregate": aggregateCalls(), "middle": middleCalls(), "split": {Functions: []*Function{split}}, "real": someRealCalls(6, 1200)}
	sameWithout(t, &noSavings, "without the savings", fixtures, []float64{0, 0.5, 1})
}
