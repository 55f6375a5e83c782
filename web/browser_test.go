package web_test

import (
	"context"
	"flag"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/culprit-go/culprit/deps"
	"github.com/culprit-go/culprit/diagnosis"
	"github.com/culprit-go/culprit/report"
	"github.com/culprit-go/culprit/spectrum"
	"github.com/culprit-go/culprit/trace"
	"github.com/culprit-go/culprit/web"
)

var screenshot = flag.String("screenshot", "", "also save the browser test's source view screenshot to `FILE` (docs/web-middle.png)")

// chromium returns the path of Chromium (or Chrome) on PATH, "" when it
// is missing.
func chromium() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// noChromium is why the browser tests skip.
const noChromium = "Chromium is not on PATH (Debian: apt-get install chromium; .ci/run installs it): no browser test"

// browser starts headless Chromium (exe) for the test and returns its
// context, cancelled after the time given or when the test ends.
func browser(t *testing.T, exe string, limit time.Duration) context.Context {
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1400, 1000),
	}
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(cancel)
	ctx, cancel = context.WithTimeout(ctx, limit)
	t.Cleanup(cancel)
	return ctx
}

// TestBrowser starts the view on the middle example's trace in headless
// Chromium, clicks the top-ranked line, checks that its backward slice is
// highlighted in the source, follows the link to the slice's graph and
// checks that dot drew it (or, without Graphviz, that the page says so),
// marks a statement "looks right" on the guided path, and saves
// screenshots in the test's artifact directory.
func TestBrowser(t *testing.T) {
	exe := chromium()
	if exe == "" {
		t.Skip(noChromium)
	}
	examples, err := filepath.Abs(filepath.Join("..", "examples"))
	if err != nil {
		t.Fatal(err)
	}
	traceDir := record(t, examples, "./middle")
	s, err := web.Load(traceDir, web.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler(true))
	defer ts.Close()
	ctx := browser(t, exe, 90*time.Second)

	out := t.ArtifactDir()
	save := func(name string, png []byte) {
		p := filepath.Join(out, name)
		if err := os.WriteFile(p, png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("screenshot: %s", p)
	}

	// The ranking; click its top entry.
	if err := chromedp.Do(ctx,
		chromedp.Navigate(ts.URL+"/rank"),
		chromedp.WaitVisible(chromedp.CSS("#ranking")),
	); err != nil {
		t.Fatalf("open the ranking: %v", err)
	}
	top, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#ranking tbody tr:first-child a.loc")))
	if err != nil {
		t.Fatalf("read the top-ranked line: %v", err)
	}
	if !strings.HasPrefix(top, "middle/middle.go:12:") {
		t.Errorf("top-ranked line %q, want middle/middle.go:12 (return y, the defect)", top)
	}
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS("#ranking tbody tr:first-child a.loc")),
		chromedp.WaitVisible(chromedp.CSS("tr.sel")),
	); err != nil {
		t.Fatalf("click the top-ranked line: %v", err)
	}
	sel, err := chromedp.Run(ctx, chromedp.AttributeValue(chromedp.CSS("tr.sel"), "data-key"))
	if err != nil {
		t.Fatal(err)
	}
	if sel.Value != "middle/middle.go:12" {
		t.Errorf("selected line %q, want middle/middle.go:12", sel.Value)
	}
	// return y depends on y (the parameter, line 7) and on the
	// condition x < z (line 11), which depends on 9 and 8.
	slice, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("table.src tr.slice").length`))
	if err != nil {
		t.Fatal(err)
	}
	if slice < 4 {
		t.Errorf("%d lines highlighted as the backward slice, want at least 4 (lines 7, 8, 9, 11)", slice)
	}
	deps, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#panel ul.deps li").length`))
	if err != nil {
		t.Fatal(err)
	}
	if deps < 2 {
		t.Errorf("%d one-step dependencies listed, want a data and a control one", deps)
	}
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	save("source.png", png)
	if *screenshot != "" {
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.scrollTo(0, 0); true`)); err != nil {
			t.Fatal(err)
		}
		shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(*screenshot, shot, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("screenshot: %s", *screenshot)
	}

	// The slice's graph.
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.ID("graph-back")),
		chromedp.WaitVisible(chromedp.CSS("#graph, #no-dot")),
	); err != nil {
		t.Fatalf("open the slice graph: %v", err)
	}
	if _, err := exec.LookPath("dot"); err != nil {
		msg, err := chromedp.Run(ctx, chromedp.Text(chromedp.ID("no-dot")))
		if err != nil || !strings.Contains(msg, "Graphviz") {
			t.Errorf("without dot: message %q (%v), want one naming Graphviz", msg, err)
		}
	} else {
		width := 0
		for range 50 {
			width, err = chromedp.Run(ctx, chromedp.Evaluate[int](`(() => { const g = document.getElementById("graph"); return g && g.complete ? g.naturalWidth : 0 })()`))
			if err != nil {
				t.Fatal(err)
			}
			if width > 0 {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		if width == 0 {
			t.Errorf("the slice graph did not render")
		}
	}
	if png, err = chromedp.Run(ctx, chromedp.FullScreenshot(100)); err != nil {
		t.Fatal(err)
	}
	save("graph.png", png)

	// The guided path: marking a statement right leaves fewer to inspect.
	if err := chromedp.Do(ctx,
		chromedp.Navigate(ts.URL+"/guide"),
		chromedp.WaitVisible(chromedp.ID("guide")),
	); err != nil {
		t.Fatalf("open the guided path: %v", err)
	}
	before, err := chromedp.Run(ctx, chromedp.Text(chromedp.ID("left")))
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#guide tr[data-key="middle/middle.go:7"] button`))); err != nil {
		t.Fatalf("mark middle.go:7 right: %v", err)
	}
	after, err := chromedp.Run(ctx, chromedp.Text(chromedp.ID("left")))
	if err != nil {
		t.Fatal(err)
	}
	if png, err = chromedp.Run(ctx, chromedp.FullScreenshot(100)); err != nil {
		t.Fatal(err)
	}
	save("guide.png", png)
	var nb, na int
	fmt.Sscan(before, &nb)
	fmt.Sscan(after, &na)
	if nb == 0 || na >= nb {
		t.Errorf("left to inspect: %q before marking middle.go:7 right, %q after; want fewer", before, after)
	}
}

