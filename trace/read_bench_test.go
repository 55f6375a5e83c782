package trace

import (
	"crypto/sha256"
	"fmt"
	"hash"
	"os"
	"testing"
)

// readTraceDir is the trace directory the benchmark and the digest read,
// named by CULPRIT_READ_TRACE (a real trace, say a module's .culprit).
func readTraceDir(tb testing.TB) *Dir {
	dir := os.Getenv("CULPRIT_READ_TRACE")
	if dir == "" {
		tb.Skip("CULPRIT_READ_TRACE names no trace directory")
	}
	d, err := OpenDir(dir)
	if err != nil {
		tb.Fatal(err)
	}
	return d
}

// eventsSize returns the bytes of d's events files.
func eventsSize(tb testing.TB, d *Dir) int64 {
	var size int64
	for _, name := range d.Events {
		fi, err := os.Stat(name)
		if err != nil {
			tb.Fatal(err)
		}
		size += fi.Size()
	}
	return size
}

// BenchmarkReadDir streams every events file of a real trace, as the
// analyses do (invariant.Load, deps): go test ./trace -run NONE -bench
// ReadDir -benchmem with CULPRIT_READ_TRACE set.
func BenchmarkReadDir(b *testing.B) {
	d := readTraceDir(b)
	b.SetBytes(eventsSize(b, d))
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		for _, name := range d.Events {
			if _, err := d.ReadFile(name, func(e Event) error { n += len(e.Values); return nil }); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkReadModes reads every events file of a real trace in each
// of the reader's modes: in full, shallow (Dir.Shallow, as deps reads)
// and for its tests only (ReadTests): go test ./trace -run NONE -bench
// ReadModes -benchmem with CULPRIT_READ_TRACE set.
func BenchmarkReadModes(b *testing.B) {
	d := readTraceDir(b)
	size := eventsSize(b, d)
	read := map[string]func(name string) error{
		"full": func(name string) error {
			_, err := d.ReadFile(name, func(Event) error { return nil })
			return err
		},
		"shallow": func(name string) error {
			s := *d
			s.Shallow = true
			_, err := s.Stream(name, func(*Event) error { return nil })
			return err
		},
		"tests": func(name string) error {
			_, err := d.ReadTests(name)
			return err
		},
	}
	for _, mode := range []string{"full", "shallow", "tests"} {
		b.Run(mode, func(b *testing.B) {
			b.SetBytes(size)
			b.ReportAllocs()
			for b.Loop() {
				for _, name := range d.Events {
					if err := read[mode](name); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// TestReadDirDigest prints a digest of everything a real trace decodes to
// (every event, streamed, and every process), for comparing readers: go
// test ./trace -run ReadDirDigest -v with CULPRIT_READ_TRACE set.
func TestReadDirDigest(t *testing.T) {
	d := readTraceDir(t)
	h := sha256.New()
	events := 0
	for _, name := range d.Events {
		p, err := d.ReadFile(name, func(e Event) error {
			events++
			digestEvent(h, e)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		tests := p.Tests
		p.Tests = nil
		fmt.Fprintf(h, "process %#v\n", *p)
		for _, x := range tests {
			fmt.Fprintf(h, "test %#v\n", *x)
		}
	}
	t.Logf("%d events files, %d events, sha256 %x", len(d.Events), events, h.Sum(nil))
}

// digestEvent writes e in full to h: %#v, with the values' parts written
// out (not as pointers) and nil slices told from empty ones.
func digestEvent(h hash.Hash, e Event) {
	vs, final, key := e.Values, e.Final, e.Loc.Key
	e.Values, e.Final, e.Loc.Key = nil, nil, Value{}
	fmt.Fprintf(h, "event %#v\n", e)
	digestValues(h, "values", vs)
	digestValues(h, "final", final)
	digestValue(h, key)
}

func digestValues(h hash.Hash, what string, vs []Value) {
	fmt.Fprintf(h, "%s %d %t\n", what, len(vs), vs == nil)
	for _, v := range vs {
		digestValue(h, v)
	}
}

func digestValue(h hash.Hash, v Value) {
	fields, elems, err := v.Fields, v.Elems, v.Err
	v.Fields, v.Elems, v.Err = nil, nil, nil
	fmt.Fprintf(h, "value %#v\n", v)
	fmt.Fprintf(h, "fields %d %t\n", len(fields), fields == nil)
	for _, f := range fields {
		fmt.Fprintf(h, "field %q\n", f.Name)
		digestValue(h, f.Value)
	}
	digestValues(h, "elems", elems)
	if err != nil {
		digestValue(h, *err)
	} else {
		fmt.Fprintf(h, "no error\n")
	}
}
