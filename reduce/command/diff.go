package command

import (
	"path"
	"strings"

	"github.com/culprit-go/culprit/internal/textdiff"
)

// treeDiff renders the difference between the passing and the failing
// files as a unified diff, file by file.
func treeDiff(in *Input, passName, failName string, pass, fail []File) string {
	var b strings.Builder
	byPath := func(files []File) map[string][]byte {
		m := map[string][]byte{}
		for _, f := range files {
			m[f.Path] = f.Data
		}
		return m
	}
	p, f := byPath(pass), byPath(fail)
	for _, file := range in.Files {
		a, inA := p[file.Path]
		c, inC := f[file.Path]
		if !inA && !inC || inA && inC && string(a) == string(c) {
			continue
		}
		from, to := passName, failName
		if in.Dir {
			from, to = path.Join(passName, file.Path), path.Join(failName, file.Path)
		}
		if !inA {
			from = "/dev/null"
		}
		if !inC {
			to = "/dev/null"
		}
		b.WriteString(textdiff.Unified(from, to, string(a), string(c), textdiff.Myers))
	}
	return b.String()
}
