package deps_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/culprit-go/culprit/deps"
	"github.com/culprit-go/culprit/report"
	"github.com/culprit-go/culprit/trace"
)

// storedTrace copies the trace stored in testdata/stored (culprit test
// -events all ./elems, run in a copy of testdata/replay) to a temporary
// directory, its site table naming the files of testdata/replay here:
// the analyses are tested on it without the instrumenter, in -short
// mode too.
func storedTrace(t *testing.T) (dir, root string) {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("testdata", "replay"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join("testdata", "stored", trace.SitesFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sites, err := trace.ReadSites(f)
	if err != nil {
		t.Fatal(err)
	}
	move := func(p string) string {
		if rel, err := filepath.Rel(sites.Root, p); err == nil && p != "" && !strings.HasPrefix(rel, "..") {
			return filepath.Join(root, rel)
		}
		return p
	}
	for i := range sites.Sites {
		s := &sites.Sites[i]
		s.File, s.DeclFile = move(s.File), move(s.DeclFile)
	}
	sites.Root = root
	dir = t.TempDir()
	var buf bytes.Buffer
	if err := trace.WriteSites(&buf, sites); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, trace.SitesFile), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	events, err := filepath.Glob(filepath.Join("testdata", "stored", trace.EventsPrefix+"*"))
	if err != nil || len(events) == 0 {
		t.Fatalf("no events file in testdata/stored: %v", err)
	}
	for _, e := range events {
		data, err := os.ReadFile(e)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(e)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, root
}

// TestStored slices the stored trace of package elems (summary and
// execution-level graphs, streamed as culprit slice and flow stream
// them): copies keep their parts apart.
func TestStored(t *testing.T) {
	dir, root := storedTrace(t)
	cases := []struct {
		test, fn, reason string
		want, not        []string
		precise          string // in the execution-level slice
	}{
		{"TestElems/Append", "Append", "ys[0] after ys := append(xs, c) is xs[0]",
			[]string{"<Append() return value> (12) <= xs[0] (9);"}, []string{"c (7)", "xs[1]"}, "<Append() return value>@0 (12) <= xs[0]@0 (9)"},
		{"TestElems/Appended", "Appended", "ys[2] is the c appended",
			[]string{"ys[2] (20) <= c (16);"}, []string{"xs[0]", "xs[1]"}, "ys[2]@0 (20) <= c@0 (16)"},
		{"TestElems/Struct", "Struct", "q.x after q := p is p.x",
			[]string{"<Struct() return value> (32) <= p.x (29);"}, []string{"p.y", "q (31)"}, "<Struct() return value>@0 (32) <= p.x@0 (29)"},
	}
	for _, tc := range cases {
		r, err := deps.BuildStream(dir, deps.Options{Test: tc.test})
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := report.SliceDeps(&got, r.Backward(r.Returns(tc.fn)...), report.SliceInfo{Root: root}); err != nil {
			t.Fatal(err)
		}
		checkSlice(t, tc.test, tc.reason, got.String(), tc.want, tc.not)
		ver, err := deps.BuildStream(dir, deps.Options{Test: tc.test, Versions: true})
		if err != nil {
			t.Fatal(err)
		}
		if got := versions(ver.Graph, ver.Backward(ver.Returns(tc.fn)...)); !strings.Contains(got, tc.precise) {
			t.Errorf("%s: no %q in the execution-level slice (%s):\n%s", tc.test, tc.precise, tc.reason, got)
		}
	}
}

// checkSlice reports the strings of want missing from the slice got of
// test, and those of not in it.
func checkSlice(t *testing.T, test, reason, got string, want, not []string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("%s: no %q (%s):\n%s", test, w, reason, got)
		}
	}
	for _, w := range not {
		if strings.Contains(got, w) {
			t.Errorf("%s: %q in the slice (%s):\n%s", test, w, reason, got)
		}
	}
}

// TestSyntax checks that a run hands out the files its replay read, as
// read (one source model: flow reads none again), and only those.
func TestSyntax(t *testing.T) {
	dir, root := storedTrace(t)
	r, err := deps.BuildStream(dir, deps.Options{Test: "TestElems/Append"})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(root, "elems", "elems.go")
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fset, f, src, ok := r.Syntax(path)
	if !ok || f == nil || !bytes.Equal(src, want) {
		t.Fatalf("Syntax(%s): ok %v, file %v, %d bytes (want %d)", path, ok, f != nil, len(src), len(want))
	}
	if got := fset.Position(f.Name.Pos()); got.Filename != path || got.Line == 0 {
		t.Errorf("Syntax(%s): package name at %v", path, got)
	}
	if _, _, _, ok := r.Syntax(filepath.Join(root, "nosuch.go")); ok {
		t.Errorf("Syntax of a file the replay did not read: ok")
	}
}
