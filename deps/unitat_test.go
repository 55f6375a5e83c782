package deps

import (
	"go/token"
	"path/filepath"
	"testing"
)

// TestUnitAt checks unitAt, which searches back from the units that
// start at a position, against a scan of every unit, at every byte of
// some of this package's own files (real code, with closures, switches
// and statements nested deep).
func TestUnitAt(t *testing.T) {
	scan := func(f *file, pos token.Pos) *unit {
		var best *unit
		for _, u := range f.units {
			if u.pos > pos {
				break
			}
			if u.kind != UnitJoin && pos < u.end && (best == nil || u.end-u.pos <= best.end-best.pos) {
				best = u
			}
		}
		return best
	}
	src := newSource()
	for _, name := range []string{"engine.go", "calls.go", "versions.go", "cfg.go"} {
		path, _ := filepath.Abs(name)
		f := src.file(path)
		if f == nil || len(f.units) == 0 {
			t.Fatalf("%s: no units", name)
		}
		tf := f.sf.Token()
		base, size := tf.Base(), tf.Size()
		for off := 0; off <= size; off++ {
			pos := token.Pos(base + off)
			if got, want := f.unitAt(pos), scan(f, pos); got != want {
				t.Fatalf("%s: offset %d: unitAt is the unit at %d-%d, want %v", name, off, got.pos, got.end, want)
			}
		}
	}
}
