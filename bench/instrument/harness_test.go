//go:build unix

package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/culprit-go/culprit/bench/internal/proof"
)

// TestProofSmall runs the proof on three small modules from the module
// proxy, with statement events and with every event kind: every test that
// passes plain must have the same outcome instrumented. The whole set is
// go run ./bench/instrument.
func TestProofSmall(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs three real modules' tests, plain and instrumented twice (minutes): go test without -short runs it")
	}
	h, cleanup, err := newHarness("", "stmt,all", 5*time.Minute, testLog{t})
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	for _, m := range []string{"github.com/google/uuid", "github.com/Masterminds/semver/v3", "github.com/dustin/go-humanize"} {
		r := h.runModule(context.Background(), proof.Module{Path: m})
		if r.Err != "" {
			t.Errorf("%s: %s", m, r.Err)
			continue
		}
		for _, f := range r.Flaky {
			t.Logf("flaky: %s", f)
		}
		if r.Tests == 0 || r.Identical != r.Tests || len(r.Diverged) > 0 {
			t.Errorf("%s@%s: %d of %d tests identical:\n%s", m, r.Version, r.Identical, r.Tests, strings.Join(r.Diverged, "\n"))
		}
		for _, v := range h.variants {
			if x := r.Runs[v.Name]; x.TraceBytes == 0 || x.Hits == 0 {
				t.Errorf("%s -events %s: empty trace (%d bytes, %d hits)", m, v.Name, x.TraceBytes, x.Hits)
			}
		}
	}
}

type testLog struct{ t *testing.T }

func (l testLog) Write(p []byte) (int, error) {
	l.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}
