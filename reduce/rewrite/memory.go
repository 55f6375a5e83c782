package rewrite

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"sync"
)

// A Memory remembers the edits that were tested alone and did not fail:
// most still do not after other edits shrink the files (an edit that
// changes the message a failing test prints), and delta debugging spends
// about two tests per such edit of a round to find it out again, where
// testing it alone takes one. Reduce leaves these edits out of its passes
// until a pass makes no progress, then tests each alone once more. An
// edit is known by its file, the lines it changes and how, not by
// offsets, which change as the files shrink. The zero value is empty and ready to use; it is safe for
// concurrent use.
type Memory struct {
	mu   sync.Mutex
	seen map[string]bool
}

func (m *Memory) failed(print string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.seen[print]
}

func (m *Memory) fail(print string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.seen == nil {
		m.seen = map[string]bool{}
	}
	m.seen[print] = true
}

// A Fingerprinter Syntax identifies an edit by what it changes, in a way
// that outlasts the other edits of a reduction: Go's leaves the names
// and literals out, which later rounds shorten (see Memory). Edits of
// different texts with the same fingerprint are taken for the same.
type Fingerprinter interface {
	Fingerprint(path string, text []byte, e Edit) string
}

// fingerprint identifies an edit of f by content: the path, and for each
// replacement the lines it touches, where it starts and ends in them,
// and its text.
func fingerprint(f File, e Edit) string {
	if fp, ok := f.Syntax.(Fingerprinter); ok {
		return f.Path + "\x00" + fp.Fingerprint(f.Path, f.Data, e)
	}
	h := sha256.New()
	h.Write([]byte(f.Path))
	for _, r := range e {
		if r.Start < 0 || r.End > len(f.Data) || r.Start > r.End {
			h.Write([]byte("bad"))
			continue
		}
		from := bytes.LastIndexByte(f.Data[:r.Start], '\n') + 1
		to := len(f.Data)
		if n := bytes.IndexByte(f.Data[r.End:], '\n'); n >= 0 {
			to = r.End + n
		}
		fmt.Fprintf(h, "\x00%d %d %d\x00", r.Start-from, r.End-from, len(r.Text))
		h.Write(f.Data[from:to])
		h.Write([]byte(r.Text))
	}
	return string(h.Sum(nil))
}
