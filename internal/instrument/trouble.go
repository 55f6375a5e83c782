package instrument

import (
	"bytes"
	"encoding/json"
	"strings"
	"sync"
)

// maxBuildLines bounds the go command's error lines kept for a report.
const maxBuildLines = 60

// troubleScanner watches go test's output for what went wrong outside
// the tests: packages whose test binary did not build (the go command's
// errors come on standard error, "FAIL pkg [build failed]" on standard
// output) and test binaries stopped by -timeout ("panic: test timed out
// after 1s" and the tests running then, before the package's "FAIL"
// line). With -json the same text comes in events' Output.
type troubleScanner struct {
	mu       sync.Mutex
	partial  [2][]byte // per stream: 0 standard output, 1 standard error
	broken   []string
	build    []string
	timedOut []string
	pending  string // a timeout seen, its package not yet named
	running  bool   // reading the "running tests:" list after a timeout
	tests    []string
	inBuild  bool // after a "# pkg" line on a stream shared with standard error
	// limit is set while a resumed run has culprit's time limit for
	// resumed runs (Config.ResumeLimit), not the user's -timeout: a
	// timeout then is culprit's cut, kept in cut, not in timedOut.
	limit   string
	cut     []string
	cutPkgs []string
}

// stream returns a writer for one of go test's streams (0 stdout, 1 stderr).
func (s *troubleScanner) stream(i int) *troubleStream { return &troubleStream{s, i} }

type troubleStream struct {
	s *troubleScanner
	i int
}

func (w *troubleStream) Write(p []byte) (int, error) {
	s := w.s
	s.mu.Lock()
	defer s.mu.Unlock()
	s.partial[w.i] = append(s.partial[w.i], p...)
	for {
		buf := s.partial[w.i]
		j := bytes.IndexByte(buf, '\n')
		if j < 0 {
			break
		}
		s.line(w.i, string(buf[:j]))
		s.partial[w.i] = buf[j+1:]
	}
	return len(p), nil
}

func (s *troubleScanner) line(stream int, l string) {
	if strings.HasPrefix(l, "{") {
		var ev struct{ Action, Package, ImportPath, Output, FailedBuild string }
		if json.Unmarshal([]byte(l), &ev) != nil {
			return
		}
		switch {
		case ev.Action == "build-output":
			s.buildLine(strings.TrimSuffix(ev.Output, "\n"))
		case ev.Action == "fail" && ev.FailedBuild != "":
			s.addBroken(ev.Package)
		case ev.Action == "output":
			s.text(strings.TrimSuffix(ev.Output, "\n"))
		}
		return
	}
	if stream == 1 {
		s.buildLine(l)
		return
	}
	s.text(l)
}

func (s *troubleScanner) buildLine(l string) {
	if len(s.build) < maxBuildLines && strings.TrimSpace(l) != "" {
		s.build = append(s.build, l)
	}
}

func (s *troubleScanner) addBroken(pkg string) {
	for _, b := range s.broken {
		if b == pkg {
			return
		}
	}
	s.broken = append(s.broken, pkg)
}

// text handles a line of the tests' output.
func (s *troubleScanner) text(l string) {
	t := strings.TrimSpace(l)
	if strings.HasPrefix(l, "# ") {
		s.inBuild = true
	}
	if s.inBuild {
		if !isTestLine(t) {
			s.buildLine(l)
			return
		}
		s.inBuild = false
	}
	if rest, ok := strings.CutPrefix(t, "panic: test timed out after "); ok {
		s.pending = rest
		s.running, s.tests = false, nil
		return
	}
	if s.pending != "" {
		switch {
		case t == "running tests:":
			s.running = true
			return
		case s.running && isTestName(t):
			name, _, _ := strings.Cut(t, " ")
			s.tests = append(s.tests, name)
			return
		default:
			s.running = false
		}
	}
	f := strings.Fields(t)
	if len(f) >= 3 && f[0] == "FAIL" && (f[2] == "[build" || f[2] == "[setup") {
		s.addBroken(f[1])
		return
	}
	if len(f) >= 2 && f[0] == "FAIL" && s.pending != "" {
		if s.limit != "" {
			msg := f[1] + ": culprit stopped the test binary of the tests a panic kept from running after " + s.pending + " (its limit for them: " + s.limit + ")"
			if len(s.tests) > 0 {
				msg += " while " + strings.Join(s.tests, ", ") + " ran; it may wait for ever under this code"
			}
			s.cut = append(s.cut, msg)
			s.cutPkgs = append(s.cutPkgs, f[1])
		} else {
			msg := f[1] + ": the test binary timed out after " + s.pending
			if len(s.tests) > 0 {
				msg += " while running " + strings.Join(s.tests, ", ")
			}
			s.timedOut = append(s.timedOut, msg)
		}
		s.pending, s.running, s.tests = "", false, nil
	}
}

// isTestLine reports whether a line is go test's own, not the go
// command's build output.
func isTestLine(t string) bool {
	for _, p := range []string{"FAIL", "ok ", "ok\t", "---", "===", "PASS", "?"} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

func isTestName(t string) bool {
	return strings.HasPrefix(t, "Test") || strings.HasPrefix(t, "Example") || strings.HasPrefix(t, "Fuzz") || strings.HasPrefix(t, "Benchmark")
}

// report fills the result's fields from what was seen.
func (s *troubleScanner) report(res *Result) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range s.partial {
		if len(s.partial[i]) > 0 {
			s.line(i, string(s.partial[i]))
			s.partial[i] = nil
		}
	}
	res.Broken = s.broken
	if len(s.broken) > 0 {
		res.BuildErrors = s.build
	}
	res.TimedOut = s.timedOut
}

// timedOutPackages returns the packages whose test binary -timeout, or
// culprit's limit for resumed runs, stopped.
func (s *troubleScanner) timedOutPackages() map[string]bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]bool{}
	for _, msg := range s.timedOut {
		if pkg, _, ok := strings.Cut(msg, ": "); ok {
			out[pkg] = true
		}
	}
	for _, pkg := range s.cutPkgs {
		out[pkg] = true
	}
	return out
}

// takeCut returns the notes of resumed runs that culprit's limit
// stopped since the last call.
func (s *troubleScanner) takeCut() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.cut
	s.cut = nil
	return out
}
