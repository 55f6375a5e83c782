package spectrum

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

// seedTable builds spectra from an event table in the seed's notation:
// one row per line, "X" or "-" per run.
func seedTable(fn string, runs []Run, rows map[int]string) *Spectra {
	var b Builder
	for r, run := range runs {
		var evs []Event
		for line, row := range rows {
			if strings.Fields(row)[r] == "X" {
				evs = append(evs, Event{Kind: Stmt, File: fn + ".py", Line: line})
			}
		}
		b.Add(run, evs...)
	}
	return b.Spectra()
}

// seedMiddle is the seed's middle() event table: five passing runs and
// the failing middle(2, 1, 3).
func seedMiddle() *Spectra {
	runs := []Run{
		{Name: "3_3_5", Outcome: Pass}, {Name: "1_2_3", Outcome: Pass}, {Name: "3_2_1", Outcome: Pass},
		{Name: "5_5_5", Outcome: Pass}, {Name: "5_3_4", Outcome: Pass}, {Name: "2_1_3", Outcome: Fail},
	}
	return seedTable("middle", runs, map[int]string{
		1:  "X X X X X X",
		2:  "X X X X X X",
		3:  "X X - - X X",
		4:  "- X - - - -",
		5:  "X - - - X X",
		6:  "X - - - - X",
		8:  "- - X X - -",
		9:  "- - X - - -",
		10: "- - - X - -",
		12: "- - - X X -",
	})
}

// seedHTML is the seed's remove_html_markup() table: 'abc' and
// '<b>abc</b>' pass, '"abc"' fails.
func seedHTML() *Spectra {
	runs := []Run{{Name: "abc", Outcome: Pass}, {Name: "<b>abc</b>", Outcome: Pass}, {Name: `"abc"`, Outcome: Fail}}
	rows := map[int]string{8: "- X -", 10: "- X -", 12: "- - X"}
	for _, l := range []int{1, 2, 3, 4, 6, 7, 9, 11, 13, 14, 16} {
		rows[l] = "X X X"
	}
	return seedTable("remove_html_markup", runs, rows)
}

