package report

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"sort"

	"github.com/culprit-go/culprit/spectrum"
)

//go:embed report.css
var css string

var page = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>culprit rank: {{.Header}}</title>
<style>{{.CSS}}</style>
</head>
<body>
<h1>culprit rank</h1>
<p>{{.Header}}. Metric {{.Metric.Name}}: <code>{{.Metric.Formula}}</code> ({{.Metric.Source}}).</p>
<p class="legend">Line colors: Tarantula's continuous spectrum, hue from the fractions of passing and failing runs,
saturation from the larger fraction:
<span style="background-color: hsl(0, 100%, 80%)">failing runs only</span>
<span style="background-color: hsl(60, 100%, 80%)">both</span>
<span style="background-color: hsl(120, 100%, 80%)">passing runs only</span></p>
<table class="rank">
<tr><th>rank</th><th>score</th><th>ef</th><th>ep</th><th>location</th><th>event</th><th>source</th></tr>
{{range .Rows}}<tr><td class="num">{{.Rank}}</td><td class="num">{{.Score}}</td><td class="num">{{.EF}}</td><td class="num">{{.EP}}</td><td><a href="#{{.Anchor}}">{{.Pos}}</a></td><td>{{.Event}}</td><td><code>{{.Source}}</code></td></tr>
{{end}}</table>
{{with .Notes}}<ul class="notes">{{range .}}<li>{{.}}</li>{{end}}</ul>{{end}}
{{range .Files}}<h2>{{.Name}}</h2>
<div>{{range .Lines}}<pre class="src" id="{{.Anchor}}"{{if .Color}} style="background-color: {{.Color}}"{{end}} title="{{.Tip}}"><span class="ln">{{.N}}</span><span class="pct">{{.Pct}}</span>{{.Text}}</pre>
{{end}}</div>
{{end}}</body>
</html>
`))

type htmlRow struct {
	Rank, Score, Pos, Event, Source, Anchor string
	EF, EP                                  int
}

type htmlLine struct {
	N                      int
	Anchor, Pct, Text, Tip string
	Color                  template.CSS
}

type htmlFile struct {
	Name  string
	Lines []htmlLine
}

// HTML writes one self-contained page: the ranking (the top opt.Top
// entries, all when 0) linking to the lines, and the whole source of every
// file with events, colored by Tarantula's continuous spectrum, with the
// counts, suspiciousness and rank of each executed line as a tooltip.
func HTML(w io.Writer, r *spectrum.Ranking, opt Options) error {
	s := r.Spectra
	src := newSources(s.Root, opt.Source, opt.Files)
	anchor := func(file string, line int) string { return fmt.Sprintf("L%s:%d", file, line) }
	data := struct {
		Header string
		CSS    template.CSS
		Metric spectrum.Metric
		Rows   []htmlRow
		Notes  []string
		Files  []htmlFile
	}{Header: Header(r), CSS: template.CSS(css), Metric: r.Metric, Notes: s.Notes}
	for _, e := range r.Top(opt.Top) {
		ev := s.Events[e.Event]
		data.Rows = append(data.Rows, htmlRow{Rank: rankText(e), Score: scoreText(e.Score), EF: e.Counts.EF, EP: e.Counts.EP,
			Pos: ev.Pos(), Event: eventText(ev), Source: src.line(ev.File, ev.Line), Anchor: anchor(ev.File, ev.Line)})
	}
	info := lineTable(r)
	files := make([]string, 0, len(info))
	for f := range info {
		files = append(files, f)
	}
	sort.Strings(files)
	for _, f := range files {
		hf := htmlFile{Name: f}
		for i, text := range src.lines(f) {
			n := i + 1
			hl := htmlLine{N: n, Anchor: anchor(f, n), Text: text, Tip: fmt.Sprintf("Line %d: not executed", n)}
			if li := info[f][n]; li != nil {
				hl.Color = template.CSS(cssColor(li))
				hl.Pct = fmt.Sprintf("%d%%", int(li.susp*100))
				hl.Tip = fmt.Sprintf("Line %d: %d of %d failing and %d of %d passing runs; Tarantula %s; %s %s, rank %s",
					n, li.counts.EF, li.counts.Failed(), li.counts.EP, li.counts.Passed(), scoreText(li.susp), r.Metric.Name, scoreText(li.entry.Score), rankText(li.entry))
			}
			if hl.Text == "" {
				hl.Text = " "
			}
			hf.Lines = append(hf.Lines, hl)
		}
		data.Files = append(data.Files, hf)
	}
	if err := page.Execute(w, data); err != nil {
		return fmt.Errorf("write html: %w", err)
	}
	return nil
}
