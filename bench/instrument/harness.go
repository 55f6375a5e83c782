//go:build unix

package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/culprit-go/culprit/bench/internal/proof"
	"github.com/culprit-go/culprit/internal/instrument"
	"github.com/culprit-go/culprit/trace"
)

// variant is one way to run a module's tests.
type variant struct {
	Name   string
	Events trace.EventSet // 0: plain go test
}

// testKey names one test of a run.
type testKey struct{ Package, Test string }

// run is what one go test run gave.
type run struct {
	Outcomes   map[testKey]string `json:"-"` // pass, fail, skip
	Elapsed    float64            // seconds the test binaries ran, summed over packages
	Wall       float64            // seconds the whole go test took, build included
	MaxRSS     int64              // peak resident set of the largest process, KiB
	TraceBytes int64
	Calls      int
	Hits       int
	Exit       int
	Output     string `json:"-"` // go test's non-JSON output (build errors), for diagnosis
	// Tails are, by package, the first line it printed outside its
	// tests that says why its binary stopped (a panic, a fatal error).
	Tails map[string]string `json:"-"`
}

// result is one module's row.
type result struct {
	Module      string
	Version     string
	Tests       int      // tests compared (passing plain)
	Identical   int      // of those, same outcome in every instrumented run
	Diverged    []string // test: plain vs instrumented
	Flaky       []string // diverged once, then ended as plain did when run again alone
	FailedPlain []string // excluded
	Plain       *run
	Runs        map[string]*run
	Fault       *fault // the analyses' runs, when the harness runs them
	Load        string // the machine's load averages (1, 5, 15 min) when the module started
	Err         string
}

// harness runs modules plain and instrumented.
type harness struct {
	work     string
	variants []variant
	log      io.Writer
	timeout  time.Duration
	repeat   int // runs of each configuration; the fastest is timed
	// culprit is the binary that runs the analyses on an injected fault
	// ("" runs none); tries bounds the mutants tried to find one, floor
	// is the least time limit of an analysis (10x the plain run else);
	// limit, when not 0, is passed to each analysis as its -timeout (a
	// negative one lifts culprit's own default limit).
	culprit string
	tries   int
	floor   time.Duration
	limit   time.Duration
	// faultPkg, when not "", is the one package ("./dir") the fault is
	// injected into.
	faultPkg string
	// warm runs the analyses once on the fault, untimed, then changes
	// the faulty file (a comment added): the timed runs find the
	// instrumented builds of every other package cached, as the plain
	// run after the change (fault.PlainBuilt) finds the plain ones.
	warm bool
}

// runModule runs one module plain and in every variant.
func (h *harness) runModule(ctx context.Context, m entry) *result {
	res := &result{Module: m.name(), Runs: map[string]*run{}, Load: loadAverage()}
	dir, version, err := proof.Download(ctx, h.work, m.Path)
	if err != nil {
		res.Err = err.Error()
		return res
	}
	res.Version = version
	if dir, err = arrange(ctx, dir, m.Layout); err != nil {
		res.Err = err.Error()
		return res
	}
	pkgs := m.Patterns()
	fmt.Fprintf(h.log, "%s@%s: plain\n", m.name(), version)
	plain, err := h.timed(ctx, dir, pkgs, 0, m.Flags)
	if err != nil {
		res.Err = err.Error()
		return res
	}
	res.Plain = plain
	if plain.Exit != 0 && len(plain.Outcomes) == 0 {
		res.Err = "fails plain: " + lastLines(plain.Output, 3)
		return res
	}
	for _, v := range h.variants {
		fmt.Fprintf(h.log, "%s@%s: -events %s\n", m.name(), version, v.Name)
		r, err := h.timed(ctx, dir, pkgs, v.Events, m.Flags)
		if err != nil {
			res.Err = fmt.Sprintf("%s: %v", v.Name, err)
			return res
		}
		res.Runs[v.Name] = r
	}
	var keys []testKey
	for k := range plain.Outcomes {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].Package != keys[j].Package {
			return keys[i].Package < keys[j].Package
		}
		return keys[i].Test < keys[j].Test
	})
	missing := map[string]int{} // variant and package: tests missing so far
	for _, k := range keys {
		want := plain.Outcomes[k]
		name := k.Package + "." + k.Test
		if want == "fail" {
			res.FailedPlain = append(res.FailedPlain, name)
			continue
		}
		res.Tests++
		same := true
		for _, v := range h.variants {
			if got := res.Runs[v.Name].Outcomes[k]; got != want {
				what := fmt.Sprintf("%s: plain %s, -events %s %s", name, want, v.Name, orNone(got))
				// A package that failed whole (did not build) is not
				// rerun test by test, nor are the tests missing past
				// maxMissing in a package whose test binary stopped
				// (a crash, a timeout): what stopped it is named.
				pkgFailed := res.Runs[v.Name].Outcomes[testKey{k.Package, packageTest}] == "fail"
				broken := pkgFailed && plain.Outcomes[testKey{k.Package, packageTest}] != "fail"
				if got == "" && pkgFailed {
					what += " (the test binary stopped: " + orNone(res.Runs[v.Name].Tails[k.Package]) + ")"
					missing[v.Name+" "+k.Package]++
					broken = broken || missing[v.Name+" "+k.Package] > maxMissing
				}
				if k.Test != packageTest && !broken {
					if h.rerun(ctx, dir, k, v.Events, want, m.Flags) {
						res.Flaky = append(res.Flaky, what+", then "+want+" alone")
						continue
					}
					// Alone, plain too may end otherwise (golang-lru's
					// ExampleLRU: a TTL raced by a cleanup goroutine).
					if !h.rerun(ctx, dir, k, 0, want, m.Flags) {
						res.Flaky = append(res.Flaky, what+", and plain alone not "+want+" either")
						continue
					}
				}
				if why, ok := timing[m.Path][k.Test]; ok {
					res.Flaky = append(res.Flaky, what+" (timing: "+why+")")
					continue
				}
				same = false
				res.Diverged = append(res.Diverged, what)
			}
		}
		if same {
			res.Identical++
		}
	}
	for _, v := range h.variants {
		for k, got := range res.Runs[v.Name].Outcomes {
			// A package failed only by tests found flaky is not a
			// divergence of its own.
			if _, ok := plain.Outcomes[k]; !ok && !(k.Test == packageTest && got == "fail" && len(res.Flaky) > 0 && len(res.Diverged) == 0) {
				res.Diverged = append(res.Diverged, fmt.Sprintf("%s.%s: only instrumented (-events %s)", k.Package, k.Test, v.Name))
			}
		}
	}
	if h.culprit != "" {
		res.Fault = h.analyze(ctx, m, dir, plain)
	}
	return res
}