// TestMetrics checks each metric against values computed by hand from
// the seed's middle() table (F = 1, P = 5) and at the edge cases.
func TestMetrics(t *testing.T) {
	inf := math.Inf(1)
	// Counts of the seed's lines: ef, ep (nf = 1-ef, np = 5-ep).
	line := func(ef, ep int) Counts { return Counts{EF: ef, EP: ep, NF: 1 - ef, NP: 5 - ep} }
	l6, l5, l3, l1, l4, l12 := line(1, 1), line(1, 2), line(1, 3), line(1, 5), line(0, 1), line(0, 2)
	never := line(0, 0)
	onlyFail := line(1, 0)                  // every failing run, no passing run
	someFail := Counts{EF: 1, NF: 1, NP: 3} // one of two failing runs, no passing run
	noPass := Counts{EF: 2, NF: 1}          // zero passing runs
	tests := []struct {
		m      Metric
		c      Counts
		want   float64
		reason string
	}{
		{Tarantula, l6, 1 / 1.2, "seed: 0.8333 for the faulty return y"},
		{Tarantula, l5, 1 / 1.4, "seed hue 34.29 = 120*(1-s)"},
		{Tarantula, l3, 1 / 1.6, "seed hue 45"},
		{Tarantula, l1, 0.5, "every run: equal fractions"},
		{Tarantula, l4, 0, "only passing"},
		{Tarantula, never, 0, "never executed"},
		{Tarantula, onlyFail, 1, "only failing"},
		{Tarantula, noPass, 1, "no passing runs: the passed fraction is 0"},
		{Ochiai, l6, 1 / math.Sqrt(2), "seed: 0.7071"},
		{Ochiai, l5, 1 / math.Sqrt(3), "1/sqrt(1*3)"},
		{Ochiai, l3, 0.5, "1/sqrt(1*4)"},
		{Ochiai, l1, 1 / math.Sqrt(6), "1/sqrt(1*6)"},
		{Ochiai, l12, 0, "only passing"},
		{Ochiai, never, 0, "never executed: 0/0 is 0"},
		{Ochiai, onlyFail, 1, "only failing"},
		{Ochiai, noPass, 2 / math.Sqrt(6), "2/sqrt(3*2)"},
		{Ochiai2, l6, 4 / math.Sqrt(40), "1*4/sqrt(2*4*5*1)"},
		{Ochiai2, l5, 3 / math.Sqrt(72), "1*3/sqrt(3*3*4*2)"},
		{Ochiai2, l3, 2 / math.Sqrt(72), "1*2/sqrt(4*2*3*3)"},
		{Ochiai2, l1, 0, "np = 0"},
		{Ochiai2, never, 0, "ef = 0"},
		{Ochiai2, onlyFail, 1, "ep = nf = 0: perfect correlation, the limit 1"},
		{DStar(2), l6, 1, "1^2/(1+0)"},
		{DStar(2), l5, 0.5, "1/2"},
		{DStar(2), l3, 1.0 / 3, "1/3"},
		{DStar(2), l1, 0.2, "1/5"},
		{DStar(2), l4, 0, "ef = 0"},
		{DStar(2), never, 0, "never executed"},
		{DStar(2), onlyFail, inf, "every failing run and no passing run: most suspicious, never lowest"},
		{DStar(2), someFail, 1, "1^2/(0+1)"},
		{DStar(3), line(1, 1), 1, "1^3/1"},
		{DStar(3), Counts{EF: 2, EP: 1, NF: 1, NP: 0}, 4, "2^3/2"},
		{Jaccard, l6, 0.5, "1/(1+1)"},
		{Jaccard, l1, 1.0 / 6, "1/(1+5)"},
		{Jaccard, never, 0, "never executed"},
		{Jaccard, onlyFail, 1, "1/1"},
		{Op2, l6, 1 - 1.0/6, "1 - 1/6"},
		{Op2, l1, 1 - 5.0/6, "1 - 5/6"},
		{Op2, l12, -2.0 / 6, "0 - 2/6"},
		{Op2, never, 0, "never executed"},
		{Op2, noPass, 2, "no passing runs: ef"},
		{Barinel, l6, 0.5, "1 - 1/2"},
		{Barinel, l3, 0.25, "1 - 3/4"},
		{Barinel, l4, 0, "only passing"},
		{Barinel, never, 0, "never executed"},
		{Barinel, onlyFail, 1, "only failing: highest, not lowest"},
		{Kulczynski2, l6, 0.75, "(1 + 1/2)/2"},
		{Kulczynski2, l1, (1 + 1.0/6) / 2, "(1 + 1/6)/2"},
		{Kulczynski2, never, 0, "never executed"},
		{Kulczynski2, onlyFail, 1, "(1+1)/2"},
		{Zoltar, l6, 0.5, "1/(1+0+1+0)"},
		{Zoltar, l1, 1.0 / 6, "1/(1+0+5+0)"},
		{Zoltar, Counts{EF: 1, EP: 1, NF: 1, NP: 0}, 1.0 / 10003, "1/(1+1+1+10000)"},
		{Zoltar, never, 0, "never executed"},
		{Zoltar, onlyFail, 1, "1/1"},
	}
	for _, tt := range tests {
		got := tt.m.Score(tt.c)
		if math.IsNaN(got) || !(got == tt.want || math.Abs(got-tt.want) < 1e-12) {
			t.Errorf("%s%+v = %v, want %v (%s)", tt.m.Name, tt.c, got, tt.want, tt.reason)
		}
	}
}

