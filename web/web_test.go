package web_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/culprit-go/culprit/internal/instrument"
	"github.com/culprit-go/culprit/report"
	"github.com/culprit-go/culprit/trace"
	"github.com/culprit-go/culprit/web"
)

// hostile is the text a source file and a test name carry to check that
// every page escapes them.
const hostile = `</script><script>alert(1)</script>`

// hostileModule is a middle example whose comment, string and failing
// subtest's name are hostile.
var hostileModule = map[string]string{
	"go.mod": "module example.com/hostile\n\ngo 1.22\n",
	"mid.go": `package hostile

// Middle returns the median of x, y and z; wrong when y < x < z.
// ` + hostile + `
func Middle(x, y, z int) int {
	if y < z {
		if x < y {
			return y
		} else if x < z {
			return y
		}
	} else {
		if x > y {
			return y
		} else if x > z {
			return x
		}
	}
	return z
}

// Banner is a string holding markup.
func Banner() string { return "` + hostile + `" }
`,
	"mid_test.go": `package hostile

import "testing"

func TestMiddle(t *testing.T) {
	for _, c := range []struct {
		name    string
		x, y, z int
		want    int
	}{
		{"ok", 3, 3, 5, 3},
		{"sorted", 1, 2, 3, 2},
		{"` + hostile + `", 2, 1, 3, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := Middle(c.x, c.y, c.z); got != c.want {
				t.Errorf("%s: got %d, want %d", Banner(), got, c.want)
			}
		})
	}
}
`,
}

// record runs the tests of the packages in dir instrumented with every
// event kind and returns the trace directory.
func record(t *testing.T, dir string, pkgs ...string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("records a trace: builds and runs tests")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	traceDir := t.TempDir()
	var out bytes.Buffer
	_, err := instrument.Run(context.Background(), instrument.Config{
		Dir: dir, Packages: pkgs, Events: trace.AllEvents, TraceDir: traceDir,
		CallLimit: -1, Inlinable: true, Stdout: &out, Stderr: &out,
	})
	if err != nil {
		t.Fatalf("record %s: %v\n%s", dir, err, out.String())
	}
	return traceDir
}

