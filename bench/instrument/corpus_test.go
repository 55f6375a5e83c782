//go:build unix

package main

import "testing"

// TestCorpus checks the corpus: at least 60 entries, each named once,
// every hazard of the list covered and none unknown.
func TestCorpus(t *testing.T) {
	all := corpus()
	if len(all) < 60 {
		t.Errorf("%d modules in the corpus, want at least 60", len(all))
	}
	seen := map[string]bool{}
	covered := map[string]bool{}
	for _, e := range all {
		if seen[e.name()] {
			t.Errorf("%s: twice", e.name())
		}
		seen[e.name()] = true
		for _, h := range e.Hazards {
			if hazards[h] == "" {
				t.Errorf("%s: unknown hazard %q", e.name(), h)
			}
			covered[h] = true
		}
		if e.Packages != nil && e.Why == "" {
			t.Errorf("%s: runs some packages only, and does not say why", e.name())
		}
	}
	for h, what := range hazards {
		if !covered[h] {
			t.Errorf("hazard %s (%s): no module covers it", h, what)
		}
	}
	for _, name := range []string{"github.com/spf13/cobra (vendor)", "github.com/spf13/cobra", "example.com/other"} {
		if got := selectEntries(name); len(got) != 1 || got[0].name() != name {
			t.Errorf("selectEntries(%q) = %v", name, got)
		}
	}
}
