package command

import (
	"math/rand"
	"testing"
)

// randomSubset keeps each byte of each file of sel with probability p,
// and each file with probability q.
func randomSubset(rng *rand.Rand, in *Input, sel selection, p, q float64) selection {
	out := make(selection, len(sel))
	for i, f := range sel {
		out[i].present = f.present && (!in.Dir || rng.Float64() < q)
		var units []unit
		for _, s := range f.spans {
			for o := s.Start; o < s.End; o++ {
				if rng.Float64() < p {
					units = append(units, unit{file: i, spans: []Span{{o, o + 1}}})
				}
			}
		}
		if out[i].present {
			out[i].spans = in.selectUnits(units)[i].spans
		}
	}
	return out
}

func content(in *Input, sel selection) string {
	s := ""
	for _, f := range in.files(sel) {
		s += f.Path + ":" + string(f.Data) + "|"
	}
	return s
}

// TestCutRoundTrip checks the property the levels rely on: the units of
// a level cover the fail selection exactly, and the units marked as
// passing rebuild the pass selection exactly.
func TestCutRoundTrip(t *testing.T) {
	inputs := []*Input{
		{Name: "in.txt", Files: []File{{Path: "in.txt", Data: []byte("first line\nsecond (line)\n\nx = y + 1\n")}}},
		{Name: "dir", Dir: true, Files: []File{
			{Path: "a.go", Data: []byte("package a\n\nfunc F() { return }\n")},
			{Path: "b/c.txt", Data: []byte("hello, world\n")},
			{Path: "empty", Data: nil},
		}},
	}
	rng := rand.New(rand.NewSource(1))
	for _, in := range inputs {
		for _, lvl := range levels {
			for i := 0; i < 50; i++ {
				fail := randomSubset(rng, in, in.all(), 0.7, 0.8)
				pass := randomSubset(rng, in, fail, 0.5, 0.7)
				units, passIdx := in.cut(lvl, fail, pass)
				if got, want := content(in, in.selectUnits(units)), content(in, fail); got != want {
					t.Fatalf("%s %s: units rebuild %q, want fail %q", in.Name, lvl.Name(), got, want)
				}
				if got, want := content(in, in.selectUnits(pick(units, passIdx))), content(in, pass); got != want {
					t.Fatalf("%s %s: pass units rebuild %q, want %q", in.Name, lvl.Name(), got, want)
				}
			}
		}
	}
}

func TestCutUnits(t *testing.T) {
	in := &Input{Name: "d", Dir: true, Files: []File{
		{Path: "a", Data: []byte("x y\nz\n")},
		{Path: "b", Data: nil},
	}}
	tests := []struct {
		level Level
		want  []string
	}{
		{Files, []string{"+a:x y\nz\n", "+b:"}},
		{Lines, []string{"+a:", "a:x y\n", "a:z\n", "+b:"}},
		{Tokens, []string{"+a:", "a:x", "a: ", "a:y", "a:\n", "a:z", "a:\n", "+b:"}},
	}
	for _, tt := range tests {
		units, _ := in.cut(tt.level, in.all(), in.none())
		var got []string
		for _, u := range units {
			s := in.Files[u.file].Path + ":"
			if u.presence {
				s = "+" + s
			}
			for _, sp := range u.spans {
				s += string(in.Files[u.file].Data[sp.Start:sp.End])
			}
			got = append(got, s)
		}
		if len(got) != len(tt.want) {
			t.Errorf("%s: units %q, want %q", tt.level.Name(), got, tt.want)
			continue
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("%s: units %q, want %q", tt.level.Name(), got, tt.want)
				break
			}
		}
	}
}