// writeModule writes files into a new directory.
func writeModule(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func get(t *testing.T, h http.Handler, path string) (int, string, http.Header) {
	t.Helper()
	req := httptest.NewRequest("GET", path, nil)
	req.RemoteAddr = "127.0.0.1:5555"
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	body, _ := io.ReadAll(rec.Result().Body)
	return rec.Code, string(body), rec.Result().Header
}

// TestRoutes serves every route of a view over a trace whose source and
// test names hold markup, and checks what each shows and that the markup
// is escaped everywhere.
func TestRoutes(t *testing.T) {
	dir := writeModule(t, hostileModule)
	traceDir := record(t, dir, ".")
	s, err := web.Load(traceDir, web.Options{})
	if err != nil {
		t.Fatal(err)
	}
	h := s.Handler(true)
	escaped := `&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;`
	cases := []struct {
		path, reason string
		status       int
		want         []string
		escapes      bool // the page shows the hostile text, escaped
		dot          bool // needs Graphviz's dot (TestNoDot covers the page without it)
	}{
		{"/", "the start page is the ranking", 200, []string{`id="ranking"`, "mid.go:10", `href="/source?sel=mid.go%3A10#Lmid.go:10"`}, false, false},
		{"/rank", "the ranking, linking to lines, with counts as tooltips", 200, []string{"ochiai", "1 of 1 failing and 1 of 2 passing runs"}, false, false},
		{"/source", "the failure's slice over the source, hostile comment escaped", 200, []string{"the failure of TestMiddle/", `class="slice`, "Invariants and types"}, true, false},
		{"/source?sel=mid.go:10", "a selected line: its dependencies as links and its forward slice", 200, []string{`class="sel"`, "data <a", "control <a", "Forward slice"}, true, false},
		{"/source?sel=mid.go:10&mode=step", "one step at a time", 200, []string{"<strong>one step</strong>"}, true, false},
		{"/source?sel=mid.go:18", "a line the run did not execute has no slice", 200, []string{`id="slice-msg"`, "holds nothing"}, true, false},
		{"/source?sel=nonsense", "a malformed selection is a message", 200, []string{"want FILE:LINE"}, true, false},
		{"/graph", "the failure's slice graph", 200, []string{`<img id="graph" src="/graph.svg?dir=back"`}, false, true},
		{"/graph?sel=mid.go:10&dir=fwd", "a forward slice graph", 200, []string{"forward slice of mid.go:10"}, false, false},
		{"/graph.svg?dir=back", "the SVG dot drew", 200, []string{"<svg", "Middle"}, false, true},
		{"/graph.svg?sel=mid.go:99", "no graph of a line the run did not execute", 404, []string{"holds nothing"}, false, false},
		{"/flow", "the flow graph's outputs", 200, []string{"Flow"}, false, false},
		{"/mine", "mined invariants and types", 200, []string{"Middle", "int"}, false, false},
		{"/guide", "the guided path: top statements, then the failure's dependencies", 200, []string{`data-root="1"`, "the failing check", "rank 1", "looks right"}, true, false},
		{"/assets/view.js", "the embedded script", 200, []string{"localStorage"}, false, false},
		{"/assets/style.css", "the embedded style sheet", 200, []string{"table.src"}, false, false},
		{"/nope", "unknown paths", 404, nil, false, false},
	}
	_, noDot := exec.LookPath("dot")
	// A loopback view answers loopback clients only.
	req := httptest.NewRequest("GET", "/rank", nil)
	req.RemoteAddr = "192.0.2.7:4000"
	rec := httptest.NewRecorder()
	s.Handler(true).ServeHTTP(rec, req)
	if rec.Code != http.StatusForbidden {
		t.Errorf("a remote client of a loopback view: status %d, want 403", rec.Code)
	}
	for _, c := range cases {
		t.Run(c.path, func(t *testing.T) {
			if c.dot && noDot != nil {
				t.Skip("Graphviz dot is not installed (Debian: apt-get install graphviz): graphs are not drawn")
			}
			code, body, hdr := get(t, h, c.path)
			if code != c.status {
				t.Fatalf("%s (%s): status %d, want %d\n%s", c.path, c.reason, code, c.status, body)
			}
			for _, w := range c.want {
				if !strings.Contains(body, w) {
					t.Errorf("%s (%s): no %q in\n%s", c.path, c.reason, w, body)
				}
			}
			ct := hdr.Get("Content-Type")
			if ct == "" || strings.HasPrefix(ct, "text/plain") && hdr.Get("X-Content-Type-Options") != "nosniff" {
				t.Errorf("%s: content type %q, nosniff %q", c.path, ct, hdr.Get("X-Content-Type-Options"))
			}
			markup := strings.HasPrefix(ct, "text/html") || strings.HasPrefix(ct, "image/svg")
			if markup && (strings.Contains(body, hostile) || strings.Contains(body, "<script>alert")) {
				t.Errorf("%s (%s): hostile text unescaped", c.path, c.reason)
			}
			if c.escapes && !strings.Contains(body, escaped) {
				t.Errorf("%s (%s): no escaped hostile text %q", c.path, c.reason, escaped)
			}
			if hdr.Get("Content-Security-Policy") == "" {
				t.Errorf("%s: no Content-Security-Policy", c.path)
			}
		})
	}
}

// TestNoDot checks the graph views' message where Graphviz is missing.
func TestNoDot(t *testing.T) {
	traceDir := record(t, writeModule(t, hostileModule), ".")
	s, err := web.Load(traceDir, web.Options{Dot: filepath.Join(t.TempDir(), "no-dot")})
	if err != nil {
		t.Fatal(err)
	}
	h := s.Handler(true)
	code, body, _ := get(t, h, "/graph")
	if code != 200 || !strings.Contains(body, `id="no-dot"`) || !strings.Contains(body, "Install Graphviz") || !strings.Contains(body, "digraph") {
		t.Errorf("/graph without dot: status %d, want the message and the DOT source:\n%s", code, body)
	}
	if code, _, _ := get(t, h, "/graph.svg"); code != http.StatusServiceUnavailable {
		t.Errorf("/graph.svg without dot: status %d, want 503", code)
	}

	// Serve answers on its listener until its context is done.
	ln, err := web.Listen("localhost:0", false)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln) }()
	resp, err := http.Get(web.URL(ln) + "rank")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("GET %srank: status %d", web.URL(ln), resp.StatusCode)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Serve after cancel: %v", err)
	}
}

// TestMissingTrace checks that a missing trace directory is an error
// naming it, which the commands turn into a usage error.
func TestMissingTrace(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nope")
	_, err := web.Load(missing, web.Options{})
	if !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), "nope") {
		t.Errorf("Load(missing): %v, want a not-exist error naming it", err)
	}
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o644)
	if _, err := web.Load(file, web.Options{}); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("Load(file): %v, want not a directory", err)
	}
}

// TestLoopback checks that the view binds and answers loopback only
// unless told otherwise.
func TestLoopback(t *testing.T) {
	for _, c := range []struct {
		addr   string
		any    bool
		refuse bool
	}{
		{"localhost:0", false, false},
		{"127.0.0.1:0", false, false},
		{":0", false, false},
		{"0.0.0.0:0", false, true},
		{"example.com:0", false, true},
		{"0.0.0.0:0", true, false},
		{"localhost", false, true}, // no port
	} {
		ln, err := web.Listen(c.addr, c.any)
		if ln != nil {
			ln.Close()
		}
		if (err != nil) != c.refuse {
			t.Errorf("Listen(%q, any=%v): %v, want refused=%v", c.addr, c.any, err, c.refuse)
		}
		if c.refuse && c.addr == "0.0.0.0:0" && !errors.Is(err, web.ErrNotLoopback) {
			t.Errorf("Listen(%q): %v, want ErrNotLoopback", c.addr, err)
		}
	}

}

