package instrument

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/culprit-go/culprit/trace"
)

// outputScanner watches go test's standard output as it passes through,
// to learn what the test binaries cannot tell rt: whether an example
// passed (testing compares its output after the function returns).
type outputScanner struct {
	mu      sync.Mutex
	partial []byte
	pending []string          // example results not yet assigned to a package
	results map[string]string // "pkg\x00Example" -> pass or fail
	json    bool              // the output is go test -json's: every test run says so
	example bool              // an example's event was seen
}

func newOutputScanner() *outputScanner {
	return &outputScanner{results: map[string]string{}}
}

func (s *outputScanner) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.partial = append(s.partial, p...)
	for {
		i := bytes.IndexByte(s.partial, '\n')
		if i < 0 {
			break
		}
		s.line(string(s.partial[:i]))
		s.partial = s.partial[i+1:]
	}
	return len(p), nil
}

// line handles one line: plain ("--- FAIL: ExampleX (0.00s)", then
// "FAIL\tpkg\t0.01s" closing the package's output) or -json.
func (s *outputScanner) line(l string) {
	if strings.HasPrefix(l, "{") {
		var ev struct{ Action, Package, Test string }
		if json.Unmarshal([]byte(l), &ev) != nil || ev.Action == "" {
			return
		}
		s.json = true
		if strings.HasPrefix(ev.Test, "Example") {
			s.example = true
			if ev.Action == "pass" || ev.Action == "fail" {
				s.results[ev.Package+"\x00"+ev.Test] = ev.Action
			}
		}
		return
	}
	t := strings.TrimSpace(l)
	for _, p := range []string{"--- FAIL: ", "--- PASS: "} {
		if strings.HasPrefix(t, p) && strings.HasPrefix(t[len(p):], "Example") {
			name, _, _ := strings.Cut(t[len(p):], " ")
			s.pending = append(s.pending, name+"\x00"+strings.ToLower(p[4:8]))
			return
		}
	}
	f := strings.Fields(t)
	if len(f) >= 2 && (f[0] == "ok" || f[0] == "FAIL") {
		for _, pr := range s.pending {
			name, res, _ := strings.Cut(pr, "\x00")
			s.results[f[1]+"\x00"+name] = res
		}
		s.pending = nil
	}
}

// result returns what the output said about an example: "pass", "fail"
// or "" when it said nothing (a passing example, without -v).
func (s *outputScanner) result(pkg, example string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.results[pkg+"\x00"+example]
}

// noExamples reports whether the output says that no example ran: go
// test -json's names every test it runs.
func (s *outputScanner) noExamples() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.json && !s.example
}

// settleExamples appends to each events file the outcome of the examples
// it ran: failed when go test said so, passed otherwise if the process
// ended normally.
func settleExamples(traceDir string, out *outputScanner) error {
	if out.noExamples() {
		return nil // the events files are not read for nothing (yaml.v3's: 250 MB)
	}
	names, err := filepath.Glob(filepath.Join(traceDir, trace.EventsPrefix+"*"))
	if err != nil {
		return fmt.Errorf("settle examples: %w", err)
	}
	for _, name := range names {
		f, err := os.Open(name)
		if err != nil {
			return fmt.Errorf("settle examples: %w", err)
		}
		p, err := trace.ReadTests(bufio.NewReader(f)) // outcomes only: the stream records skipped undecoded
		f.Close()
		if err != nil {
			return fmt.Errorf("settle examples: %s: %w", name, err)
		}
		var recs []byte
		for _, t := range p.Tests {
			if t.Kind != trace.TestExample || t.Outcome != trace.OutcomeUnknown {
				continue
			}
			var o trace.Outcome
			switch out.result(p.Package, t.Name) {
			case "fail":
				o = trace.OutcomeFail
			case "pass":
				o = trace.OutcomePass
			default:
				if p.Truncated {
					continue // the process died: the example may not have finished
				}
				o = trace.OutcomePass
			}
			recs = append(recs, trace.TagTestEnd)
			recs = binary.AppendUvarint(recs, uint64(t.ID))
			recs = binary.AppendUvarint(recs, uint64(o))
			recs = binary.AppendUvarint(recs, 0) // flags
			recs = binary.AppendUvarint(recs, 0) // no hits
		}
		if len(recs) == 0 {
			continue
		}
		f, err = os.OpenFile(name, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			return fmt.Errorf("settle examples: %w", err)
		}
		_, werr := f.Write(recs)
		cerr := f.Close()
		if werr != nil || cerr != nil {
			return fmt.Errorf("settle examples: %s: %v %v", name, werr, cerr)
		}
	}
	return nil
}
