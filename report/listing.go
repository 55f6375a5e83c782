package report

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"

	"github.com/culprit-go/culprit/spectrum"
)

// lineInfo is what the listing and the HTML page show of one source line:
// its most suspicious event.
type lineInfo struct {
	entry  spectrum.Entry // under the ranking's metric
	counts spectrum.Counts
	susp   float64 // Tarantula's suspiciousness, 1 - hue
	hue    float64 // 0 red .. 1 green
	bright float64
}

// lineTable returns, per file and line, the line's most suspicious event
// under the ranking's metric (ties: the first).
func lineTable(r *spectrum.Ranking) map[string]map[int]*lineInfo {
	out := map[string]map[int]*lineInfo{}
	for _, e := range r.Entries {
		ev := r.Spectra.Events[e.Event]
		if ev.Line == 0 {
			continue
		}
		m := out[ev.File]
		if m == nil {
			m = map[int]*lineInfo{}
			out[ev.File] = m
		}
		if _, ok := m[ev.Line]; ok {
			continue // entries come most suspicious first
		}
		hue, _ := spectrum.Hue(e.Counts)
		m[ev.Line] = &lineInfo{entry: e, counts: e.Counts, susp: 1 - hue, hue: hue, bright: spectrum.Brightness(e.Counts)}
	}
	return out
}

// span is a range of lines of a file to list.
type span struct{ from, to int }

// spans returns the line ranges to list per file: each function with
// events, from its func line to its closing brace.
func spans(r *spectrum.Ranking, src *sources, filter string) map[string][]span {
	type fn struct{ file, name string }
	ext := map[fn]*span{}
	for _, ev := range r.Spectra.Events {
		if ev.Line == 0 {
			continue
		}
		if filter != "" && !strings.Contains(ev.File, filter) && !strings.Contains(ev.Func, filter) {
			continue
		}
		k := fn{ev.File, ev.Func}
		end := max(ev.EndLine, ev.Line)
		if s := ext[k]; s == nil {
			ext[k] = &span{ev.Line, end}
		} else {
			s.from, s.to = min(s.from, ev.Line), max(s.to, end)
		}
	}
	out := map[string][]span{}
	for k, s := range ext {
		lines := src.lines(k.file)
		// Widen to the func line above and the closing brace below.
		for l := s.from; l >= 1 && l > s.from-60 && l <= len(lines); l-- {
			if strings.HasPrefix(lines[l-1], "func ") {
				s.from = l
				break
			}
		}
		for l := s.to; l <= len(lines) && l < s.to+60; l++ {
			if lines[l-1] == "}" {
				s.to = l
				break
			}
		}
		out[k.file] = append(out[k.file], *s)
	}
	for f, ss := range out {
		sort.Slice(ss, func(i, j int) bool { return ss[i].from < ss[j].from })
		var merged []span
		for _, s := range ss {
			if n := len(merged); n > 0 && s.from <= merged[n-1].to+1 {
				merged[n-1].to = max(merged[n-1].to, s.to)
				continue
			}
			merged = append(merged, s)
		}
		out[f] = merged
	}
	return out
}

// Listing writes the source of the functions with events, each executed
// line with its suspiciousness as a percentage (Tarantula's, 1 - hue, as
// in the seed) and the rank of its most suspicious event under the
// ranking's metric. With opt.Color, lines have the background color of
// Tarantula's continuous spectrum: red for failing runs only, green for
// passing runs only, yellow in between, paler with less support.
func Listing(w io.Writer, r *spectrum.Ranking, opt Options) error {
	src := newSources(r.Spectra.Root, opt.Source, opt.Files)
	info := lineTable(r)
	all := spans(r, src, opt.List)
	files := make([]string, 0, len(all))
	for f := range all {
		files = append(files, f)
	}
	sort.Strings(files)
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# %s; percentages are Tarantula's suspiciousness, ranks %s's\n", Header(r), r.Metric.Name)
	if len(files) == 0 {
		fmt.Fprintf(bw, "# nothing to list")
		if opt.List != "" {
			fmt.Fprintf(bw, " matches %q", opt.List)
		}
		fmt.Fprintln(bw)
	}
	for i, f := range files {
		if i > 0 {
			fmt.Fprintln(bw)
		}
		fmt.Fprintf(bw, "== %s\n", f)
		lines := src.lines(f)
		for j, s := range all[f] {
			if j > 0 {
				fmt.Fprintln(bw, "     ...")
			}
			for l := s.from; l <= s.to; l++ {
				text := ""
				if l <= len(lines) {
					text = lines[l-1]
				}
				li := info[f][l]
				if li == nil {
					fmt.Fprintf(bw, "%5d %4s %7s  %s\n", l, "", "", text)
					continue
				}
				row := fmt.Sprintf("%5d %3d%% %7s  %s", l, int(li.susp*100), "#"+rankText(li.entry), text)
				if opt.Color {
					rr, gg, bb := hslToRGB(li.hue*120, li.bright, 0.8)
					row = fmt.Sprintf("\x1b[48;2;%d;%d;%dm\x1b[30m%s\x1b[0m", rr, gg, bb, row)
				}
				fmt.Fprintln(bw, row)
			}
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write listing: %w", err)
	}
	return nil
}

// hslToRGB converts a color from hue (degrees), saturation and lightness
// (0..1) to 8-bit red, green and blue.
func hslToRGB(h, s, l float64) (r, g, b int) {
	c := (1 - math.Abs(2*l-1)) * s
	hp := math.Mod(h/60, 6)
	x := c * (1 - math.Abs(math.Mod(hp, 2)-1))
	var r1, g1, b1 float64
	switch {
	case hp < 1:
		r1, g1 = c, x
	case hp < 2:
		r1, g1 = x, c
	case hp < 3:
		g1, b1 = c, x
	case hp < 4:
		g1, b1 = x, c
	case hp < 5:
		r1, b1 = x, c
	default:
		r1, b1 = c, x
	}
	m := l - c/2
	to := func(v float64) int { return int(math.Round((v + m) * 255)) }
	return to(r1), to(g1), to(b1)
}

// cssColor is the seed's hsl() background for a line.
func cssColor(li *lineInfo) string {
	return fmt.Sprintf("hsl(%s, %s%%, 80%%)", trimFloat(li.hue*120), trimFloat(li.bright*100))
}

func trimFloat(x float64) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.2f", x), "0"), ".")
}