// TestRoutesDiagnosis serves the view of examples/middle with the
// diagnosis culprit rank made of it (testdata/middle.diagnosis.json,
// written by `culprit rank -format json ./middle` in examples: spectra,
// a slice and 20 mutants) and checks that the ranking page shows it:
// return y first, with its evidence, the failing group, the evidence
// gathered and the weights, and the single metric's ranking a tab away.
func TestRoutesDiagnosis(t *testing.T) {
	examples, err := filepath.Abs(filepath.Join("..", "examples"))
	if err != nil {
		t.Fatal(err)
	}
	traceDir := record(t, examples, "./middle")
	f, err := os.Open(filepath.Join("testdata", "middle.diagnosis.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d, info, err := report.ReadDiagnosisJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	s, err := web.Load(traceDir, web.Options{Diagnosis: d, DiagnosisInfo: info})
	if err != nil {
		t.Fatal(err)
	}
	h := s.Handler(true)

	_, body, _ := get(t, h, "/rank")
	for _, w := range []string{
		"Ranking: diagnosis",
		`href="/rank?by=metric"`,
		"<code>check middle_test.go: Middle(N, N, N) = N, want N</code>", "<code>TestMiddle/2_1_3</code>",
		"spectra (statements, branches), slices (1 test), mutants (20)",
		"<td>mutation</td><td class=\"num\">0.6</td>",
	} {
		if !strings.Contains(body, w) {
			t.Errorf("/rank with a diagnosis: no %q in\n%s", w, body)
		}
	}
	// The first row: return y, and why it ranks first.
	rows := regexp.MustCompile(`(?s)<tbody>.*?</tbody>`).FindAllString(body, -1)
	if len(rows) < 2 {
		t.Fatalf("/rank: want the weights' and the ranking's tables, got %d:\n%s", len(rows), body)
	}
	first, _, _ := strings.Cut(strings.TrimPrefix(rows[1], "<tbody>\n"), "</tr>")
	var cells []string
	for _, m := range regexp.MustCompile(`(?s)<td[^>]*>(.*?)</td>`).FindAllStringSubmatch(first, -1) {
		cells = append(cells, strings.Join(strings.Fields(regexp.MustCompile(`<[^>]*>`).ReplaceAllString(m[1], " ")), " "))
	}
	want := []struct{ column, text string }{
		{"rank", "1"},
		{"function rank", "1"},
		{"score", "2.169"},
		{"location", "middle/middle.go:12 middle.Middle"},
		{"source", "return y // the defect: should return x"},
		{"spectrum score", "0.707"},
		{"event", "stmt"},
		{"failing/passing runs", "1/1"},
		{"slice", "1/1"},
		{"stack", ""},
		{"mutants changed/run", "2/2"},
		{"mutants that broke passing tests", "1"},
		{"fix", "100%"},
	}
	if len(cells) != len(want) {
		t.Fatalf("first row: %d cells %q, want %d", len(cells), cells, len(want))
	}
	for i, w := range want {
		if cells[i] != w.text {
			t.Errorf("first row's %s: %q, want %q", w.column, cells[i], w.text)
		}
	}
	for _, w := range []string{
		`href="/source?sel=middle%2Fmiddle.go%3A12#Lmiddle/middle.go:12"`,
		"stmt 0.71 (1F 1P); in slice 1/1; mutants 2/2 changed the failure, 1 broke passing tests; a mutant fixes it",
	} {
		if !strings.Contains(first, w) {
			t.Errorf("first row: no %q in\n%s", w, first)
		}
	}

	// The single metric's ranking, a tab away.
	_, body, _ = get(t, h, "/rank?by=metric")
	for _, w := range []string{"Ranking: ochiai", `href="/rank" id="by-diagnosis"`, "Metric ochiai:", "middle/middle.go:12:4"} {
		if !strings.Contains(body, w) {
			t.Errorf("/rank?by=metric: no %q in\n%s", w, body)
		}
	}
	// The guide starts from the diagnosis, the source's tooltips say it.
	if _, body, _ = get(t, h, "/guide"); !strings.Contains(body, "diagnosis rank 1, score 2.169") {
		t.Errorf("/guide: no diagnosis rank 1 in\n%s", body)
	}
	if _, body, _ = get(t, h, "/source"); !strings.Contains(body, "diagnosis rank 1, score 2.169: stmt 0.71") {
		t.Errorf("/source: no diagnosis rank in the tooltips of\n%s", body)
	}
}
