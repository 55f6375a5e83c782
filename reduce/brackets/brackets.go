// Package brackets is a language-agnostic rewrite.Syntax for any text
// with brackets or indentation: source code in most languages,
// configuration files, s-expressions, logs.
//
// It proposes, outermost first, to delete a balanced (...), [...] or
// {...} region, to keep only its contents, or to empty it; and then to
// delete an indented block with its header line, or only its body. Every
// candidate is accepted as is: the text has no grammar to check.
package brackets

import (
	"bytes"

	"github.com/culprit-go/culprit/reduce/rewrite"
)

// Syntax is the bracket and indentation syntax. The zero value is ready
// to use.
type Syntax struct{}

// Name returns "brackets".
func (Syntax) Name() string { return "brackets" }

// Normalize accepts every candidate as it is.
func (Syntax) Normalize(_ string, _, candidate []byte) ([]byte, error) { return candidate, nil }

// The alternatives for one region, tried as separate rounds.
const (
	deleteRegion  = iota // (x) -> nothing
	keepContents         // (x) -> x
	emptyContents        // (x) -> ()
	regionAlts
)

// The alternatives for an indented block.
const (
	deleteBlock = iota // header and body
	deleteBody         // the body only
	blockAlts
)

// Edits proposes round's edits: rounds 0 to 3*D-1 work on the bracket
// pairs at nesting depth round/3, the next 2*I rounds on the indented
// blocks at nesting depth (round-3*D)/2.
func (Syntax) Edits(_ string, text []byte, round int) ([]rewrite.Edit, bool) {
	pairs := Pairs(text)
	depth := 0
	for _, p := range pairs {
		depth = max(depth, p.Depth+1)
	}
	if round < regionAlts*depth {
		d, alt := round/regionAlts, round%regionAlts
		var edits []rewrite.Edit
		for _, p := range pairs {
			if p.Depth != d {
				continue
			}
			switch alt {
			case deleteRegion:
				edits = append(edits, rewrite.Edit{{Start: p.Open, End: p.Close + 1}})
			case keepContents:
				edits = append(edits, rewrite.Edit{{Start: p.Open, End: p.Open + 1}, {Start: p.Close, End: p.Close + 1}})
			case emptyContents:
				if p.Close > p.Open+1 {
					edits = append(edits, rewrite.Edit{{Start: p.Open + 1, End: p.Close}})
				}
			}
		}
		return edits, true
	}
	round -= regionAlts * depth
	blocks := Blocks(text)
	bdepth := 0
	for _, b := range blocks {
		bdepth = max(bdepth, b.Depth+1)
	}
	if round >= blockAlts*bdepth {
		return nil, false
	}
	d, alt := round/blockAlts, round%blockAlts
	var edits []rewrite.Edit
	for _, b := range blocks {
		if b.Depth != d {
			continue
		}
		switch alt {
		case deleteBlock:
			edits = append(edits, rewrite.Edit{{Start: b.Start, End: b.End}})
		case deleteBody:
			edits = append(edits, rewrite.Edit{{Start: b.Body, End: b.End}})
		}
	}
	return edits, round+1 < blockAlts*bdepth
}

// A Pair is a matched pair of brackets: the offsets of the opening and
// the closing byte, and how many pairs enclose it.
type Pair struct {
	Open, Close, Depth int
}

// Pairs finds the matched (), [] and {} pairs of text, in order of their
// opening bracket. A closing bracket that does not match the innermost
// open one is ignored, as are opening brackets never closed.
func Pairs(text []byte) []Pair {
	var out []Pair
	var stack []int // indices into out of the open pairs
	for i, c := range text {
		switch c {
		case '(', '[', '{':
			stack = append(stack, len(out))
			out = append(out, Pair{Open: i, Close: -1, Depth: len(stack) - 1})
		case ')', ']', '}':
			if n := len(stack); n > 0 && text[out[stack[n-1]].Open] == opener(c) {
				out[stack[n-1]].Close = i
				stack = stack[:n-1]
			}
		}
	}
	closed := out[:0]
	for _, p := range out {
		if p.Close >= 0 {
			closed = append(closed, p)
		}
	}
	// Unclosed pairs were dropped: recompute depths among closed ones.
	var open []Pair
	for i := range closed {
		for len(open) > 0 && open[len(open)-1].Close < closed[i].Open {
			open = open[:len(open)-1]
		}
		closed[i].Depth = len(open)
		open = append(open, closed[i])
	}
	return closed
}

func opener(c byte) byte {
	switch c {
	case ')':
		return '('
	case ']':
		return '['
	}
	return '{'
}

// A Block is a line followed by more deeply indented lines: Start is the
// offset of the header line, Body that of the first body line, End the
// end of the last body line (with its newline). Depth counts the blocks
// that enclose it.
type Block struct {
	Start, Body, End, Depth int
}

// Blocks finds the indented blocks of text. Blank lines inside a block
// belong to it; trailing blank lines do not.
func Blocks(text []byte) []Block {
	type line struct {
		start, end, indent int
		blank              bool
	}
	var lines []line
	for start := 0; start < len(text); {
		end := bytes.IndexByte(text[start:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += start + 1
		}
		l := line{start: start, end: end}
		i := start
		for i < end && (text[i] == ' ' || text[i] == '\t') {
			i++
		}
		l.indent = i - start
		l.blank = len(bytes.TrimSpace(text[i:end])) == 0
		lines = append(lines, l)
		start = end
	}
	var out []Block
	var open []int // indices into out
	for i, l := range lines {
		if l.blank {
			continue
		}
		last := i // the last nonblank body line
		for j := i + 1; j < len(lines); j++ {
			if lines[j].blank {
				continue
			}
			if lines[j].indent <= l.indent {
				break
			}
			last = j
		}
		if last == i {
			continue
		}
		b := Block{Start: l.start, Body: lines[i+1].start, End: lines[last].end}
		for len(open) > 0 && out[open[len(open)-1]].End <= b.Start {
			open = open[:len(open)-1]
		}
		b.Depth = len(open)
		open = append(open, len(out))
		out = append(out, b)
	}
	return out
}
