package instrument

import (
	"strings"
	"testing"
)

// TestPlainFileSize checks that the functions of a file over
// maxPlainFile get no plain copies, and those of a smaller one do.
func TestPlainFileSize(t *testing.T) {
	const body = "package p\n\nfunc Twice(n int) int {\n\tm := n * 2\n\treturn m\n}\n\nfunc Use(n int) int { return Twice(n) + Twice(n+1) }\n"
	for _, c := range []struct {
		pad  int
		want bool
	}{{0, true}, {maxPlainFile, false}} {
		src := body + "\n// " + strings.Repeat("x", c.pad) + "\n"
		r := sourceRewriter(t, "", src)
		r.noInline = true
		r.clones = cloneSet([]*fileRewriter{r})
		out := string(r.rewrite())
		copied := strings.Contains(out, "if _culpritT.Mute {")
		plainFunc := strings.Contains(out, "func _culpritPTwice(")
		if copied != c.want || plainFunc != c.want {
			t.Errorf("a file of %d bytes: plain copies %v, Twice's plain function %v, want %v", len(src), copied, plainFunc, c.want)
		}
	}
}
