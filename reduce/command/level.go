package command

import (
	"fmt"
	"strings"
)

// A Span is a half-open byte range [Start, End).
type Span struct{ Start, End int }

// A Level is one granularity of reduction. Split cuts the current text of
// one file into units: spans in increasing order, not overlapping; bytes
// that no span covers become units of their own. A unit is removed or kept
// as a whole, so coarse levels make large, cheap steps and fine levels
// make the result 1-minimal.
//
// Levels that understand a syntax (Go, JSON, brackets) can be added by
// implementing this interface; the driver needs nothing else.
type Level interface {
	Name() string
	Split(path string, text []byte) []Span
}

// The built-in levels, coarse to fine.
var (
	// Files makes each file of a directory input one unit: removing it
	// removes the file. It has no effect on a single-file input.
	Files Level = filesLevel{}
	// Lines makes each line, with its newline, one unit.
	Lines Level = linesLevel{}
	// Tokens makes each run of letters, digits and underscores, each run
	// of white space, and each other byte one unit. Bytes of multi-byte
	// UTF-8 sequences count as letters.
	Tokens Level = tokensLevel{}
	// Bytes makes each byte one unit.
	Bytes Level = bytesLevel{}
)

// levels lists the built-in levels by name, coarse to fine.
var levels = []Level{Files, Lines, Tokens, Bytes}

// DefaultLevels is the default sequence of levels for an input.
func DefaultLevels(dir bool) []Level {
	if dir {
		return []Level{Files, Lines, Tokens, Bytes}
	}
	return []Level{Lines, Tokens, Bytes}
}

// ParseLevels parses a comma-separated list of level names.
func ParseLevels(list string) ([]Level, error) {
	var out []Level
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		var found Level
		for _, l := range levels {
			if l.Name() == name {
				found = l
			}
		}
		if found == nil {
			var names []string
			for _, l := range levels {
				names = append(names, l.Name())
			}
			return nil, fmt.Errorf("unknown level %q (want a list of %s)", name, strings.Join(names, ", "))
		}
		out = append(out, found)
	}
	return out, nil
}

type filesLevel struct{}

func (filesLevel) Name() string { return "files" }

func (filesLevel) Split(_ string, text []byte) []Span {
	if len(text) == 0 {
		return nil
	}
	return []Span{{0, len(text)}}
}

type linesLevel struct{}

func (linesLevel) Name() string { return "lines" }

func (linesLevel) Split(_ string, text []byte) []Span {
	var out []Span
	start := 0
	for i, c := range text {
		if c == '\n' {
			out = append(out, Span{start, i + 1})
			start = i + 1
		}
	}
	if start < len(text) {
		out = append(out, Span{start, len(text)})
	}
	return out
}

type tokensLevel struct{}

func (tokensLevel) Name() string { return "tokens" }

func (tokensLevel) Split(_ string, text []byte) []Span {
	var out []Span
	for i := 0; i < len(text); {
		j := i + 1
		switch class := tokenClass(text[i]); class {
		case word, space:
			for j < len(text) && tokenClass(text[j]) == class {
				j++
			}
		}
		out = append(out, Span{i, j})
		i = j
	}
	return out
}

const (
	word = iota
	space
	punct
)

func tokenClass(c byte) int {
	switch {
	case c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80:
		return word
	case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f':
		return space
	}
	return punct
}

type bytesLevel struct{}

func (bytesLevel) Name() string { return "bytes" }

func (bytesLevel) Split(_ string, text []byte) []Span {
	out := make([]Span, len(text))
	for i := range text {
		out[i] = Span{i, i + 1}
	}
	return out
}

// partition turns a level's spans into consecutive units covering all of
// text: gaps become units, empty, overlapping and out-of-range spans are
// dropped or clipped.
func partition(spans []Span, n int) []Span {
	var out []Span
	pos := 0
	for _, s := range spans {
		s.Start = max(s.Start, pos)
		s.End = min(s.End, n)
		if s.Start >= s.End {
			continue
		}
		if s.Start > pos {
			out = append(out, Span{pos, s.Start})
		}
		out = append(out, s)
		pos = s.End
	}
	if pos < n {
		out = append(out, Span{pos, n})
	}
	return out
}
