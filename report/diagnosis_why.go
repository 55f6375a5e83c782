package report

import "github.com/culprit-go/culprit/diagnosis"

// DiagnosisWhy says in a few words why a line ranks where it does, as
// DiagnosisText's WHY column does: "stmt 0.71 (1F 1P); in slice 1/1;
// mutants 2/2 changed the failure, 1 broke passing tests".
func DiagnosisWhy(ev diagnosis.Evidence) string { return why(ev) }
