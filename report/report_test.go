package report

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/culprit-go/culprit/spectrum"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// middle returns the spectra of the seed's six middle() runs over
// testdata/middle/middle.go (a copy of examples/middle): the seed's event
// table, its Python lines mapped to the Go statements.
func middle() *spectrum.Spectra {
	stmt := func(line, col, endLine, endCol int) spectrum.Event {
		return spectrum.Event{Kind: spectrum.Stmt, File: "middle.go", Line: line, Col: col, EndLine: endLine, EndCol: endCol, Func: "example.com/middle.Middle"}
	}
	// seed line -> Go statement
	ev := map[int]spectrum.Event{
		2: stmt(8, 2, 20, 3), 3: stmt(9, 3, 13, 4), 4: stmt(10, 4, 10, 12), 5: stmt(11, 10, 13, 4), 6: stmt(12, 4, 12, 12),
		8: stmt(15, 3, 19, 4), 9: stmt(16, 4, 16, 12), 10: stmt(17, 10, 19, 4), 11: stmt(18, 4, 18, 12), 12: stmt(21, 2, 21, 10),
	}
	table := []struct {
		name  string
		fail  bool
		lines []int
	}{
		{"TestMiddle/3_3_5", false, []int{2, 3, 5, 6}},
		{"TestMiddle/1_2_3", false, []int{2, 3, 4}},
		{"TestMiddle/3_2_1", false, []int{2, 8, 9}},
		{"TestMiddle/5_5_5", false, []int{2, 8, 10, 12}},
		{"TestMiddle/5_3_4", false, []int{2, 3, 5, 12}},
		{"TestMiddle/2_1_3", true, []int{2, 3, 5, 6}},
	}
	b := spectrum.Builder{Root: filepath.Join("testdata", "middle")}
	for _, t := range table {
		run := spectrum.Run{Package: "example.com/middle", Name: t.name, Outcome: spectrum.Pass}
		if t.fail {
			run.Outcome = spectrum.Fail
		}
		var evs []spectrum.Event
		for _, l := range t.lines {
			evs = append(evs, ev[l])
		}
		b.Add(run, evs...)
	}
	return b.Spectra()
}

// TestGolden renders the middle ranking in every format and compares with
// testdata/middle.*.
func TestGolden(t *testing.T) {
	s := middle()
	ochiai := spectrum.Rank(s, spectrum.Ochiai)
	tarantula := spectrum.Rank(s, spectrum.Tarantula)
	tests := []struct {
		file   string
		render func(w *bytes.Buffer) error
	}{
		{"middle.txt", func(w *bytes.Buffer) error { return Text(w, ochiai, Options{}) }},
		{"middle.top3.txt", func(w *bytes.Buffer) error { return Text(w, tarantula, Options{Top: 3}) }},
		{"middle.listing", func(w *bytes.Buffer) error { return Listing(w, tarantula, Options{}) }},
		{"middle.color.listing", func(w *bytes.Buffer) error { return Listing(w, tarantula, Options{Color: true}) }},
		{"middle.table", func(w *bytes.Buffer) error { return Table(w, tarantula, Options{}) }},
		{"middle.metrics", func(w *bytes.Buffer) error {
			return MetricsTable(w, s, Options{Metrics: spectrum.Metrics(2)})
		}},
		{"middle.html", func(w *bytes.Buffer) error { return HTML(w, tarantula, Options{}) }},
		{"middle.sarif", func(w *bytes.Buffer) error { return SARIF(w, ochiai, Options{}) }},
		{"middle.json", func(w *bytes.Buffer) error { return JSON(w, ochiai, "stmt", Options{}) }},
		{"middle.dstar.json", func(w *bytes.Buffer) error {
			return JSON(w, spectrum.Rank(s, spectrum.DStar(2)), "stmt", Options{Top: 2})
		}},
	}
	for _, tt := range tests {
		var buf bytes.Buffer
		if err := tt.render(&buf); err != nil {
			t.Fatalf("%s: %v", tt.file, err)
		}
		golden := filepath.Join("testdata", tt.file)
		if *update {
			if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run go test -update)", err)
		}
		if !bytes.Equal(buf.Bytes(), want) {
			t.Errorf("%s differs (run go test -update and review the diff):\n%s", tt.file, buf.String())
		}
	}
}

// TestMiddleTop checks the point of the example: the faulty return y
// ranks first with the seed's scores, alone.
func TestMiddleTop(t *testing.T) {
	s := middle()
	for _, tt := range []struct {
		m     spectrum.Metric
		score string
	}{{spectrum.Tarantula, "0.833"}, {spectrum.Ochiai, "0.707"}} {
		var buf bytes.Buffer
		if err := Text(&buf, spectrum.Rank(s, tt.m), Options{Top: 1}); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(buf.String(), "\n")
		if f := strings.Fields(lines[2]); len(f) < 5 || f[0] != "1" || f[1] != tt.score || f[4] != "middle.go:12:4" {
			t.Errorf("%s: top entry %q", tt.m.Name, lines[2])
		}
	}
}

func TestRunNames(t *testing.T) {
	tests := []struct {
		runs []spectrum.Run
		want string
	}{
		{[]spectrum.Run{{Name: "TestA/x"}, {Name: "TestA/y"}}, "x y"},
		{[]spectrum.Run{{Name: "TestA/x"}, {Name: "TestB"}}, "TestA/x TestB"},
		{[]spectrum.Run{{Name: "TestAx"}, {Name: "TestAy"}}, "TestAx TestAy"},
		{[]spectrum.Run{{Package: "p", Name: "T/x"}, {Package: "q", Name: "T/x"}}, "p.T/x q.T/x"},
	}
	for _, tt := range tests {
		if got := strings.Join(runNames(tt.runs), " "); got != tt.want {
			t.Errorf("runNames(%v) = %q, want %q", tt.runs, got, tt.want)
		}
	}
}
