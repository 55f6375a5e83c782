package deps

import (
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Printed is a failure location a test printed: file (as printed, a base
// name or a path) and line.
type Printed struct {
	File string
	Line int
}

func (p Printed) String() string { return p.File + ":" + strconv.Itoa(p.Line) }

var (
	// goLoc is the testing package's "    file_test.go:12: message" and
	// gopkg.in/check.v1's "file_test.go:12:" header of a failed check.
	goLoc = regexp.MustCompile(`^\s*([^\s:]+\.go):(\d+):(\s|$)`)
	// traceLoc is testify's "Error Trace:	/path/file_test.go:12" and
	// the frames on the lines after it.
	traceLoc  = regexp.MustCompile(`^\s*Error Trace:\s+(\S+\.go):(\d+)\s*$`)
	traceMore = regexp.MustCompile(`^\s*(\S+\.go):(\d+)\s*$`)
)

// PrintedFailures returns the failure locations in a test's output, in
// the order printed, each once: the testing package's "file_test.go:12:"
// line prefixes (t.Error, t.Log and helpers that print the same way),
// gopkg.in/check.v1's "file_test.go:12:" headers of failed checks, and
// testify's "Error Trace:" frames. Panic stack frames
// ("/path/file.go:12 +0x1d") are not failure locations.
func PrintedFailures(output string) []Printed {
	var out []Printed
	seen := map[Printed]bool{}
	add := func(file, line string) {
		n, err := strconv.Atoi(line)
		if err != nil || n <= 0 {
			return
		}
		p := Printed{File: file, Line: n}
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	inTrace := false
	for _, l := range strings.Split(output, "\n") {
		if m := traceLoc.FindStringSubmatch(l); m != nil {
			add(m[1], m[2])
			inTrace = true
			continue
		}
		if inTrace {
			if m := traceMore.FindStringSubmatch(l); m != nil {
				add(m[1], m[2])
				continue
			}
			inTrace = false
		}
		if m := goLoc.FindStringSubmatch(l); m != nil {
			add(m[1], m[2])
		}
	}
	return out
}

// FindPrinted returns the nodes of the statements at the printed
// locations that the run executed, sorted, and the locations that
// matched: the criterion of a failure made by code that is not
// instrumented (an assertion library's c.Assert, assert.Equal), whose
// call in the test is at the location it printed. The statement's node
// depends on the call's arguments and on the conditions guarding it, as
// a t.Error call's does. A location where the run executed only calls
// of Log, Logf, Skip or Skipf (the testing package prints the same
// prefix for them as for t.Error) is not a failure location.
func (g *Graph) FindPrinted(locs []Printed) ([]int, []Printed) {
	var ids []int
	var used []Printed
	seen := map[int]bool{}
	for _, p := range locs {
		at := g.Find(p.File, p.Line, 0, "")
		logged := len(at) > 0
		for _, id := range at {
			logged = logged && logCall(g.Nodes[id].Var)
		}
		if logged {
			continue
		}
		for _, id := range at {
			if !seen[id] {
				seen[id] = true
				ids = append(ids, id)
			}
		}
		if len(at) > 0 {
			used = append(used, p)
		}
	}
	sort.Ints(ids)
	return ids, used
}

// logCall reports whether v is the pseudo-variable of a call of a method
// that prints a test's location without failing it: "<t.Logf()>".
func logCall(v string) bool {
	for _, m := range []string{".Log()>", ".Logf()>", ".Skip()>", ".Skipf()>"} {
		if strings.HasPrefix(v, "<") && strings.HasSuffix(v, m) {
			return true
		}
	}
	return false
}
