package gosyntax

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"go/scanner"
	"go/token"
	"io"

	"github.com/culprit-go/culprit/reduce/rewrite"
)

// SameTokens reports whether two Go texts differ in layout only: the
// same tokens, comments included, in the same order (rewrite.Layout).
// A candidate that deletes a blank line is no progress: the result is
// compacted at the end anyway (Compact).
func (*Syntax) SameTokens(_ string, a, b []byte) bool {
	ta, oka := tokens(a)
	tb, okb := tokens(b)
	if !oka || !okb || len(ta) != len(tb) {
		return false
	}
	for i := range ta {
		if ta[i] != tb[i] {
			return false
		}
	}
	return true
}

type tok struct {
	tok token.Token
	lit string
}

// tokens scans text; false when it has a scanning error.
func tokens(text []byte) ([]tok, bool) {
	var s scanner.Scanner
	fset := token.NewFileSet()
	ok := true
	s.Init(fset.AddFile("", -1, len(text)), text, func(token.Position, string) { ok = false }, scanner.ScanComments)
	var out []tok
	for {
		_, t, lit := s.Scan()
		if t == token.EOF {
			return out, ok
		}
		if t == token.SEMICOLON {
			lit = "" // inserted at a newline or written: the same
		}
		out = append(out, tok{t, lit})
	}
}

// Compact deletes the blank lines of a Go text outside raw strings and
// comments (rewrite.Compacter); the caller formats the result again. It
// returns text itself when it does not scan.
func (*Syntax) Compact(_ string, text []byte) []byte {
	var s scanner.Scanner
	fset := token.NewFileSet()
	file := fset.AddFile("", -1, len(text))
	ok := true
	s.Init(file, text, func(token.Position, string) { ok = false }, scanner.ScanComments)
	// The lines inside a token that spans several: kept as they are.
	inside := map[int]bool{}
	for {
		pos, t, lit := s.Scan()
		if t == token.EOF {
			break
		}
		if n := bytes.Count([]byte(lit), []byte("\n")); n > 0 && t != token.SEMICOLON {
			first := file.Line(pos)
			for l := first + 1; l <= first+n; l++ {
				inside[l] = true
			}
		}
	}
	if !ok {
		return text
	}
	var out []byte
	line := 1
	for len(text) > 0 {
		end := bytes.IndexByte(text, '\n') + 1
		if end == 0 {
			end = len(text)
		}
		if inside[line] || len(bytes.TrimSpace(text[:end])) > 0 {
			out = append(out, text[:end]...)
		}
		text = text[end:]
		line++
	}
	return out
}

// Fingerprint identifies an edit by its tokens and those of the rest of
// the lines it touches, with every name, string and number the same
// (rewrite.Fingerprinter): renaming and shortening literals elsewhere in
// the file leave it the same.
func (*Syntax) Fingerprint(_ string, text []byte, e rewrite.Edit) string {
	h := sha256.New()
	for _, r := range e {
		if r.Start < 0 || r.End > len(text) || r.Start > r.End {
			h.Write([]byte("bad"))
			continue
		}
		from := bytes.LastIndexByte(text[:r.Start], '\n') + 1
		to := len(text)
		if n := bytes.IndexByte(text[r.End:], '\n'); n >= 0 {
			to = r.End + n
		}
		for _, part := range [][]byte{text[from:r.Start], text[r.Start:r.End], []byte(r.Text), text[r.End:to]} {
			shape(h, part)
			h.Write([]byte{0})
		}
	}
	return string(h.Sum(nil))
}

// shape writes the kinds of the tokens of a piece of Go text: names and
// literals are their kind alone.
func shape(w io.Writer, text []byte) {
	var s scanner.Scanner
	fset := token.NewFileSet()
	s.Init(fset.AddFile("", -1, len(text)), text, func(token.Position, string) {}, scanner.ScanComments)
	for {
		_, t, _ := s.Scan()
		if t == token.EOF {
			return
		}
		fmt.Fprintf(w, "%d ", t)
	}
}
