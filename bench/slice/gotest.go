package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
)

// testRun is what the -json output of one go test run says.
type testRun struct {
	Failed  []failure // failing tests, in the order they ended
	Elapsed float64   // seconds the test binaries ran, summed over packages
	Broken  bool      // a package did not build, or its binary died outside any test
}

// failure is one failing test and the first check it reported.
type failure struct {
	Package string
	Test    string  // as go test names it: TestX, TestX/sub
	Elapsed float64 // seconds
	File    string  // base name of the file of the reported check ("x_test.go"), "" when none
	Line    int
	// Printed holds every check location the test printed ("x_test.go:12"):
	// a test may fail at several (gopkg.in/check.v1 runs on after a
	// failed assertion).
	Printed map[string]bool
}

// checkLine matches the line a t.Error, t.Fatal or t.Log call prints,
// "    x_test.go:12: message", and the line gopkg.in/check.v1 prints
// before a failed assertion's source, "x_test.go:12:".
var checkLine = regexp.MustCompile(`^(?:\s+([\w.\-]+\.go):(\d+): |([\w.\-]+_test\.go):(\d+):\s*$)`)

// parseTestJSON reads go test -json output; lines that are not JSON are
// skipped.
func parseTestJSON(data []byte) testRun {
	var r testRun
	type key struct{ pkg, test string }
	first := map[key]failure{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		line := sc.Bytes()
		var ev struct {
			Action, Package, Test, Output string
			Elapsed                       float64
		}
		if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &ev) != nil {
			continue
		}
		k := key{ev.Package, ev.Test}
		switch ev.Action {
		case "output":
			if strings.Contains(ev.Output, "[build failed]") || strings.Contains(ev.Output, "[setup failed]") {
				r.Broken = true
			}
			if m := checkLine.FindStringSubmatch(ev.Output); m != nil && ev.Test != "" {
				file, line := m[1], m[2]
				if file == "" {
					file, line = m[3], m[4]
				}
				f, ok := first[k]
				if !ok {
					n, _ := strconv.Atoi(line)
					f = failure{File: file, Line: n, Printed: map[string]bool{}}
				}
				f.Printed[file+":"+line] = true
				first[k] = f
			}
		case "fail":
			if ev.Test == "" {
				r.Elapsed += ev.Elapsed
				continue
			}
			f := first[k]
			f.Package, f.Test, f.Elapsed = ev.Package, ev.Test, ev.Elapsed
			r.Failed = append(r.Failed, f)
		case "pass", "skip":
			if ev.Test == "" {
				r.Elapsed += ev.Elapsed
			}
		}
	}
	for _, f := range r.Failed {
		if f.Test == "" {
			r.Broken = true
		}
	}
	return r
}

// pick returns the failing leaf test with a reported check whose
// top-level test ran the shortest, and whether there is one.
func (r testRun) pick() (failure, bool) {
	top := map[string]float64{}
	for _, f := range r.Failed {
		if !strings.Contains(f.Test, "/") {
			top[f.Package+" "+f.Test] = f.Elapsed
		}
	}
	var best failure
	found := false
	for _, f := range r.Failed {
		if f.File == "" || r.hasFailingChild(f) {
			continue
		}
		t := top[f.Package+" "+topLevel(f.Test)]
		if !found || t < top[best.Package+" "+topLevel(best.Test)] {
			best, found = f, true
		}
	}
	return best, found
}

// hasFailingChild reports whether a subtest of f failed too (f is not a
// leaf: its own check, if any, is not the failure culprit slice starts
// from).
func (r testRun) hasFailingChild(f failure) bool {
	for _, g := range r.Failed {
		if g.Package == f.Package && strings.HasPrefix(g.Test, f.Test+"/") {
			return true
		}
	}
	return false
}

// failedAt reports whether the run failed f's test at f's check.
func (r testRun) failedAt(f failure) bool {
	for _, g := range r.Failed {
		if g.Package == f.Package && g.Test == f.Test && g.File == f.File && g.Line == f.Line {
			return true
		}
	}
	return false
}

func topLevel(test string) string {
	top, _, _ := strings.Cut(test, "/")
	return top
}
