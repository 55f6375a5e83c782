package instrument

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/culprit-go/culprit/trace"
)

// TestVendorMode instruments the vendored fixture, a module built in
// vendor mode whose dependency is only in its vendor directory (the go
// command reads vendor/modules.txt past the overlay, so the runtime
// cannot be a replaced module there): its test passes as it does plain,
// with the proxy off, and the trace records the function's events.
// go run ./bench/instrument proves the same on spf13/cobra vendored.
func TestVendorMode(t *testing.T) {
	if goMinor(runtimeGoVersion(t)) < raiseMin {
		t.Skip("the go command is older than go1.21: the runtime's files cannot be raised")
	}
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("testdata/vendored")); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "GOPROXY=off", "GOFLAGS=")
	plain := exec.Command("go", "test", "-count=1", ".")
	plain.Dir, plain.Env = dir, env
	if out, err := plain.CombinedOutput(); err != nil {
		t.Fatalf("plain run fails: %v\n%s", err, out)
	}
	modules, _ := os.ReadFile(filepath.Join(dir, "vendor", "modules.txt"))
	for _, events := range []trace.EventSet{trace.EventStmt, trace.AllEvents} {
		traceDir := t.TempDir()
		var out bytes.Buffer
		res, err := Run(context.Background(), Config{Dir: dir, Packages: []string{"."}, Events: events,
			TraceDir: traceDir, Stdout: &out, Stderr: &out, Env: env, GoFlags: []string{"-v"}})
		if err != nil {
			t.Fatalf("events %v: %v", events, err)
		}
		if res.ExitCode != 0 {
			t.Fatalf("events %v: exit %d:\n%s", events, res.ExitCode, out.Bytes())
		}
		tr, err := trace.Open(traceDir)
		if err != nil || len(tr.Processes) != 1 {
			t.Fatalf("events %v: trace: %v", events, err)
		}
		p := tr.Processes[0]
		if len(p.Tests) == 0 || len(p.Tests[0].Hits) == 0 {
			t.Errorf("events %v: no statements recorded", events)
		}
		if events == trace.AllEvents && len(p.Events) == 0 {
			t.Errorf("events %v: no stream records", events)
		}
	}
	if now, _ := os.ReadFile(filepath.Join(dir, "vendor", "modules.txt")); !bytes.Equal(now, modules) {
		t.Errorf("vendor/modules.txt changed:\n%s", now)
	}
}

// TestDocOnlyPackage instruments the doconly fixture, a package of one
// doc comment whose external test package has the counters: it builds
// and its test passes with statement and with every event kind (the
// compiler stopped on the package without an initializer:
// "no init func for -cover build").
func TestDocOnlyPackage(t *testing.T) {
	dir, _ := filepath.Abs("testdata/doconly")
	for _, events := range []trace.EventSet{trace.EventStmt, trace.AllEvents} {
		var out bytes.Buffer
		res, err := Run(context.Background(), Config{Dir: dir, Packages: []string{"."}, Events: events,
			TraceDir: t.TempDir(), Stdout: &out, Stderr: &out, GoFlags: []string{"-v"}})
		if err != nil {
			t.Fatalf("events %v: %v", events, err)
		}
		if res.ExitCode != 0 || !bytes.Contains(out.Bytes(), []byte("--- PASS: TestSum")) {
			t.Errorf("events %v: exit %d:\n%s", events, res.ExitCode, out.Bytes())
		}
	}
}

// TestReusedXTest runs the doconly fixture's test again from the first
// run's load, as rank's slicing run does: its external test package
// comes with it (their counters' registration needs both), the test
// passes with the same sites, and the module imports of a package with
// external tests do not name its external test package (it is no
// package of its own to instrument beside it).
func TestReusedXTest(t *testing.T) {
	dir, _ := filepath.Abs("testdata/doconly")
	cfg := Config{Dir: dir, Packages: []string{"example.com/doconly"}, Events: trace.AllEvents, GoFlags: []string{"-v"}}
	more, err := ModuleImports(context.Background(), cfg)
	if err != nil || len(more) != 0 {
		t.Errorf("ModuleImports: %v, %v: want none", more, err)
	}
	var sites []int
	var loaded *Loaded
	for i := 0; i < 2; i++ {
		var out bytes.Buffer
		cfg.TraceDir, cfg.Stdout, cfg.Stderr, cfg.Loaded = t.TempDir(), &out, &out, loaded
		res, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatalf("run %d: %v", i, err)
		}
		if res.ExitCode != 0 || !bytes.Contains(out.Bytes(), []byte("--- PASS: TestSum")) {
			t.Errorf("run %d: exit %d:\n%s", i, res.ExitCode, out.Bytes())
		}
		sites = append(sites, res.Sites)
		loaded = res.Loaded
		if _, ok := loaded.pick(dir, nil, cfg.Packages); !ok {
			t.Errorf("run %d: its load is not reused", i)
		}
	}
	if sites[0] != sites[1] {
		t.Errorf("sites %v: the reused load instrumented otherwise", sites)
	}
}