// wideModule is the middle example written as real code often is: long
// names, comments at the end of lines, lines of 100 to 120 columns.
var wideModule = map[string]string{
	"go.mod": "module example.com/wide\n\ngo 1.22\n",
	"wide.go": `package wide

// Median returns the median of three measurements: the one that is neither smaller nor larger than both others.
func Median(first, second, third int) int {
	if second < third {
		if first < second {
			return second
		} else if first < third {
			return second // the defect: here first lies between second and third, so the median is first
		}
	} else {
		if first > second {
			return second
		} else if first > third {
			return first
		}
	}
	return third
}
`,
	"wide_test.go": `package wide

import (
	"fmt"
	"slices"
	"testing"
)

func TestMedian(t *testing.T) {
	for _, measurements := range [][3]int{{3, 3, 5}, {1, 2, 3}, {3, 2, 1}, {5, 5, 5}, {5, 3, 4}, {2, 1, 3}} {
		first, second, third := measurements[0], measurements[1], measurements[2]
		t.Run(fmt.Sprintf("%d_%d_%d", first, second, third), func(t *testing.T) {
			sorted := []int{first, second, third}
			slices.Sort(sorted)
			if got, want := Median(first, second, third), sorted[1]; got != want {
				t.Errorf("Median(%d, %d, %d) = %d, want %d, the measurement between the two others", first, second, third, got, want)
			}
		})
	}
}
`,
}

// TestLayout opens every page of the view (the ranking with a
// diagnosis, and the single metric's) on a trace of wideModule at
// each of layoutWidths and fails where a person could not read it: boxes
// of the layout overlap, text runs out of its box, or the page is wider
// than the window (testdata/layout.js measures them).
func TestLayout(t *testing.T) {
	exe := chromium()
	if exe == "" {
		t.Skip(noChromium)
	}
	traceDir := record(t, writeModule(t, wideModule), ".")
	d, info := wideDiagnosis(t, traceDir)
	s, err := web.Load(traceDir, web.Options{Diagnosis: d, DiagnosisInfo: info})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler(true))
	defer ts.Close()
	checkLayout(t, browser(t, exe, 3*time.Minute), ts.URL)
}

