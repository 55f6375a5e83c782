package report

import (
	"bytes"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

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
}

// sources reads and caches source files, split into lines.
type sources struct {
	fsys  fs.FS
	files map[string][]string
}

func newSources(root string, fsys fs.FS) *sources {
	if fsys == nil && root != "" {
		fsys = os.DirFS(root)
	}
	return &sources{fsys: fsys, files: map[string][]string{}}
}

// lines returns the lines of file, nil when it cannot be read.
func (s *sources) lines(file string) []string {
	if ls, ok := s.files[file]; ok {
		return ls
	}
	var data []byte
	var err error
	switch {
	case filepath.IsAbs(file):
		data, err = os.ReadFile(file)
	case s.fsys != nil && fs.ValidPath(path.Clean(file)):
		data, err = fs.ReadFile(s.fsys, path.Clean(file))
	default:
		err = fs.ErrNotExist
	}
	var ls []string
	if err == nil {
		data = bytes.TrimSuffix(data, []byte("\n"))
		ls = strings.Split(strings.ReplaceAll(string(data), "\t", "    "), "\n")
	}
	s.files[file] = ls
	return ls
}

// line returns line n (1-based) of file, "" when unknown.
func (s *sources) line(file string, n int) string {
	ls := s.lines(file)
	if n < 1 || n > len(ls) {
		return ""
	}
	return ls[n-1]
}
