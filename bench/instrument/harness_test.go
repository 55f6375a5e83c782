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
	h := testHarness(t, "stmt,all")
	for _, m := range []string{"github.com/google/uuid", "github.com/Masterminds/semver/v3", "github.com/dustin/go-humanize"} {
		r := h.runModule(context.Background(), entry{Module: proof.Module{Path: m}})
		if !identical(t, m, r) {
			continue
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

// TestProofHazards is the fast subset of the proof CI runs: a few small
// modules chosen for the hazards of real code they bring (see corpus),
// with every event kind recorded; and on one of them the analyses on an
// injected fault, each of which must exit 0 without crashing. The whole
// set is go run ./bench/instrument.
func TestProofHazards(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs four real modules' tests and four analyses (minutes): go test without -short runs it")
	}
	h := testHarness(t, "all")
	h.tries = 8
	var err error
	// Assembly and no go line; TestMain, no go line, tests that fail vet;
	// a go.work workspace; a nested module. (Vendor mode, //line
	// directives and forged values are internal/instrument's TestVendorMode
	// and TestHazards: the modules that bring them take minutes.)
	for _, name := range []string{
		"github.com/golang/snappy",
		"github.com/kelseyhightower/envconfig",
		"github.com/google/uuid (work)",
		"github.com/Masterminds/semver/v3 (nested)",
	} {
		m := selectEntries(name)[0]
		h.culprit = ""
		if m.Path == "github.com/kelseyhightower/envconfig" {
			if h.culprit, err = proof.Culprit(h.work, ""); err != nil {
				t.Fatal(err)
			}
		}
		r := h.runModule(context.Background(), m)
		if !identical(t, name, r) || r.Fault == nil {
			continue
		}
		if r.Fault.Err != "" {
			t.Errorf("%s: analyses: %s", name, r.Fault.Err)
		}
		for _, f := range r.analysisFailures() {
			t.Errorf("%s: %s", name, f)
		}
		for _, a := range r.Fault.Analyses {
			t.Logf("%s: culprit %s: exit %d, %.1f s (plain %.1f s), %d MiB", name, a.Name, a.Exit, a.Wall, r.Fault.PlainWall, a.RSS>>10)
		}
	}
}

// testHarness returns a harness of the event kinds events, its work
// directory removed at the test's end.
func testHarness(t *testing.T, events string) *harness {
	h, cleanup, err := newHarness("", events, 5*time.Minute, testLog{t})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cleanup)
	return h
}

// identical reports whether the module ran, and fails the test unless
// every test that passed plain ended the same instrumented.
func identical(t *testing.T, name string, r *result) bool {
	t.Helper()
	if r.Err != "" {
		t.Errorf("%s: %s", name, r.Err)
		return false
	}
	for _, f := range r.Flaky {
		t.Logf("flaky: %s", f)
	}
	if r.Tests == 0 || r.Identical != r.Tests || len(r.Diverged) > 0 {
		t.Errorf("%s@%s: %d of %d tests identical:\n%s", name, r.Version, r.Identical, r.Tests, strings.Join(r.Diverged, "\n"))
	}
	return true
}
