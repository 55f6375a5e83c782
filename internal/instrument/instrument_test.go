package instrument

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/culprit-go/culprit/trace"
)

// outcomes runs go test -json output through a map test -> action.
func outcomes(t *testing.T, out []byte) map[string]string {
	t.Helper()
	m := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		var ev struct{ Action, Test string }
		if json.Unmarshal(sc.Bytes(), &ev) != nil || ev.Test == "" {
			continue
		}
		switch ev.Action {
		case "pass", "fail", "skip":
			m[ev.Test] = ev.Action
		}
	}
	return m
}

// TestConstructs runs the constructs fixture plain and instrumented with
// every event kind: same outcomes, and a trace that says what ran.
func TestConstructs(t *testing.T) {
	dir, err := filepath.Abs("testdata/constructs")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "test", "-count=1", "-json", ".")
	cmd.Dir = dir
	plain, _ := cmd.Output()
	want := outcomes(t, plain)
	if len(want) < 10 {
		t.Fatalf("plain run: %d tests:\n%s", len(want), plain)
	}

	traceDir := t.TempDir()
	var out bytes.Buffer
	res, err := Run(context.Background(), Config{Dir: dir, Packages: []string{"."}, Events: trace.AllEvents,
		TraceDir: traceDir, GoFlags: []string{"-json"}, Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 1 {
		t.Errorf("exit code %d, want 1 (as plain)", res.ExitCode)
	}
	if got := outcomes(t, out.Bytes()); !reflect.DeepEqual(got, want) {
		t.Errorf("outcomes differ:\ninstrumented %v\nplain        %v\n%s", got, want, out.Bytes())
	}

	tr, err := trace.Open(traceDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Processes) != 1 {
		t.Fatalf("%d processes", len(tr.Processes))
	}
	p := tr.Processes[0]
	tests := map[string]*trace.Test{}
	for _, x := range p.Tests {
		tests[x.Name] = x
	}
	// The failing subtest runs the faulty "return y" at mid.go:13:4; the
	// passing ones do not.
	buggy := -1
	for id, s := range tr.Sites.Sites {
		if s.Kind == trace.KindStmt && filepath.Base(s.File) == "mid.go" && s.Line == 13 && s.Col == 4 {
			buggy = id
		}
	}
	if buggy < 0 {
		t.Fatal("no site at mid.go:13:4")
	}
	ran := func(name string) bool {
		x := tests[name]
		if x == nil {
			t.Fatalf("no test %s in the trace", name)
		}
		for _, h := range x.Hits {
			if h == buggy {
				return true
			}
		}
		return false
	}
	for name, wantRan := range map[string]bool{"TestMiddle/#05": true, "TestMiddle/#00": true, "TestMiddle/#01": false, "TestMiddle/#04": false} {
		if ran(name) != wantRan {
			t.Errorf("%s ran mid.go:13:4: %v, want %v", name, !wantRan, wantRan)
		}
	}
	for name, wantOut := range map[string]trace.Outcome{
		"TestMiddle": trace.OutcomeFail, "TestMiddle/#05": trace.OutcomeFail, "TestMiddle/#00": trace.OutcomePass,
		"TestPar/a": trace.OutcomePass, "TestSkip": trace.OutcomeSkip, "ExampleMiddle": trace.OutcomePass, "ExampleKind": trace.OutcomeFail,
	} {
		if x := tests[name]; x == nil || x.Outcome != wantOut {
			t.Errorf("%s: %v, want %v", name, x, wantOut)
		}
	}
	// The parallel subtests' goroutines record Named under their test.
	named := 0
	for _, c := range p.Events {
		s := tr.Sites.Sites[c.Site]
		if s.Func == "example.com/constructs.Named" && c.Tag == trace.TagEnter {
			x := p.Test(c.Test)
			if x == nil || (x.Name != "TestPar/a" && x.Name != "TestPar/b") {
				t.Errorf("Named called under test %v", x)
			}
			named++
		}
	}
	if named != 2 {
		t.Errorf("Named entered %d times, want 2", named)
	}
	if p.Truncated || p.Exit != 1 {
		t.Errorf("trace end: truncated %v exit %d", p.Truncated, p.Exit)
	}
}

func TestBadInput(t *testing.T) {
	dir, _ := filepath.Abs("testdata/constructs")
	// A directory under a regular file cannot be made, even by root.
	ro := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(ro, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		reason string
		cfg    Config
	}{
		{"a pattern that matches nothing", Config{Packages: []string{"./nothing/..."}}},
		{"a package that does not exist", Config{Packages: []string{"./nosuchdir"}}},
		{"-cover", Config{GoFlags: []string{"-cover"}}},
		{"-coverprofile=x", Config{GoFlags: []string{"-coverprofile=x"}}},
		{"an unwritable trace directory", Config{TraceDir: filepath.Join(ro, "sub")}},
	}
	for _, tt := range tests {
		tt.cfg.Dir = dir
		if tt.cfg.TraceDir == "" {
			tt.cfg.TraceDir = t.TempDir()
		}
		var out bytes.Buffer
		tt.cfg.Stdout, tt.cfg.Stderr = &out, &out
		_, err := Run(context.Background(), tt.cfg)
		var ue *UsageError
		if err == nil || !errorsAs(err, &ue) {
			t.Errorf("%s: err = %v, want a usage error", tt.reason, err)
		}
		if out.Len() > 0 {
			t.Errorf("%s: go test ran:\n%s", tt.reason, out.Bytes())
		}
	}
}

// TestGoTmpDir checks that go test builds the test binary in culprit's
// temporary directory, removed when the run ends (a go test culprit
// kills leaves its own behind), and that a GOTMPDIR of the user's is
// kept.
func TestGoTmpDir(t *testing.T) {
	dir, _ := filepath.Abs("testdata/crash")
	mine := t.TempDir()
	for _, env := range [][]string{nil, append(os.Environ(), "GOTMPDIR="+mine)} {
		var out bytes.Buffer
		_, err := Run(context.Background(), Config{Dir: dir, Packages: []string{"."}, Events: trace.EventStmt, Env: env,
			TraceDir: t.TempDir(), GoFlags: []string{"-v", "-run", "^TestWhere$"}, Stdout: &out, Stderr: &out})
		if err != nil {
			t.Fatal(err)
		}
		_, bin, ok := strings.Cut(out.String(), "binary: ")
		bin, _, _ = strings.Cut(bin, "\n")
		switch {
		case !ok:
			t.Errorf("the test printed no binary:\n%s", out.Bytes())
		case env == nil && !strings.Contains(bin, string(filepath.Separator)+"gotmp"+string(filepath.Separator)):
			t.Errorf("the test binary ran from %s, not culprit's GOTMPDIR", bin)
		case env == nil:
			if _, err := os.Stat(bin[:strings.Index(bin, "gotmp")]); err == nil {
				t.Errorf("culprit's temporary directory of %s is left", bin)
			}
		case !strings.HasPrefix(bin, mine):
			t.Errorf("the test binary ran from %s, not the user's GOTMPDIR %s", bin, mine)
		}
	}
}

// TestCrash checks that the trace survives the ways a test binary dies.
func TestCrash(t *testing.T) {
	dir, _ := filepath.Abs("testdata/crash")
	tests := []struct {
		reason    string
		run       string
		flags     []string
		exit      int
		test      string
		outcome   trace.Outcome
		truncated bool
	}{
		{"a test that panics", "TestOK|TestPanic", nil, 1, "TestPanic", trace.OutcomePanic, true},
		{"a test that calls os.Exit", "TestOK|TestExit", nil, 1, "TestExit", trace.OutcomeRunning, false},
		{"t.Fatal", "TestOK|TestFatal", nil, 1, "TestFatal", trace.OutcomeFail, false},
		{"a goroutine that panics", "TestOK|TestGoPanic", nil, 1, "TestGoPanic", trace.OutcomeRunning, true},
		{"a test timeout", "TestOK|TestHang", []string{"-timeout=3s"}, 1, "TestHang", trace.OutcomeRunning, true},
	}
	for _, tt := range tests {
		traceDir := t.TempDir()
		var out bytes.Buffer
		res, err := Run(context.Background(), Config{Dir: dir, Packages: []string{"."}, Events: trace.AllEvents,
			TraceDir: traceDir, GoFlags: append([]string{"-run", tt.run}, tt.flags...), Stdout: &out, Stderr: &out})
		if err != nil {
			t.Fatalf("%s: %v", tt.reason, err)
		}
		if res.ExitCode != tt.exit {
			t.Errorf("%s: exit %d, want %d\n%s", tt.reason, res.ExitCode, tt.exit, out.Bytes())
		}
		tr, err := trace.Open(traceDir)
		if err != nil || len(tr.Processes) != 1 {
			t.Fatalf("%s: %v %v", tt.reason, err, tr)
		}
		p := tr.Processes[0]
		got := map[string]*trace.Test{}
		for _, x := range p.Tests {
			got[x.Name] = x
		}
		if x := got["TestOK"]; x == nil || x.Outcome != trace.OutcomePass {
			t.Errorf("%s: TestOK %v", tt.reason, x)
		}
		x := got[tt.test]
		if x == nil || x.Outcome != tt.outcome || len(x.Hits) < 1 {
			t.Errorf("%s: %s = %+v, want %v with hits", tt.reason, tt.test, x, tt.outcome)
		}
		if p.Truncated != tt.truncated {
			t.Errorf("%s: truncated %v, want %v", tt.reason, p.Truncated, tt.truncated)
		}
	}
}

// TestCompileErrors checks that a package that does not compile, or fails
// vet, reports the same errors at the same positions as go test does.
func TestCompileErrors(t *testing.T) {
	for _, fixture := range []string{"broken", "vetfail"} {
		dir, _ := filepath.Abs(filepath.Join("testdata", fixture))
		cmd := exec.Command("go", "test", "-count=1", ".")
		cmd.Dir = dir
		plain, _ := cmd.CombinedOutput()
		var out bytes.Buffer
		res, err := Run(context.Background(), Config{Dir: dir, Packages: []string{"."}, Events: trace.AllEvents,
			TraceDir: t.TempDir(), Stdout: &out, Stderr: &out})
		if err != nil {
			t.Fatalf("%s: %v", fixture, err)
		}
		if res.ExitCode != cmd.ProcessState.ExitCode() || out.String() != string(plain) {
			t.Errorf("%s: exit %d, output:\n%s\nwant exit %d, output:\n%s", fixture, res.ExitCode, out.Bytes(), cmd.ProcessState.ExitCode(), plain)
		}
	}
}

// TestHazards runs the hazards fixture, which checks its own results, with
// each event kind alone and with all: it must pass as it does plain. The
// trace of the run with every kind holds each kind of stream record, and
// the fuzz target's seeds as tests of their own.
func TestHazards(t *testing.T) {
	dir, _ := filepath.Abs("testdata/hazards")
	cmd := exec.Command("go", "test", "-count=1", ".")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("plain run fails: %v\n%s", err, out)
	}
	kinds := []string{"stmt", "branch", "func", "reads", "writes", "calls", "panics", "goroutines", "chans", "steps", "decisions", "all"}
	if testing.Short() {
		kinds = []string{"all"}
	}
	for _, k := range kinds {
		set, err := trace.ParseEvents(k)
		if err != nil {
			t.Fatal(err)
		}
		traceDir := t.TempDir()
		var out bytes.Buffer
		res, err := Run(context.Background(), Config{Dir: dir, Packages: []string{"."}, Events: set,
			TraceDir: traceDir, Stdout: &out, Stderr: &out})
		if err != nil {
			t.Fatalf("-events %s: %v", k, err)
		}
		if res.ExitCode != 0 {
			t.Errorf("-events %s: exit %d:\n%s", k, res.ExitCode, out.Bytes())
			continue
		}
		if k != "all" {
			continue
		}
		tr, err := trace.Open(traceDir)
		if err != nil || len(tr.Processes) != 1 {
			t.Fatalf("trace: %v", err)
		}
		p := tr.Processes[0]
		tags := map[byte]int{}
		linked := 0
		for _, e := range p.Events {
			tags[e.Tag]++
			if e.Tag == trace.TagEnter && e.From >= 0 {
				linked++
				if s := tr.Sites.Sites[e.From]; s.Kind != trace.KindCall {
					t.Errorf("entry linked to a %v site", s.Kind)
				}
			}
			if s := tr.Sites.Sites[e.Site]; s.Line == 0 || s.Col == 0 {
				t.Errorf("record %c at a site without a position: %+v", e.Tag, s)
			}
		}
		for _, tag := range []byte{trace.TagEnter, trace.TagExit, trace.TagRead, trace.TagWrite, trace.TagCall, trace.TagReturn,
			trace.TagPanic, trace.TagRecover, trace.TagGo, trace.TagStarted, trace.TagSend, trace.TagRecv, trace.TagStep, trace.TagDecision} {
			if tags[tag] == 0 {
				t.Errorf("no %q records", tag)
			}
		}
		if linked == 0 {
			t.Error("no function entry linked to its call site")
		}
		// Exits: left by a panic ('J'), and with the receiver's and
		// parameters' final values after the results, those that cannot
		// change for the caller unknown ((*sharedCounter).add(c, d): no
		// result, c's final value, d unknown).
		panicked, final := 0, 0
		for _, e := range p.Events {
			if e.Tag != trace.TagExit {
				continue
			}
			if e.Panicking {
				panicked++
			}
			if s := tr.Sites.Sites[e.Site]; strings.HasSuffix(s.Func, "sharedCounter.add") && len(e.Values) == 0 && len(e.Final) == 2 && e.Final[1].Tag == trace.ValUnknown {
				final++
			}
		}
		if panicked == 0 || final == 0 {
			t.Errorf("exits left by a panic: %d; exits of sharedCounter.add with its receiver's final value: %d; want some of each", panicked, final)
		}
		// Total runs only inside testing.AllocsPerRun, which measures
		// with no stream records written (rt.Quietly).
		for _, e := range p.Events {
			if s := tr.Sites.Sites[e.Site]; s.Func == "example.com/hazards.Total" {
				t.Errorf("record %c in Total, which ran only while AllocsPerRun measured", e.Tag)
				break
			}
		}
		// Format 3: locations of each kind; the entries of named
		// functions started by go statements name the go statement's call
		// on the child goroutine, after its start; deferred calls name
		// the deferred call; writes in headers are recorded.
		locs := map[trace.LocKind]int{}
		goLinked, deferLinked, header := 0, 0, 0
		for i, e := range p.Events {
			locs[e.Loc.Kind]++
			if e.Tag == trace.TagEnter && e.From >= 0 {
				from := tr.Sites.Sites[e.From]
				switch {
				case from.Info == "signal" || from.Info == "c.run":
					if i == 0 || p.Events[i-1].Tag != trace.TagStarted || p.Events[i-1].Goroutine != e.Goroutine {
						t.Errorf("go %s: entry not preceded by the child's start", from.Info)
					}
					goLinked++
				case from.Info == "addTo" || from.Info == "b.rename":
					deferLinked++
				}
			}
			if s := tr.Sites.Sites[e.Site]; e.Tag == trace.TagWrite && (s.Info == "got" || s.Info == "k") && strings.HasSuffix(s.Func, "Headers") {
				header++
			}
		}
		if locs[trace.LocAddr] == 0 || locs[trace.LocElem] == 0 || locs[trace.LocKey] == 0 {
			t.Errorf("locations recorded: %v, want every kind", locs)
		}
		if goLinked != 2 || deferLinked != 2 || header == 0 {
			t.Errorf("entries linked to go statements %d (want 2), to deferred calls %d (want 2); header writes %d", goLinked, deferLinked, header)
		}
		// Shadowed variables keep their declarations apart.
		decls := map[string]bool{}
		for _, s := range tr.Sites.Sites {
			if s.Kind == trace.KindRead && s.Info == "x" && strings.HasSuffix(s.Func, ".Shadow") {
				decls[s.Decl()] = true
			}
		}
		if len(decls) < 2 {
			t.Errorf("reads of x in Shadow: declarations %v, want the parameter's and the if's", decls)
		}
		tests := map[string]*trace.Test{}
		for _, x := range p.Tests {
			tests[x.Name] = x
		}
		for _, name := range []string{"FuzzGoto/seed#0", "FuzzGoto/seed#1", "TestParallel/1", "TestParallel/2", "TestHazards"} {
			if x := tests[name]; x == nil || x.Outcome != trace.OutcomePass || len(x.Hits) == 0 {
				t.Errorf("%s: %+v, want passed with hits", name, x)
			}
		}
		if x := tests["TestHazards"]; x != nil && x.Shared {
			t.Error("TestHazards ran alone but is marked shared")
		}
		checkGaps(t, tr, p)
	}
}

