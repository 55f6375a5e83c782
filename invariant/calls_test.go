package invariant

import (
	"strings"
	"testing"

	"github.com/culprit-go/culprit/trace"
)

// TestCollectBudget: a process whose trace reached its event budget
// (trace.Process.Budget) recorded fewer calls of its hot functions than
// it made; the calls say so in a note, and a trace that reached none
// has no such note.
func TestCollectBudget(t *testing.T) {
	for _, budget := range []uint64{0, 1 << 25} {
		tr := &trace.Trace{Sites: trace.Sites{Events: trace.AllEvents}, Processes: []*trace.Process{{Package: "p", Budget: budget}, {Package: "q"}}}
		cs, err := Collect(tr, CollectOptions{})
		if err != nil {
			t.Fatal(err)
		}
		noted := strings.Contains(strings.Join(cs.Notes, "\n"), "budget of 33554432 recorded events")
		if noted != (budget > 0) {
			t.Errorf("budget %d: notes %q", budget, cs.Notes)
		}
	}
}