// wideDiagnosis diagnoses the trace of wideModule as culprit rank would,
// from its spectra (statements and branches) and the failing test's
// slice, with made-up mutant outcomes and another group of failing tests
// so that every column of the diagnosis page holds text (the layout is
// measured, not the ranking).
func wideDiagnosis(t *testing.T, traceDir string) (*diagnosis.Diagnosis, report.DiagnosisInfo) {
	t.Helper()
	sp, err := spectrum.Load(traceDir, spectrum.Options{Kinds: spectrum.KindsOf(spectrum.Stmt, spectrum.Branch)})
	if err != nil {
		t.Fatal(err)
	}
	tr, err := trace.Open(traceDir)
	if err != nil {
		t.Fatal(err)
	}
	r, err := deps.Build(tr, deps.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sliced := map[diagnosis.Location]bool{}
	for id := range r.Backward(r.Failure...).Nodes {
		n := r.Nodes[id]
		sliced[diagnosis.Location{File: diagnosis.Relative(sp.Root, n.File), Line: n.Line}] = true
	}
	in := diagnosis.Input{Spectra: sp, Slices: []map[diagnosis.Location]bool{sliced}}
	for _, l := range diagnosis.Diagnose(in).Lines {
		in.Mutants = append(in.Mutants,
			diagnosis.Mutant{At: l.Location, Operator: "negate", Failing: 2, Passing: 4, Changed: 1, Broke: 3},
			diagnosis.Mutant{At: l.Location, Operator: "delete", Failing: 2, Passing: 4, Changed: 2, Fixed: 1})
	}
	in.Stacks = [][]diagnosis.Location{{{File: "wide.go", Line: 9}}}
	info := report.DiagnosisInfo{
		Group: report.Group{Signature: "check wide_test.go: Median(N, N, N) = N, want N, the measurement between the two others",
			Tests: []string{"TestMedian/5_3_4", "TestMedian/2_1_3"}},
		Others: []report.Group{{Signature: "panic: runtime error: index out of range [3] with length 3 [recovered, repanicked] in example.com/wide.(*measurementWindow).Median",
			Tests: []string{"TestMedianOfAVeryLongNameThatDescribesTheWindowOfMeasurements/window_of_three_with_duplicates"}}},
		Sources: []string{"spectra (statements, branches)", "panic stacks (1)", "slices (1 test)", "mutants (made up)"},
	}
	return diagnosis.Diagnose(in), info
}

// layoutWidths are the window widths the layout must hold at: a small
// laptop, a common laptop, a desktop.
var layoutWidths = []int64{1024, 1280, 1920}

// layoutPages are the view's pages, as a person reaches them.
var layoutPages = []struct{ name, path string }{
	{"ranking", "/rank"},
	{"ranking-metric", "/rank?by=metric"},
	{"source", "/source"},
	{"source-selected", "/source?sel=wide.go:9"},
	{"guide", "/guide"},
	{"graph", "/graph"},
	{"flow-graph", "/graph?of=flow"},
	{"flow", "/flow"},
	{"invariants", "/mine"},
}

// checkLayout opens every page at every width in a 900 px high window and
// fails where testdata/layout.js finds boxes of the layout that overlap,
// text running out of its box or a page wider than the window; it saves
// a screenshot of each page that fails in the test's artifact directory.
func checkLayout(t *testing.T, ctx context.Context, url string) {
	js, err := os.ReadFile(filepath.Join("testdata", "layout.js"))
	if err != nil {
		t.Fatal(err)
	}
	for _, width := range layoutWidths {
		for _, p := range layoutPages {
			t.Run(fmt.Sprintf("%s/%d", p.name, width), func(t *testing.T) {
				if err := chromedp.Do(ctx,
					chromedp.EmulateViewport(width, 900),
					chromedp.Navigate(url+p.path),
					chromedp.WaitReady("main"),
				); err != nil {
					t.Fatalf("open %s: %v", p.path, err)
				}
				// Graphs are images: measure once they are drawn.
				for range 50 {
					loaded, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`[...document.images].every(i => i.complete)`))
					if err != nil {
						t.Fatal(err)
					}
					if loaded {
						break
					}
					time.Sleep(100 * time.Millisecond)
				}
				problems, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](string(js)))
				if err != nil {
					t.Fatalf("measure %s: %v", p.path, err)
				}
				if len(problems) == 0 {
					return
				}
				png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
				if err != nil {
					t.Fatal(err)
				}
				shot := filepath.Join(t.ArtifactDir(), "layout.png")
				if err := os.WriteFile(shot, png, 0o644); err != nil {
					t.Fatal(err)
				}
				t.Errorf("%s at %dx900 (screenshot %s):\n%s", p.path, width, shot, strings.Join(problems, "\n"))
			})
		}
	}
}