// checkGaps checks the records of the hazards fixture's functions that
// close issue 3's gaps: reads before a call in their statement, comma-ok
// reads, tuple assignments in headers, go statements with a dynamic
// callee.
func checkGaps(t *testing.T, tr *trace.Trace, p *trace.Process) {
	t.Helper()
	type key struct {
		fn, info string
		tag      byte
	}
	seen := map[key]int{}
	locs := map[key]trace.LocKind{}
	for _, e := range p.Events {
		s := tr.Sites.Sites[e.Site]
		i := strings.LastIndex(s.Func, ".")
		k := key{s.Func[i+1:], s.Info, e.Tag}
		seen[k]++
		locs[k] = e.Loc.Kind
	}
	R, W := byte(trace.TagRead), byte(trace.TagWrite)
	tests := []struct {
		reason string
		fn     string
		tag    byte
		infos  []string
		loc    trace.LocKind // wanted location kind, LocNone: any
	}{
		{"locals, their fields and array elements read before a call", "Later", R, []string{"n", "lp.y", "larr[1]"}, trace.LocNone},
		{"comma-ok map reads, in statements and headers", "CommaOk", R, []string{`m["a"]`, `m["zz"]`, "m[key]"}, trace.LocKey},
		{"comma-ok writes, in statements and headers", "CommaOk", W, []string{"cv", "cok", "dv", "dok", "hv", "hok", "s", "sok", "tv", "tok"}, trace.LocAddr},
		{"tuple assignments moved out of if and switch headers", "TupleHeaders", W, []string{"q", "rem", "p", "err", "a", "b"}, trace.LocAddr},
		{"tuple assignments in for headers", "TupleHeaders", W, []string{"i", "j", "y"}, trace.LocNone},
		{"a comma-ok read of a field's map, in a header", "Edges", R, []string{`h.m["k"]`}, trace.LocKey},
		{"a tuple moved out of a labeled if's header; a labeled switch's kept", "Edges", W, []string{"v", "ok", "a", "b"}, trace.LocNone},
		{"a write through a pointer converted from unsafe.Pointer", "Converted", W, []string{"*(*int)(p)"}, trace.LocAddr},
	}
	for _, tt := range tests {
		for _, info := range tt.infos {
			k := key{tt.fn, info, tt.tag}
			if seen[k] == 0 {
				t.Errorf("%s: no %q record of %s in %s", tt.reason, tt.tag, info, tt.fn)
			} else if tt.loc != trace.LocNone && locs[k] != tt.loc {
				t.Errorf("%s: %s recorded at location kind %v, want %v", tt.reason, info, locs[k], tt.loc)
			}
		}
	}
	// A package variable changed by the call after it is read after
	// the call: only the read in Later's return is recorded.
	if n := seen[key{"Later", "later", R}]; n != 1 {
		t.Errorf("reads of the package variable later in Later: %d, want 1", n)
	}
	// Each go statement with a dynamic callee starts a goroutine that
	// announces itself, then enters the callee from the go statement's
	// call site. The one with an untyped comparison argument is left
	// as it is: a go record, no start.
	started := map[int]bool{} // goroutines (their numbers may be reused)
	starts := 0
	links := map[string]int{}
	starters := func(fn string) bool {
		return strings.HasSuffix(fn, ".GoDynamic") || strings.HasSuffix(fn, ".Edges") || strings.HasSuffix(fn, ".goGeneric")
	}
	for _, e := range p.Events {
		s := tr.Sites.Sites[e.Site]
		if e.Tag == trace.TagEnter && e.From >= 0 {
			if from := tr.Sites.Sites[e.From]; starters(from.Func) && started[e.Goroutine] {
				links[from.Info]++
			}
		}
		if e.Tag == trace.TagStarted && starters(s.Func) {
			started[e.Goroutine] = true
			if strings.HasSuffix(s.Func, ".GoDynamic") {
				starts++
			}
		}
	}
	for _, info := range []string{"send", "r.run", "mv", "sum", "mk(9)", "h.fn", "s.start"} {
		if links[info] == 0 {
			t.Errorf("go %s(...): no entry on a started goroutine linked to the go statement's call (links %v)", info, links)
		}
	}
	if links["sum"] != 2 || starts != 6 {
		t.Errorf("go sum(...) linked %d times (want 2), %d goroutines started (want 6)", links["sum"], starts)
	}
}

