package report

import (
	"io/fs"
	"path"
	"path/filepath"

	"github.com/culprit-go/culprit/source"
	"github.com/culprit-go/culprit/spectrum"
)

// Options are what every renderer may use.
type Options struct {
	Top       int               // entries to show, most suspicious first (0: all)
	Color     bool              // ANSI colors in the listing and text (for a terminal)
	Threshold float64           // SARIF: only events scoring above it
	List      string            // listing: only files or functions whose name contains it ("" all)
	Source    fs.FS             // where event files are read from; nil is the directory Spectra.Root
	Metrics   []spectrum.Metric // side-by-side table: the metrics to show
	// Files are the source files read already (deps.Run.Files): with
	// Source nil, files are read through it, each once per command; nil
	// reads them anew.
	Files *source.Set
}

// sources reads a renderer's source files, by the names its analyses
// give them: absolute, or relative to the module root.
type sources struct {
	set  *source.Set
	root string // relative names are under it on disk ("": they cannot be read)
	inFS bool   // relative names are read from set's fs.FS instead
}

// newSources returns the sources of files relative to root, read from
// fsys when it is not nil, else through set (nil: a new one).
func newSources(root string, fsys fs.FS, set *source.Set) *sources {
	switch {
	case fsys != nil:
		return &sources{set: source.New(fsys), inFS: true}
	case set == nil:
		set = source.New(nil)
	}
	return &sources{set: set, root: root}
}

// lines returns the lines of file, tabs expanded, nil when it cannot be
// read.
func (s *sources) lines(file string) []string {
	name := file
	if !filepath.IsAbs(file) {
		clean := path.Clean(file)
		switch {
		case !fs.ValidPath(clean):
			return nil
		case s.inFS:
			name = clean
		case s.root == "":
			return nil
		default:
			name = filepath.Join(s.root, filepath.FromSlash(clean))
		}
	}
	return s.set.Lines(name)
}

// line returns line n (1-based) of file, "" when unknown.
func (s *sources) line(file string, n int) string {
	ls := s.lines(file)
	if n < 1 || n > len(ls) {
		return ""
	}
	return ls[n-1]
}
