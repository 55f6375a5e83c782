package diagnosis

import (
	"bufio"
	"bytes"
	"encoding/json"
	"iter"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Failure is how one failing test failed, as its output says.
type Failure struct {
	Package string
	Test    string // "TestX/sub"
	// Signature is the failure with its particulars normalized away
	// (numbers, quoted strings): "panic: index out of range [N] with
	// length N" or "check x_test.go: got N, want N". Tests with the same
	// signature fail the same way.
	Signature string
	Message   string     // the first line of the panic or of the failing check
	Stack     []Location // a panic's stack: absolute file and line of each frame
}

// Group is the failing tests that fail the same way.
type Group struct {
	Signature string
	Failures  []Failure
}

// TestOutputs splits go test -json output into each test's output,
// keyed "package\x00test". Output of the package after a test's (a
// panic's stack, which test2json gives to no test) goes to that test.
func TestOutputs(out []byte) map[string]string {
	m := map[string]*strings.Builder{}
	last := map[string]string{} // package -> key of its last test with output
	for ev := range testEvents(out) {
		if ev.Action != "output" {
			continue
		}
		k := ev.Package + "\x00" + ev.Test
		if ev.Test == "" {
			if k = last[ev.Package]; k == "" {
				continue
			}
		}
		last[ev.Package] = k
		b := m[k]
		if b == nil {
			b = &strings.Builder{}
			m[k] = b
		}
		b.WriteString(ev.Output)
	}
	res := make(map[string]string, len(m))
	for k, b := range m {
		res[k] = b.String()
	}
	return res
}

// TestTimes reads go test -json output and returns each test's time in
// seconds (its pass or fail event's Elapsed), keyed by its package and
// name, "pkg\x00TestX/sub", as TestOutputs.
func TestTimes(out []byte) map[string]float64 {
	res := map[string]float64{}
	for ev := range testEvents(out) {
		if ev.Test != "" && (ev.Action == "pass" || ev.Action == "fail") {
			res[ev.Package+"\x00"+ev.Test] = ev.Elapsed
		}
	}
	return res
}

// testEvent is a line of go test -json output, the fields read here.
type testEvent struct {
	Action, Package, Test, Output string
	Elapsed                       float64
}

// testEvents yields the events of go test -json output, skipping the
// lines that are not JSON (build output).
func testEvents(out []byte) iter.Seq[testEvent] {
	return func(yield func(testEvent) bool) {
		sc := bufio.NewScanner(bytes.NewReader(out))
		sc.Buffer(make([]byte, 0, 64*1024), 16<<20)
		for sc.Scan() {
			line := sc.Bytes()
			if len(line) == 0 || line[0] != '{' {
				continue
			}
			var ev testEvent
			if json.Unmarshal(line, &ev) != nil {
				continue
			}
			if !yield(ev) {
				return
			}
		}
	}
}

var (
	checkRe     = regexp.MustCompile(`^\s+([^\s:]+\.go):(\d+): (.*)$`)
	frameRe     = regexp.MustCompile(`^\t(.+\.go):(\d+)(?: \+0x[0-9a-f]+)?$`)
	numRe       = regexp.MustCompile(`\b0x[0-9a-fA-F]+\b|[-+]?\d+(\.\d+)?`)
	recoveredRe = regexp.MustCompile(`\s*\[recovered[^\]]*\]$`)
	quoteRe     = regexp.MustCompile("\"(?:[^\"\\\\]|\\\\.)*\"|`[^`]*`|'(?:[^'\\\\]|\\\\.)*'")
	// go-cmp's reports choose between spaces and no-break spaces at
	// random, run by run: runs of white space are one space.
	spaceRe = regexp.MustCompile(`[\s\x{00a0}]+`)
)

// Normalize removes a message's particulars: numbers become N and quoted
// strings Q, so that the cases of one table-driven test fail alike.
func Normalize(msg string) string {
	msg = spaceRe.ReplaceAllString(msg, " ")
	msg = quoteRe.ReplaceAllString(msg, "Q")
	return numRe.ReplaceAllString(msg, "N")
}

// ParseFailure reads how a test failed from its output: the panic (its
// first line and its stack), or else its first failing check's file and
// message.
func ParseFailure(pkg, test, output string) Failure {
	f := Failure{Package: pkg, Test: test}
	lines := strings.Split(output, "\n")
	for i, l := range lines {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(l), "panic: "); ok {
			rest = recoveredRe.ReplaceAllString(rest, "")
			f.Message = "panic: " + rest
			f.Signature = "panic: " + Normalize(rest)
			for _, fl := range lines[i+1:] {
				if m := frameRe.FindStringSubmatch(fl); m != nil {
					n, _ := strconv.Atoi(m[2])
					f.Stack = append(f.Stack, Location{m[1], n})
				}
			}
			return f
		}
	}
	for _, l := range lines {
		if m := checkRe.FindStringSubmatch(l); m != nil {
			f.Message = m[1] + ":" + m[2] + ": " + m[3]
			f.Signature = "check " + m[1] + ": " + Normalize(m[3])
			return f
		}
	}
	f.Signature = "failed"
	return f
}

// GroupFailures groups failures that fail the same way: the same
// signature, or subtests of one top-level test (the cases of a
// table-driven test, whose messages may differ). The largest group comes
// first (ties by signature), each group's tests in name order; a group's
// signature is its most common one.
func GroupFailures(fs []Failure) []Group {
	parent := make([]int, len(fs))
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	first := map[string]int{}
	join := func(key string, i int) {
		if j, ok := first[key]; ok {
			parent[find(i)] = find(j)
		} else {
			first[key] = i
		}
	}
	for i, f := range fs {
		join("s\x00"+f.Signature, i)
		top, _, _ := strings.Cut(f.Test, "/")
		join("t\x00"+f.Package+"\x00"+top, i)
	}
	idx := map[int]int{}
	var gs []Group
	for i, f := range fs {
		r := find(i)
		gi, ok := idx[r]
		if !ok {
			gi = len(gs)
			idx[r] = gi
			gs = append(gs, Group{})
		}
		gs[gi].Failures = append(gs[gi].Failures, f)
	}
	for gi := range gs {
		g := &gs[gi]
		sort.Slice(g.Failures, func(i, j int) bool {
			a, b := g.Failures[i], g.Failures[j]
			if a.Package != b.Package {
				return a.Package < b.Package
			}
			return a.Test < b.Test
		})
		count := map[string]int{}
		for _, f := range g.Failures {
			count[f.Signature]++
			if c := count[f.Signature]; c > count[g.Signature] || c == count[g.Signature] && f.Signature < g.Signature {
				g.Signature = f.Signature
			}
		}
	}
	sort.SliceStable(gs, func(i, j int) bool {
		if len(gs[i].Failures) != len(gs[j].Failures) {
			return len(gs[i].Failures) > len(gs[j].Failures)
		}
		return gs[i].Signature < gs[j].Signature
	})
	return gs
}