// TestInstrumentWidening checks that -instrument adds packages that are
// not tested to what is instrumented, and so does ModuleImports with the
// module's packages the tests import.
func TestInstrumentWidening(t *testing.T) {
	dir, _ := filepath.Abs("testdata/widen")
	for _, c := range []struct {
		name    string
		widen   bool
		imports bool
	}{{"plain", false, false}, {"-instrument ./b", true, false}, {"ModuleImports", true, true}} {
		widen := c.widen
		cfg := Config{Dir: dir, Packages: []string{"./a"}, Events: trace.EventStmt, TraceDir: t.TempDir(),
			Stdout: io.Discard, Stderr: io.Discard, ModuleImports: c.imports}
		if widen && !c.imports {
			cfg.Instrument = []string{"./b"}
		}
		res, err := Run(context.Background(), cfg)
		if err != nil || res.ExitCode != 0 {
			t.Fatalf("%s: %v %+v", c.name, err, res)
		}
		tr, err := trace.Open(cfg.TraceDir)
		if err != nil || len(tr.Processes) != 1 {
			t.Fatalf("%s: %v", c.name, err)
		}
		inB := map[int]bool{}
		for id, s := range tr.Sites.Sites {
			if filepath.Base(s.File) == "b.go" {
				inB[id] = true
			}
		}
		hitB := 0
		for _, x := range tr.Processes[0].Tests {
			for _, h := range x.Hits {
				if inB[h] {
					hitB++
				}
			}
		}
		if widen && (len(inB) != 2 || hitB != 2) {
			t.Errorf("%s: %d sites in b.go, %d hit; want 2 and 2", c.name, len(inB), hitB)
		}
		if !widen && len(inB) != 0 {
			t.Errorf("%s: %d sites in b.go", c.name, len(inB))
		}
	}
}

