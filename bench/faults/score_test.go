package main

import (
	"os"
	"path/filepath"
	"testing"
)

func TestPlaceBest(t *testing.T) {
	scores := map[string]float64{"a": 0.9, "b": 0.5, "c": 0.5, "d": 0.5, "e": 0.1}
	tests := []struct {
		name   string
		faults []string
		total  int
		want   Pos
	}{
		{"first", []string{"a"}, 5, Pos{1, 1, true}},
		{"tie", []string{"c"}, 5, Pos{2, 4, true}},
		{"best of two", []string{"e", "b"}, 5, Pos{2, 4, true}},
		{"last", []string{"e"}, 5, Pos{5, 5, true}},
		{"absent", []string{"x"}, 9, Pos{6, 9, false}},
		{"absent, nothing more executed", []string{"x"}, 5, Pos{6, 6, false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := map[string]bool{}
			for _, f := range tt.faults {
				is[f] = true
			}
			got := placeBest(scores, func(k string) bool { return is[k] }, tt.total)
			if got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestMetricPlace(t *testing.T) {
	faults := faultSet{{"a.go", 10}: true}
	var m metricJSON
	for _, l := range []struct {
		file  string
		line  int
		fn    string
		score float64
	}{
		{"a.go", 10, "p.F", 0.5}, // the fault: its line's best event
		{"a.go", 10, "p.F", 0.7},
		{"a.go", 11, "p.F", 0.7},
		{"a.go", 20, "p.G", 0.9},
		{"b.go", 3, "p.H", 0.2},
	} {
		m.Locations = append(m.Locations, struct {
			File  string
			Line  int
			Func  string
			Score float64
		}{l.file, l.line, l.fn, l.score})
	}
	got := m.place(faults, map[string]bool{"p.F": true})
	want := Rank{Line: Pos{2, 3, true}, Func: Pos{2, 2, true}}
	if got != want {
		t.Errorf("got %+v, want %+v", got, want)
	}
	if n := len(m.lines()); n != 4 {
		t.Errorf("lines: %d, want 4", n)
	}
}

func TestDiagnosisPlace(t *testing.T) {
	faults := faultSet{{"a.go", 7}: true}
	executed := map[lineKey]string{{"a.go", 5}: "p.F", {"a.go", 7}: "p.F", {"a.go", 9}: "p.G", {"b.go", 1}: "p.H", {"b.go", 2}: "p.H"}
	d := diagnosisJSON{}
	add := func(file string, line int, fn string, lb, lw, fb, fw int) {
		l := d.Locations
		l = append(l, struct {
			File     string
			Line     int
			Func     string
			Rank     struct{ Best, Worst int }
			FuncRank struct{ Best, Worst int } `json:"func_rank"`
		}{File: file, Line: line, Func: fn})
		l[len(l)-1].Rank.Best, l[len(l)-1].Rank.Worst = lb, lw
		l[len(l)-1].FuncRank.Best, l[len(l)-1].FuncRank.Worst = fb, fw
		d.Locations = l
	}
	add("a.go", 9, "p.G", 1, 1, 1, 1)
	add("a.go", 5, "p.F", 2, 2, 2, 2)
	got := d.place(faults, map[string]bool{"p.F": true}, executed)
	// The fault line is not listed: after the two listed lines, up to
	// the five executed ones; its function is listed second.
	want := Rank{Line: Pos{3, 5, false}, Func: Pos{2, 2, true}}
	if got != want {
		t.Errorf("got %+v, want %+v", got, want)
	}
	add("a.go", 7, "p.F", 3, 4, 2, 2)
	if got := d.place(faults, map[string]bool{"p.F": true}, executed); got.Line != (Pos{3, 4, true}) {
		t.Errorf("listed fault: got %+v", got.Line)
	}
}

func TestFaultFuncs(t *testing.T) {
	dir := t.TempDir()
	src := `package p

func F(x int) int {
	f := func() int {
		return x
	}
	if x > 0 {
		return f()
	}
	return 0
}
`
	if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	executed := map[lineKey]string{{"a.go", 4}: "p.F", {"a.go", 5}: "p.F.func1", {"a.go", 7}: "p.F"}
	tests := []struct {
		line int
		want string
	}{
		{5, "p.F.func1"}, // executed: its own function
		{8, "p.F"},       // not executed: the declaration's outermost function
		{1, ""},          // outside any function
	}
	for _, tt := range tests {
		bug := &Bug{Faults: []Fault{{File: "a.go", Lines: []int{tt.line}}}}
		got := faultFuncs(dir, bug, executed)
		if tt.want == "" && len(got) != 0 || tt.want != "" && (len(got) != 1 || !got[tt.want]) {
			t.Errorf("line %d: got %v, want %q", tt.line, got, tt.want)
		}
	}
}

func TestCorpusFile(t *testing.T) {
	c, err := LoadCorpus("corpus.json")
	if os.IsNotExist(err) {
		t.Skip("no corpus.json")
	}
	if err != nil {
		t.Fatal(err)
	}
	n := map[string]int{}
	for _, b := range c.Bugs {
		n[b.Set]++
	}
	if n[Validation]*3 < len(c.Bugs)-2 {
		t.Errorf("validation set: %d of %d bugs, want a third", n[Validation], len(c.Bugs))
	}
}

func TestBugCheck(t *testing.T) {
	good := func() *Bug {
		return &Bug{ID: "x", Module: "m", Buggy: "v1.0.0", Fixed: "v1.0.1", Package: "./", TestFiles: []string{"a_test.go"},
			FailingTests: []string{"TestA"}, Faults: []Fault{{File: "a.go", Lines: []int{3}}}, Set: Train}
	}
	if err := good().check(); err != nil {
		t.Fatalf("good bug: %v", err)
	}
	for name, edit := range map[string]func(*Bug){
		"same versions": func(b *Bug) { b.Fixed = b.Buggy },
		"bad version":   func(b *Bug) { b.Buggy = "1.0" },
		"subtest":       func(b *Bug) { b.FailingTests = []string{"TestA/sub"} },
		"test as fault": func(b *Bug) { b.Faults[0].File = "a_test.go" },
		"escaping file": func(b *Bug) { b.TestFiles = []string{"../x_test.go"} },
		"no set":        func(b *Bug) { b.Set = "" },
		"no lines":      func(b *Bug) { b.Faults[0].Lines = nil },
	} {
		b := good()
		edit(b)
		if err := b.check(); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestCandidates(t *testing.T) {
	src := `package p

var table = []string{
	"a",
}

func F(x int) int {
	y := g(x,
		1)
	if x > 0 {
		y++
	}

	// a comment
	return y
}

const (
	a = "x"
	b = "y"
)
`
	tests := []struct {
		line int
		want []int
		why  string
	}{
		{8, []int{8}, "a statement's first line"},
		{9, []int{8}, "inside a multi-line statement: its first line"},
		{12, []int{11, 15}, "a closing brace: the statements around the insertion"},
		{13, []int{11, 15}, "a blank line, likewise"},
		{14, []int{11, 15}, "a comment, likewise"},
		{4, []int{3}, "a package-level declaration: its first line"},
		{20, []int{20}, "a spec of a grouped declaration: its own line"},
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		got := candidates(dir, &Bug{Faults: []Fault{{File: "a.go", Lines: []int{tt.line}}}})
		want := faultSet{}
		for _, l := range tt.want {
			want[lineKey{"a.go", l}] = true
		}
		if len(got) != len(want) {
			t.Errorf("line %d (%s): got %v, want %v", tt.line, tt.why, got, want)
			continue
		}
		for k := range want {
			if !got[k] {
				t.Errorf("line %d (%s): got %v, want %v", tt.line, tt.why, got, want)
			}
		}
	}
}
