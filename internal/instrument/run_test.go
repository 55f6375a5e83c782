package instrument

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/culprit-go/culprit/trace"
)

// TestRunProgram builds and runs the prog fixture plain and instrumented,
// ending normally, by os.Exit and by a panic: the same standard output,
// standard error and exit status, and a trace with the program's run
// named "main", its events and an outcome.
func TestRunProgram(t *testing.T) {
	dir, err := filepath.Abs("testdata/prog")
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "prog")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Dir = dir
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("plain build: %v\n%s", err, out)
	}
	for _, tc := range []struct {
		mode    string
		outcome trace.Outcome
		exit    int // the end record's status (-1: not known)
	}{
		{"ok", trace.OutcomePass, 0},
		{"exit", trace.OutcomeFail, 3},
		{"panic", trace.OutcomePanic, -1},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			input := "one two\nthree\n"
			plain := exec.Command(bin, tc.mode, "x")
			plain.Dir = dir
			plain.Stdin = strings.NewReader(input)
			var pout, perr bytes.Buffer
			plain.Stdout, plain.Stderr = &pout, &perr
			wantCode := 0
			var exit *exec.ExitError
			if err := plain.Run(); errors.As(err, &exit) {
				wantCode = exit.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}

			traceDir := t.TempDir()
			var out, errOut bytes.Buffer
			res, err := RunProgram(context.Background(), Program{
				Config: Config{Dir: dir, Packages: []string{"."}, Events: trace.AllEvents, TraceDir: traceDir,
					Stdout: &out, Stderr: &errOut, CallLimit: -1},
				Args: []string{tc.mode, "x"}, Stdin: strings.NewReader(input),
			})
			if err != nil {
				t.Fatalf("%v\n%s", err, errOut.Bytes())
			}
			if res.ExitCode != wantCode {
				t.Errorf("exit status %d, plain %d", res.ExitCode, wantCode)
			}
			if out.String() != pout.String() {
				t.Errorf("stdout %q, plain %q", out.String(), pout.String())
			}
			// A panic's trace names the goroutine and addresses: compare
			// the first line.
			first := func(b bytes.Buffer) string { s, _, _ := strings.Cut(b.String(), "\n\n"); return s }
			if first(errOut) != first(perr) {
				t.Errorf("stderr %q, plain %q", errOut.String(), perr.String())
			}
			// The panic's position in main is the user's.
			at := func(b bytes.Buffer) string {
				for _, l := range strings.Split(b.String(), "\n") {
					if strings.Contains(l, "main.go:") {
						l, _, _ = strings.Cut(strings.TrimSpace(l), " +")
						return l
					}
				}
				return ""
			}
			if at(errOut) != at(perr) {
				t.Errorf("panic at %q, plain at %q", at(errOut), at(perr))
			}

			tr, err := trace.Open(traceDir)
			if err != nil {
				t.Fatal(err)
			}
			if len(tr.Processes) != 1 {
				t.Fatalf("%d processes", len(tr.Processes))
			}
			p := tr.Processes[0]
			if p.Package != "example.com/prog" {
				t.Errorf("package %q", p.Package)
			}
			if p.Truncated != (tc.exit == -1) || p.Exit != tc.exit {
				t.Errorf("end record status %d (truncated %v), want %d", p.Exit, p.Truncated, tc.exit)
			}
			var run *trace.Test
			for _, x := range p.Tests {
				if x.Name == ProgramRun {
					run = x
				}
			}
			if run == nil {
				t.Fatalf("no run %q in %v", ProgramRun, p.Tests)
			}
			if run.Outcome != tc.outcome || run.Kind != trace.TestFunc || run.Parent != 0 {
				t.Errorf("run: outcome %v kind %v parent %d, want %v", run.Outcome, run.Kind, run.Parent, tc.outcome)
			}
			// Its events: the entries of main, of words.Count (a package
			// of the module, instrumented with it) and of the goroutine.
			funcs := map[string]int{}
			for _, e := range p.Events {
				if e.Test != run.ID {
					continue
				}
				s := tr.Sites.Sites[e.Site]
				if e.Tag == trace.TagEnter {
					funcs[s.Info]++
				}
			}
			var names []string
			for f := range funcs {
				names = append(names, f)
			}
			for _, want := range []string{"example.com/prog.main()", "example.com/prog/words.Count(", "example.com/prog.main.func"} {
				found := false
				for _, f := range names {
					if strings.HasPrefix(f, want) {
						found = true
					}
				}
				if !found {
					t.Errorf("no entry of %s in the run's events (entries: %v)", want, names)
				}
			}
		})
	}
}

// TestRunProgramErrors: not a main package, a build failure.
func TestRunProgramErrors(t *testing.T) {
	dir, err := filepath.Abs("testdata/crash")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	_, err = RunProgram(context.Background(), Program{Config: Config{Dir: dir, Packages: []string{"."},
		TraceDir: t.TempDir(), Stdout: &out, Stderr: &out}})
	var ue *UsageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "not a main package") {
		t.Errorf("got %v, want a usage error: not a main package", err)
	}
}