// TestHazardsRace runs the hazards under the race detector with every
// event kind: the runtime must add no race the program does not have (it
// reads shared memory in deep values, and goroutine states move between
// goroutines that reuse a descriptor).
// TestHazardsNoInline runs the hazards fixture as the analyses build it,
// every event kind compiled without inlining (an if's decisions, writes'
// and call statements' records then guarded statements of their own). Its allocation tests are left
// out: without inlining, what allocates is the compiler's choice
// (Config.NoInline).
func TestHazardsNoInline(t *testing.T) {
	dir, _ := filepath.Abs("testdata/hazards")
	var out bytes.Buffer
	res, err := Run(context.Background(), Config{Dir: dir, Packages: []string{"."}, Events: trace.AllEvents, NoInline: true,
		GoFlags: []string{"-skip", "^TestAllocs"}, TraceDir: t.TempDir(), Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 0 {
		t.Errorf("exit %d without inlining:\n%s", res.ExitCode, out.Bytes())
	}
}

func TestHazardsRace(t *testing.T) {
	if testing.Short() {
		t.Skip("builds with -race")
	}
	if out, err := exec.Command("go", "env", "CGO_ENABLED").Output(); err != nil || strings.TrimSpace(string(out)) != "1" {
		t.Skip("-race needs cgo")
	}
	dir, _ := filepath.Abs("testdata/hazards")
	var out bytes.Buffer
	res, err := Run(context.Background(), Config{Dir: dir, Packages: []string{"."}, Events: trace.AllEvents,
		TraceDir: t.TempDir(), GoFlags: []string{"-race"}, Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 0 {
		t.Errorf("exit %d under -race:\n%s", res.ExitCode, out.Bytes())
	}
}

// TestSamplePerTest checks which calls sampling records: a test binary's
// first CallLimit calls of a function, then those numbered by powers of
// two, counted over the binary's run or, with SamplePerTest, each test's.
func TestSamplePerTest(t *testing.T) {
	dir, _ := filepath.Abs("testdata/sampling")
	tests := []struct {
		perTest bool
		test    string         // SampleTest
		want    map[string]int // entries of Twice per test
	}{
		{false, "", map[string]int{"TestA": 3, "TestB": 1}},     // calls 1, 2, 4; 8
		{true, "", map[string]int{"TestA": 3, "TestB": 3}},      // calls 1, 2, 4 of each
		{true, "TestB", map[string]int{"TestA": 3, "TestB": 3}}, // TestB restarts
		{true, "TestA", map[string]int{"TestA": 3, "TestB": 1}}, // TestB does not
	}
	for _, tt := range tests {
		traceDir := t.TempDir()
		var out bytes.Buffer
		res, err := Run(context.Background(), Config{Dir: dir, Packages: []string{"."}, Events: trace.AllEvents,
			TraceDir: traceDir, Stdout: &out, Stderr: &out, CallLimit: 2, SamplePerTest: tt.perTest, SampleTest: tt.test})
		if err != nil || res.ExitCode != 0 {
			t.Fatalf("perTest %v: %v, exit %d\n%s", tt.perTest, err, res.ExitCode, out.Bytes())
		}
		tr, err := trace.Open(traceDir)
		if err != nil || len(tr.Processes) != 1 {
			t.Fatalf("perTest %v: %v %v", tt.perTest, err, tr)
		}
		p := tr.Processes[0]
		got := map[string]int{}
		for _, e := range p.Events {
			if e.Tag == trace.TagEnter && strings.HasSuffix(tr.Sites.Sites[e.Site].Func, ".Twice") {
				got[p.Test(e.Test).Name]++
			}
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("perTest %v %q: entries of Twice per test %v, want %v", tt.perTest, tt.test, got, tt.want)
		}
	}
}

// TestEventBudget checks the trace's budget: past Config.EventBudget
// events a site records its first 100 events, then those numbered by
// powers of two, and the process's trace says it reached the budget;
// without one (a budget < 0) every call is recorded.
func TestEventBudget(t *testing.T) {
	dir, _ := filepath.Abs("testdata/budget")
	// Each site's records, by tag, of the build with inlining: the build
	// without (an analysis's, whose probes skip what sampling skips
	// themselves, and whose statement-level records test the muted flag
	// first) must record the same.
	var inlined map[[2]int]int
	var inlinedHits []int
	for _, c := range []struct {
		budget   int
		noInline bool
	}{{-1, false}, {-1, true}, {50, false}, {50, true}} {
		budget := c.budget
		traceDir := t.TempDir()
		var out bytes.Buffer
		res, err := Run(context.Background(), Config{Dir: dir, Packages: []string{"."}, Events: trace.AllEvents,
			TraceDir: traceDir, Stdout: &out, Stderr: &out, EventBudget: budget, NoInline: c.noInline})
		if err != nil || res.ExitCode != 0 {
			t.Fatalf("budget %d: %v, exit %d\n%s", budget, err, res.ExitCode, out.Bytes())
		}
		tr, err := trace.Open(traceDir)
		if err != nil || len(tr.Processes) != 1 {
			t.Fatalf("budget %d: %v %v", budget, err, tr)
		}
		p := tr.Processes[0]
		entries := 0
		records := map[[2]int]int{}
		for _, e := range p.Events {
			records[[2]int{int(e.Tag), e.Site}]++
			if e.Tag == trace.TagEnter && strings.HasSuffix(tr.Sites.Sites[e.Site].Func, ".Inc") {
				entries++
			}
		}
		// The statements and branch outcomes run: the build without
		// inlining runs a muted activation's plain copy of Steps, whose
		// counters must be the instrumented body's.
		var hits []int
		for _, tt := range p.Tests {
			hits = append(hits, tt.Hits...)
		}
		if !c.noInline {
			inlined, inlinedHits = records, hits
		} else {
			// sign's activations that muted activations of Steps make
			// run its plain function, unsampled: fewer of its events are
			// recorded (when Steps's calls are sampled at all).
			fewer := 0
			for k, n := range records {
				if !strings.HasSuffix(tr.Sites.Sites[k[1]].Func, ".sign") {
					continue
				}
				if n > inlined[k] {
					t.Errorf("budget %d: without inlining sign's site %d recorded %c %d times, with inlining %d", budget, k[1], k[0], n, inlined[k])
				}
				if k[0] == trace.TagEnter && n < inlined[k] {
					fewer++
				}
				delete(records, k)
			}
			for k := range inlined {
				if strings.HasSuffix(tr.Sites.Sites[k[1]].Func, ".sign") {
					delete(inlined, k)
				}
			}
			if muted := budget > 0; muted && fewer == 0 {
				t.Errorf("budget %d: without inlining sign's entries are as many as with inlining: no plain function ran", budget)
			} else if !muted && fewer != 0 {
				t.Errorf("budget %d: without inlining sign's entries are fewer than with inlining, with no activation muted", budget)
			}
			if !reflect.DeepEqual(records, inlined) {
				t.Errorf("budget %d: without inlining the sites recorded %v, with inlining %v", budget, records, inlined)
			}
			if !reflect.DeepEqual(hits, inlinedHits) {
				t.Errorf("budget %d: without inlining the sites run were %v, with inlining %v", budget, hits, inlinedHits)
			}
		}
		wantEntries, wantBudget := 300, uint64(0)
		if budget > 0 {
			wantEntries, wantBudget = 102, uint64(budget) // its first 100 calls, the 128th and the 256th
		}
		if entries != wantEntries {
			t.Errorf("budget %d: %d entries of Inc recorded, want %d", budget, entries, wantEntries)
		}
		if p.Budget != wantBudget {
			t.Errorf("budget %d: the trace reached budget %d, want %d", budget, p.Budget, wantBudget)
		}
	}
}

// TestResumeStopped runs the tests after one whose binary stopped with
// no test's own panic: a goroutine's panic, a stack overflow.
func TestResumeStopped(t *testing.T) {
	dir, _ := filepath.Abs("testdata/crash")
	for _, stopper := range []string{"TestGoPanic", "TestOverflow"} {
		traceDir := t.TempDir()
		var out bytes.Buffer
		res, err := Run(context.Background(), Config{Dir: dir, Packages: []string{"."}, Events: trace.EventStmt,
			TraceDir: traceDir, GoFlags: []string{"-run", "^(TestOK|" + stopper + "|TestZAfter)$"},
			Stdout: &out, Stderr: &out, Resume: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Resumed) != 1 || !strings.Contains(res.Resumed[0], "stopped while "+stopper+" ran") {
			t.Errorf("%s: resumed %q, want the binary stopped while it ran", stopper, res.Resumed)
		}
		tr, err := trace.Open(traceDir)
		if err != nil {
			t.Fatal(err)
		}
		ran := map[string]int{}
		for _, p := range tr.Processes {
			for _, x := range p.Tests {
				if x.Ended && x.Outcome == trace.OutcomePass {
					ran[x.Name]++
				}
			}
		}
		if len(tr.Processes) != 2 || ran["TestOK"] != 1 || ran["TestZAfter"] != 1 {
			t.Errorf("%s: %d processes, passed %v: want TestOK in the first and TestZAfter in the second\n%s", stopper, len(tr.Processes), ran, out.Bytes())
		}
	}
}

// TestResumeLimit checks that the resumed runs end at their time limit
// (Config.ResumeLimit), named as culprit's cut with the test then
// running, that a smaller -timeout of the user's applies as given, and
// that a resumed run that waits without using CPU time ends after
// Config.ResumeIdle.
func TestResumeLimit(t *testing.T) {
	dir, _ := filepath.Abs("testdata/crash")
	for _, tt := range []struct {
		name    string
		limit   time.Duration
		idle    time.Duration
		flags   []string
		resumed string // in the last Resumed note
		timeout string // in TimedOut's one note, if any
	}{
		{"culprit's", 2 * time.Second, time.Minute, nil, "culprit stopped the test binary of the tests a panic kept from running after 2s (its limit for them: 2s) while TestHang ran", ""},
		{"user's", time.Minute, time.Minute, []string{"-timeout", "2s"}, "TestPanic panicked", "the test binary timed out after 2s while running TestHang"},
		{"idle", time.Minute, time.Second, nil, "while TestHang ran: it had used no CPU time for 1s", ""},
	} {
		if tt.name == "idle" && runtime.GOOS != "linux" {
			continue // no process group's CPU time to read
		}
		traceDir := t.TempDir()
		var out bytes.Buffer
		flags := append([]string{"-run", "^(TestOK|TestPanic|TestHang)$"}, tt.flags...)
		res, err := Run(context.Background(), Config{Dir: dir, Packages: []string{"."}, Events: trace.EventStmt,
			TraceDir: traceDir, GoFlags: flags, Stdout: &out, Stderr: &out, Resume: true, ResumeLimit: tt.limit, ResumeIdle: tt.idle})
		if err != nil {
			t.Fatal(err)
		}
		if n := len(res.Resumed); n == 0 || !strings.Contains(res.Resumed[n-1], tt.resumed) {
			t.Errorf("%s: resumed %q, want the last to say %q", tt.name, res.Resumed, tt.resumed)
		}
		switch {
		case tt.timeout == "" && len(res.TimedOut) > 0:
			t.Errorf("%s: timed out %q, want nothing", tt.name, res.TimedOut)
		case tt.timeout != "" && (len(res.TimedOut) != 1 || !strings.Contains(res.TimedOut[0], tt.timeout)):
			t.Errorf("%s: timed out %q, want %q", tt.name, res.TimedOut, tt.timeout)
		}
	}
}

// TestResume checks that with Config.Resume the tests a panic kept from
// running run in another test binary: a test paused by t.Parallel, and
// the tests after each panicking one; the panicking tests and their
// subtests do not run again.
func TestResume(t *testing.T) {
	dir, _ := filepath.Abs("testdata/crash")
	traceDir := t.TempDir()
	var out bytes.Buffer
	res, err := Run(context.Background(), Config{Dir: dir, Packages: []string{"."}, Events: trace.EventStmt,
		TraceDir: traceDir, GoFlags: []string{"-run", "^(TestOK|TestEarlyParallel|TestPanic|TestPanicSub|TestZAfter)$"},
		Stdout: &out, Stderr: &out, Resume: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 1 {
		t.Errorf("exit %d, want 1\n%s", res.ExitCode, out.Bytes())
	}
	if len(res.Resumed) != 2 {
		t.Errorf("resumed %q, want two binaries' panics", res.Resumed)
	}
	tr, err := trace.Open(traceDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Processes) != 3 {
		t.Fatalf("%d processes, want 3: %v", len(tr.Processes), tr.Processes)
	}
	ran := map[string][]string{}
	for _, p := range tr.Processes {
		for _, x := range p.Tests {
			ran[x.Name] = append(ran[x.Name], x.Outcome.String())
		}
	}
	want := map[string]string{
		"TestOK": "pass", "TestPanic": "panic", "TestPanicSub/ok": "pass", "TestPanicSub/boom": "panic",
		"TestEarlyParallel": "pass", "TestZAfter": "pass", "TestPanicSub/never": "",
	}
	for name, outcome := range want {
		got := ran[name]
		ended := []string{}
		for _, o := range got {
			if o != trace.OutcomeRunning.String() {
				ended = append(ended, o)
			}
		}
		switch {
		case outcome == "" && len(got) > 0:
			t.Errorf("%s ran: %q", name, got)
		case outcome != "" && (len(ended) != 1 || ended[0] != outcome):
			t.Errorf("%s ended %q, want %s once", name, ended, outcome)
		}
	}
}