// packageTest is the key of a package's own outcome (a failing package).
const packageTest = "(package)"

// reruns is how many times a test that ended otherwise instrumented
// runs again alone before it counts as a divergence.
const reruns = 2

// timing names, by module, tests whose outcome depends on how long the
// code between two clock reads takes, with why: instrumented, such a
// test fails in most runs however often it runs again, and is reported
// as flaky with the reason, not as a divergence.
var timing = map[string]map[string]string{
	"github.com/google/uuid": {
		// Failed in 6 of 8 runs alone under -events all, and twice in
		// a row in CI's small proof; plain, none of 30.
		"TestVersion6": "reads two version 6 UUIDs' times back with the version's four bits over bits 12 to 15 of the timestamp (100 ns units): two calls that straddle a multiple of 409.6 µs read as \"time reversed\", which the instrumented code's slowness between them makes likely",
	},
	"github.com/yuin/goldmark": {
		// Plain 0.5 to 1 s; 13.6 s under -events all with the whole
		// module instrumented (session 16).
		"TestDeepNestedLabelPerformance": "fails when converting its deeply nested input takes over 5 s: a measure of speed, which instrumentation slows, not of what the code computes",
	},
}

// rerunLimit bounds the reruns of one test alone.
const rerunLimit = 3 * time.Minute

// maxMissing is how many of the tests missing from a package whose test
// binary stopped are rerun alone; the rest are not (roaring's binary,
// stopped by go test's timeout, left hundreds).
const maxMissing = 10

// rerun runs test k alone, instrumented with events (0: plain), up to
// reruns times, and reports whether it then ended as it did plain: a
// test whose outcome depends on timing (a clock read twice, a goroutine
// an earlier test left running, a 10 ms TTL) is reported as flaky, not
// as a divergence.
func (h *harness) rerun(ctx context.Context, dir string, k testKey, events trace.EventSet, want string, flags []string) bool {
	var pat []string
	for _, part := range strings.Split(k.Test, "/") {
		pat = append(pat, "^"+regexp.QuoteMeta(part)+"$")
	}
	// One test alone runs in seconds: a rerun that hangs is not waited
	// for as long as a whole suite.
	ctx, cancel := context.WithTimeout(ctx, min(h.timeout, rerunLimit))
	defer cancel()
	for i := 0; i < reruns; i++ {
		r, err := h.goTest(ctx, dir, []string{k.Package}, events, append([]string{"-run", strings.Join(pat, "/")}, append(flags, "-timeout", (rerunLimit-time.Minute).String())...)...)
		if err != nil {
			return false
		}
		if r.Outcomes[k] == want {
			return true
		}
	}
	return false
}

func orNone(s string) string {
	if s == "" {
		return "missing"
	}
	return s
}

// timed runs goTest h.repeat times and returns the first run with the
// shortest run time of all: suites that run in milliseconds are noise on
// a shared machine otherwise.
func (h *harness) timed(ctx context.Context, dir string, pkgs []string, events trace.EventSet, flags []string) (*run, error) {
	best, err := h.goTest(ctx, dir, pkgs, events, flags...)
	if err != nil {
		return nil, err
	}
	for i := 1; i < h.repeat; i++ {
		r, err := h.goTest(ctx, dir, pkgs, events, flags...)
		if err != nil {
			return nil, err
		}
		best.Elapsed = min(best.Elapsed, r.Elapsed)
	}
	return best, nil
}

