package command

import "sort"

// A unit is what delta debugging keeps or removes: byte ranges of one
// original file and, for a directory input, possibly the file's existence.
// Keeping any unit of a file keeps the file; a unit that carries only the
// file's existence lets a file stay with no content.
type unit struct {
	file     int
	presence bool   // keeping the unit keeps the file in existence
	spans    []Span // ranges of the original file, sorted
}

// cut splits the fail selection into the units of a level, further cut
// wherever membership in the pass selection changes, so that pass is
// exactly a subset of the units. It returns the units and the sorted
// indices of those in pass.
func (in *Input) cut(lvl Level, fail, pass selection) (units []unit, passIdx []int) {
	_, whole := lvl.(filesLevel)
	for i, f := range fail {
		if !f.present {
			continue
		}
		text, inPass, orig := in.text(i, f, pass[i])
		type proto struct {
			presence   bool
			start, end int
		}
		var protos []proto
		switch {
		case whole && in.Dir:
			protos = append(protos, proto{true, 0, len(text)})
		default:
			if in.Dir {
				protos = append(protos, proto{true, 0, 0})
			}
			for _, s := range partition(lvl.Split(in.Files[i].Path, text), len(text)) {
				protos = append(protos, proto{false, s.Start, s.End})
			}
		}
		emit := func(presence bool, a, b int, member bool) {
			if member {
				passIdx = append(passIdx, len(units))
			}
			units = append(units, unit{file: i, presence: presence, spans: orig(a, b)})
		}
		for _, p := range protos {
			a := p.start
			if p.presence && (a == p.end || inPass[a] != pass[i].present) {
				emit(true, a, a, pass[i].present)
				p.presence = false
			}
			for a < p.end {
				b := a + 1
				for b < p.end && inPass[b] == inPass[a] {
					b++
				}
				emit(p.presence, a, b, inPass[a])
				p.presence = false
				a = b
			}
		}
	}
	return units, passIdx
}

// text returns the current text of file i under selection f, which bytes
// of it the pass selection p keeps, and a function mapping a range of the
// text back to ranges of the original file.
func (in *Input) text(i int, f, p fileSel) (text []byte, inPass []bool, orig func(a, b int) []Span) {
	data := in.Files[i].Data
	offs := make([]int, len(f.spans)) // text offset of each span
	for k, s := range f.spans {
		offs[k] = len(text)
		text = append(text, data[s.Start:s.End]...)
	}
	inPass = make([]bool, len(text))
	k := 0 // index into p.spans
	for j, s := range f.spans {
		for o := s.Start; o < s.End; o++ {
			for k < len(p.spans) && p.spans[k].End <= o {
				k++
			}
			inPass[offs[j]+o-s.Start] = k < len(p.spans) && p.spans[k].Start <= o
		}
	}
	orig = func(a, b int) []Span {
		var out []Span
		// The first span ending after a.
		j0 := sort.Search(len(offs), func(j int) bool { return offs[j]+f.spans[j].End-f.spans[j].Start > a })
		for j := j0; j < len(offs) && offs[j] < b; j++ {
			s := f.spans[j]
			lo, hi := max(a, offs[j]), min(b, offs[j]+s.End-s.Start)
			if lo < hi {
				out = append(out, Span{s.Start + lo - offs[j], s.Start + hi - offs[j]})
			}
		}
		return out
	}
	return text, inPass, orig
}

// selectUnits turns a subset of units back into a selection.
func (in *Input) selectUnits(units []unit) selection {
	sel := in.selection()
	for i := range units {
		sel.add(&units[i])
	}
	return sel
}

// selectIDs turns the units numbered ids back into a selection.
func (in *Input) selectIDs(units []unit, ids []int32) selection {
	sel := in.selection()
	for _, id := range ids {
		sel.add(&units[id])
	}
	return sel
}

// selection returns an empty selection to add units to.
func (in *Input) selection() selection {
	sel := make(selection, len(in.Files))
	if !in.Dir {
		sel[0].present = true
	}
	return sel
}

// add adds a unit, which follows those added before in the input.
func (sel selection) add(u *unit) {
	f := &sel[u.file]
	// Content implies existence: a presence unit only matters for a
	// file kept with no content.
	f.present = f.present || u.presence || len(u.spans) > 0
	for _, s := range u.spans {
		if n := len(f.spans); n > 0 && f.spans[n-1].End == s.Start {
			f.spans[n-1].End = s.End
			continue
		}
		f.spans = append(f.spans, s)
	}
}
