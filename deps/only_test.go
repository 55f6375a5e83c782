package deps

import (
	"errors"
	"testing"

	"github.com/culprit-go/culprit/trace"
)

// TestPickOnly checks which tests a trace that recorded one test's
// stream events (trace.Trace.Only) builds graphs of: that test, its
// parents and its subtests; any other is an error.
func TestPickOnly(t *testing.T) {
	p := &trace.Process{Tests: []*trace.Test{
		{ID: 1, Name: "TestA", Outcome: trace.OutcomeFail},
		{ID: 2, Parent: 1, Name: "TestA/one", Outcome: trace.OutcomePass},
		{ID: 3, Parent: 1, Name: "TestA/two", Outcome: trace.OutcomeFail},
		{ID: 4, Parent: 3, Name: "TestA/two/deep", Outcome: trace.OutcomeFail},
		{ID: 5, Name: "TestB", Outcome: trace.OutcomeFail},
	}}
	for _, c := range []struct {
		only, test string
		want       string // the test picked; "" for an error
	}{
		{"", "TestA/one", "TestA/one"},
		{"", "", "TestA/two/deep"},
		{"TestA/two", "TestA/two", "TestA/two/deep"},
		{"TestA/two", "TestA", "TestA/two/deep"},
		{"TestA/two", "TestA/two/deep", "TestA/two/deep"},
		{"TestA/two", "", "TestA/two/deep"},
		{"TestA/two", "TestA/one", ""},
		{"TestA/two", "TestB", ""},
		{"TestA/one", "", ""}, // the first failing leaf, TestA/two/deep, was muted
	} {
		tr := &trace.Trace{Processes: []*trace.Process{p}, Only: c.only}
		_, got, err := pick(tr, c.test)
		switch {
		case c.want == "" && err == nil:
			t.Errorf("only %q, test %q: picked %s, want an error", c.only, c.test, got.Name)
		case c.want == "" && !errors.Is(err, ErrNoTest):
			t.Errorf("only %q, test %q: error %v, want one that is ErrNoTest", c.only, c.test, err)
		case c.want != "" && err != nil:
			t.Errorf("only %q, test %q: %v, want %s", c.only, c.test, err, c.want)
		case c.want != "" && got.Name != c.want:
			t.Errorf("only %q, test %q: picked %s, want %s", c.only, c.test, got.Name, c.want)
		}
	}
}