// goTest runs go test -json in dir, plain (events 0) or under culprit test.
func (h *harness) goTest(ctx context.Context, dir string, pkgs []string, events trace.EventSet, extra ...string) (*run, error) {
	ctx, cancel := context.WithTimeout(ctx, h.timeout)
	defer cancel()
	flags := append([]string{"-json", "-p=1", "-timeout", h.timeout.String()}, extra...)
	var out bytes.Buffer
	r := &run{}
	start := time.Now()
	if events == 0 {
		args := append([]string{"test", "-count=1"}, flags...)
		args = append(args, pkgs...)
		cmd := exec.CommandContext(ctx, "go", args...)
		cmd.Dir = dir
		cmd.Stdout = &out
		cmd.Stderr = &out
		err := cmd.Run()
		if cmd.ProcessState == nil {
			return nil, fmt.Errorf("go test: %w", err)
		}
		r.Exit = cmd.ProcessState.ExitCode()
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			r.MaxRSS = int64(ru.Maxrss)
		}
	} else {
		traceDir := filepath.Join(h.work, "trace")
		os.RemoveAll(traceDir)
		res, err := instrument.Run(ctx, instrument.Config{Dir: dir, Packages: pkgs, Events: events,
			TraceDir: traceDir, GoFlags: flags, Stdout: &out, Stderr: &out})
		if err != nil {
			return nil, err
		}
		r.Exit = res.ExitCode
		r.MaxRSS = res.MaxRSS
		r.TraceBytes = proof.DirSize(traceDir)
		r.Calls, r.Hits = countTrace(traceDir)
	}
	r.Wall = time.Since(start).Seconds()
	r.Outcomes, r.Elapsed, r.Output, r.Tails = parseJSON(out.Bytes())
	return r, nil
}

// countTrace streams the events files: calls recorded and hits (sites
// executed, summed over tests).
func countTrace(dir string) (calls, hits int) {
	names, _ := filepath.Glob(filepath.Join(dir, trace.EventsPrefix+"*"))
	for _, name := range names {
		f, err := os.Open(name)
		if err != nil {
			continue
		}
		p, err := trace.ReadEvents(bufio.NewReaderSize(f, 1<<16), func(trace.Event) error { calls++; return nil })
		f.Close()
		if err != nil {
			continue
		}
		for _, t := range p.Tests {
			hits += len(t.Hits)
		}
	}
	return calls, hits
}

// addresses matches the addresses and times some subtests' names print
// (testify's "Contains([]*assert.A{(*assert.A)(0xc000010030)...})",
// "ObjectsAreEqualValues(time.Date(2026, ...))"): they differ from run to
// run, plain or not, so tests are compared by names without them.
var addresses = regexp.MustCompile(`0x[0-9a-f]{5,}|time\.Date\([^)]*\)`)

// parseJSON reads go test -json output: per-test outcomes, the summed
// elapsed time of the packages (the test binaries' run time), lines that
// are not JSON and, by package, the last telling line it printed outside
// its tests (the first).
func parseJSON(data []byte) (map[testKey]string, float64, string, map[string]string) {
	out := map[testKey]string{}
	tails := map[string]string{}
	var elapsed float64
	var other strings.Builder
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		line := sc.Bytes()
		var ev struct {
			Action  string
			Package string
			Test    string
			Elapsed float64
			Output  string
		}
		if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &ev) != nil {
			other.Write(line)
			other.WriteByte('\n')
			continue
		}
		switch ev.Action {
		case "pass", "fail", "skip":
			if ev.Test == "" {
				elapsed += ev.Elapsed
				if ev.Action == "fail" {
					// A package that failed outside its tests (build
					// failure, panic in TestMain, timeout) counts as a test.
					out[testKey{ev.Package, packageTest}] = ev.Action
				}
				continue
			}
			k := testKey{ev.Package, addresses.ReplaceAllString(ev.Test, "0x?")}
			if out[k] != "fail" { // names made alike by the addresses: a failure wins
				out[k] = ev.Action
			}
		case "build-output":
			other.WriteString(ev.Output)
		case "output":
			if line := strings.TrimSpace(ev.Output); ev.Test == "" && tails[ev.Package] == "" && telling(line) {
				tails[ev.Package] = line
			}
		}
	}
	return out, elapsed, other.String(), tails
}

// telling reports whether a line a package printed outside its tests
// may say why its test binary stopped: the first line of a panic or a
// fatal error, or a signal.
func telling(line string) bool {
	for _, p := range []string{"panic: ", "fatal error: ", "unexpected fault", "signal: ", "SIG"} {
		if strings.HasPrefix(line, p) {
			return true
		}
	}
	return false
}

// loadAverage returns the 1, 5 and 15 minute load averages of the
// machine, "?" where /proc/loadavg cannot be read: the ratios of runs on
// a shared machine mean little without it.
func loadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}