// TestSeedRankings checks the seed's rankings of middle() and
// remove_html_markup(): the defect first, with the seed's scores, and
// ties reported as rank ranges.
func TestSeedRankings(t *testing.T) {
	tests := []struct {
		name   string
		s      *Spectra
		m      Metric
		lines  []int // the ranking, by line
		ranges string
		score  float64 // of the first entry
	}{
		{"middle tarantula", seedMiddle(), Tarantula, []int{6, 5, 3, 1, 2, 4, 8, 9, 10, 12}, "1-1 2-2 3-3 4-5 4-5 6-10 6-10 6-10 6-10 6-10", 0.8333333333333333},
		{"middle ochiai", seedMiddle(), Ochiai, []int{6, 5, 3, 1, 2, 4, 8, 9, 10, 12}, "1-1 2-2 3-3 4-5 4-5 6-10 6-10 6-10 6-10 6-10", 0.7071067811865475},
		{"middle op2", seedMiddle(), Op2, []int{6, 5, 3, 1, 2, 4, 9, 10, 8, 12}, "1-1 2-2 3-3 4-5 4-5 6-8 6-8 6-8 9-10 9-10", 5.0 / 6},
		{"html tarantula", seedHTML(), Tarantula, []int{12, 1, 2, 3, 4, 6, 7, 9, 11, 13, 14, 16, 8, 10}, "1-1 2-12 2-12 2-12 2-12 2-12 2-12 2-12 2-12 2-12 2-12 2-12 13-14 13-14", 1},
		{"html ochiai", seedHTML(), Ochiai, []int{12, 1, 2, 3, 4, 6, 7, 9, 11, 13, 14, 16, 8, 10}, "1-1 2-12 2-12 2-12 2-12 2-12 2-12 2-12 2-12 2-12 2-12 2-12 13-14 13-14", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Rank(tt.s, tt.m)
			var lines []int
			var ranges []string
			for i, e := range r.Entries {
				lines = append(lines, tt.s.Events[e.Event].Line)
				ranges = append(ranges, itoa(e.Best)+"-"+itoa(e.Worst))
				if e.Position != i+1 || e.Rank != float64(e.Best+e.Worst)/2 {
					t.Errorf("entry %d: position %d rank %v", i, e.Position, e.Rank)
				}
			}
			if got, want := join(lines), join(tt.lines); got != want {
				t.Errorf("lines %s, want %s", got, want)
			}
			if got := strings.Join(ranges, " "); got != tt.ranges {
				t.Errorf("ranges %s, want %s", got, tt.ranges)
			}
			if got := r.Entries[0].Score; math.Abs(got-tt.score) > 1e-12 {
				t.Errorf("top score %v, want %v", got, tt.score)
			}
		})
	}
}

// TestDiscreteAndHue checks the seed's discrete and continuous spectra of
// remove_html_markup(): line 12 only failing and red, 8 and 10 only
// passing, green at half saturation.
func TestDiscreteAndHue(t *testing.T) {
	s := seedHTML()
	for i, e := range s.Events {
		c := s.Counts(i)
		side := Discrete(c)
		hue, _ := Hue(c)
		bright := Brightness(c)
		switch e.Line {
		case 12:
			if side != OnlyFail || hue != 0 || bright != 1 {
				t.Errorf("line 12: %v hue %v brightness %v", side, hue, bright)
			}
		case 8, 10:
			if side != OnlyPass || hue != 1 || bright != 0.5 {
				t.Errorf("line %d: %v hue %v brightness %v", e.Line, side, hue, bright)
			}
		default:
			if side != Both || hue != 0.5 || bright != 1 {
				t.Errorf("line %d: %v hue %v brightness %v", e.Line, side, hue, bright)
			}
		}
	}
	if _, ok := Hue(Counts{NF: 1, NP: 1}); ok {
		t.Errorf("hue of an event no run had is defined")
	}
}

func TestMetricByName(t *testing.T) {
	for _, m := range Metrics(2) {
		got, err := MetricByName(m.Name, 2)
		if err != nil || got.Name != m.Name {
			t.Errorf("MetricByName(%q) = %v, %v", m.Name, got.Name, err)
		}
	}
	if m, err := MetricByName("dstar", 3); err != nil || m.Score(Counts{EF: 2, EP: 1, NF: 1}) != 4 {
		t.Errorf("dstar with exponent 3: %v", err)
	}
	if _, err := MetricByName("nope", 2); err == nil || !strings.Contains(err.Error(), "ochiai") {
		t.Errorf("unknown metric: %v", err)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

func join(xs []int) string {
	var s []string
	for _, x := range xs {
		s = append(s, strconv.Itoa(x))
	}
	return strings.Join(s, ",")
}
