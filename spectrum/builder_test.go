package spectrum_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/culprit-go/culprit/internal/cli"
	"github.com/culprit-go/culprit/spectrum"
)

// collector is a Go program's own coverage and value collector, as the
// seed's CoverageCollector and ValueCollector: the function under test
// calls line at each line it executes and value at each assignment.
type collector struct {
	events []spectrum.Event
}

func (c *collector) line(n int) {
	c.events = append(c.events, spectrum.Event{Kind: spectrum.Stmt, File: "remove_html_markup.py", Line: n})
}

func (c *collector) value(name string, v any) {
	c.events = append(c.events, spectrum.Event{Kind: spectrum.Value, Text: fmt.Sprintf("%s = %#v", name, v)})
}

// removeHTMLMarkup is the seed's remove_html_markup, line for line (the
// line numbers are the seed's), reporting to c.
func removeHTMLMarkup(s string, c *collector) string {
	c.line(1)
	c.value("s", s)
	c.line(2)
	tag := false
	c.value("tag", tag)
	c.line(3)
	quote := false
	c.value("quote", quote)
	c.line(4)
	out := ""
	c.value("out", out)
	c.line(6)
	for _, ch := range s {
		c.value("c", string(ch))
		c.line(7)
		if ch == '<' && !quote {
			c.line(8)
			tag = true
			c.value("tag", tag)
			continue
		}
		c.line(9)
		if ch == '>' && !quote {
			c.line(10)
			tag = false
			c.value("tag", tag)
			continue
		}
		c.line(11)
		if ch == '"' || ch == '\'' && tag {
			c.line(12)
			quote = !quote
			c.value("quote", quote)
			continue
		}
		c.line(13)
		if !tag {
			c.line(14)
			out = out + string(ch)
			c.value("out", out)
		}
	}
	c.line(16)
	return out
}

// TestSeedHTMLBuilder is the seed's statistical debugger on
// remove_html_markup, as Go code that labels its own runs: each input's
// run is collected, labeled by comparing the result with the expected
// one, and given to a Builder. The faulty quote = not quote (line 12)
// ranks first under Ochiai and Tarantula, and the values only failing
// runs had are the seed's: s = '"abc"', quote = True, c = '"'.
func TestSeedHTMLBuilder(t *testing.T) {
	var b spectrum.Builder
	for _, tc := range []struct{ in, want string }{
		{`abc`, `abc`}, {`<b>abc</b>`, `abc`}, {`"abc"`, `"abc"`},
	} {
		var c collector
		out := spectrum.Pass
		if removeHTMLMarkup(tc.in, &c) != tc.want {
			out = spectrum.Fail
		}
		b.Add(spectrum.Run{Name: tc.in, Outcome: out}, c.events...)
	}
	all := b.Spectra()
	if all.Failed() != 1 || all.Passed() != 2 {
		t.Fatalf("%d failing and %d passing runs, want 1 and 2 (only \"abc\" fails)", all.Failed(), all.Passed())
	}
	lines := all.Filter(func(e spectrum.Event) bool { return e.Kind == spectrum.Stmt })
	for _, m := range []spectrum.Metric{spectrum.Ochiai, spectrum.Tarantula} {
		r := spectrum.Rank(lines, m)
		top := r.Entries[0]
		if e := lines.Events[top.Event]; e.Line != 12 || top.Worst != 1 || top.Score != 1 {
			t.Errorf("%s: first %s (score %.3f, ranks %d-%d), want line 12 alone with 1.000", m.Name, e, top.Score, top.Best, top.Worst)
		}
	}
	var onlyFail []string
	for i, e := range all.Events {
		if e.Kind == spectrum.Value && spectrum.Discrete(all.Counts(i)) == spectrum.OnlyFail {
			onlyFail = append(onlyFail, e.Text)
		}
	}
	if got, want := strings.Join(onlyFail, ", "), `c = "\"", quote = true, s = "\"abc\""`; got != want {
		t.Errorf("values only failing runs had: %s, want %s", got, want)
	}
}

// TestHTMLMarkupExample runs culprit rank on the examples module's
// htmlmarkup package (nine tests: three with quoted text fail): the
// faulty quote = !quote is the only statement all failing tests and few
// passing ones execute, and ranks first alone.
func TestHTMLMarkupExample(t *testing.T) {
	needGo(t)
	t.Chdir(filepath.Join("..", "examples"))
	var stdout, stderr bytes.Buffer
	if status := cli.Main([]string{"rank", "-metric", "ochiai", "-format", "json", "-top", "3", "./htmlmarkup"}, nil, &stdout, &stderr); status != 0 {
		t.Fatalf("culprit rank: status %d\n%s", status, stderr.String())
	}
	var rep struct {
		Passed, Failed int
		Locations      []struct {
			File  string
			Line  int
			Score float64
		}
	}
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	top := rep.Locations[0]
	if rep.Failed != 3 || rep.Passed != 6 || top.File != "htmlmarkup/htmlmarkup.go" || top.Line != 26 || fmt.Sprintf("%.3f", top.Score) != "0.775" {
		t.Errorf("got %d failing, %d passing, first %+v; want 3, 6 and quote = !quote (htmlmarkup.go:26) with 3/sqrt(3*5) = 0.775", rep.Failed, rep.Passed, top)
	}
	if rep.Locations[1].Score >= top.Score {
		t.Errorf("quote = !quote is tied: %+v", rep.Locations[:2])
	}
}
