package report

import (
	"strings"
	"testing"

	"github.com/culprit-go/culprit/diagnosis"
)

// TestWhyMutants says a fix first, then a mutant that changed the
// failing check alone, then a partial fix (one that broke passing
// tests), and none of them for a mutant that also made another case
// fail.
func TestWhyMutants(t *testing.T) {
	alone := diagnosis.Mutant{Failing: 1, Changed: 1, Reports: 1, Lost: 1}
	for _, c := range []struct {
		name string
		ev   diagnosis.Evidence
		want string // "" : neither phrase
	}{
		{"fix", diagnosis.Evidence{Mutants: 1, Changed: 1, Fix: 1, MutantRuns: []diagnosis.Mutant{alone}}, "a mutant fixes it"},
		{"alone", diagnosis.Evidence{Mutants: 1, Changed: 1, MutantRuns: []diagnosis.Mutant{alone}}, "a mutant changes the failing check alone"},
		{"other case", diagnosis.Evidence{Mutants: 1, Changed: 1, MutantRuns: []diagnosis.Mutant{{Failing: 1, Changed: 1, Reports: 1, Lost: 1, Added: 1}}}, ""},
		{"unchanged", diagnosis.Evidence{Mutants: 1, MutantRuns: []diagnosis.Mutant{{Failing: 1, Reports: 1}}}, ""},
		{"broke", diagnosis.Evidence{Mutants: 1, Changed: 1, Broke: 1, MutantRuns: []diagnosis.Mutant{{Failing: 1, Changed: 1, Broke: 1, Reports: 1, Lost: 1}}}, ""},
		{"partly, breaking passing tests", diagnosis.Evidence{Mutants: 1, Changed: 1, Broke: 1, Partial: 0.5, MutantRuns: []diagnosis.Mutant{{Failing: 1, Changed: 1, Passing: 2, Broke: 1, Reports: 1, Lost: 1}}}, "a mutant partly fixes it (0.50)"},
	} {
		got := DiagnosisWhy(c.ev)
		if c.ev.Changed > 0 != strings.Contains(got, "broke passing tests") {
			t.Errorf("%s: %q: passing tests run against mutants that changed the failure only, and only then said broken or not", c.name, got)
		}
		has := strings.Contains(got, "a mutant fixes it") || strings.Contains(got, "changes the failing check alone")
		if c.want == "" && has || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
