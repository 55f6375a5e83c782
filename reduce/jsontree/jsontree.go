// Package jsontree is the rewrite.Syntax of JSON documents.
//
// Level by level from the root, it proposes to delete object members and
// array elements, to hoist a container's first or last child into its
// place, to replace a value by the empty value of its kind ({}, [], "",
// 0, false) and then by null. Every candidate is checked to be valid
// JSON and re-indented in the style of the original document (compact,
// or indented by its first indented line's white space).
package jsontree

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/culprit-go/culprit/reduce/rewrite"
)

// Syntax is the JSON syntax. It remembers the layout of each file it
// sees first, so use one Syntax per reduction. The zero value is ready to
// use.
type Syntax struct {
	mu     sync.Mutex
	styles map[string]style
}

// Name returns "json".
func (*Syntax) Name() string { return "json" }

// style is a document's layout: its indentation unit ("" for compact
// documents) and whether it ends with a newline.
type style struct {
	indent  string
	newline bool
}

func detect(text []byte) style {
	s := style{newline: bytes.HasSuffix(bytes.TrimRight(text, " \t\r"), []byte("\n"))}
	for _, line := range bytes.Split(text, []byte("\n"))[1:] {
		ws := line[:len(line)-len(bytes.TrimLeft(line, " \t"))]
		if len(ws) > 0 && len(bytes.TrimSpace(line)) > 0 {
			s.indent = string(ws)
			break
		}
	}
	return s
}

func (s *Syntax) style(path string, text []byte) style {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.styles == nil {
		s.styles = map[string]style{}
	}
	st, ok := s.styles[path]
	if !ok {
		st = detect(text)
		s.styles[path] = st
	}
	return st
}

// Normalize drops the commas that deleted members left dangling, checks
// that the candidate is valid JSON and lays it out in the original's
// style.
func (s *Syntax) Normalize(path string, old, candidate []byte) ([]byte, error) {
	st := s.style(path, old)
	return Format(candidate, st.indent, st.newline)
}

// ErrInvalid: a candidate is not valid JSON.
var ErrInvalid = errors.New("invalid JSON")

// Format compacts text, dropping leading, trailing and doubled commas in
// arrays and objects, checks that the result is valid JSON and indents it
// by indent (compact when empty), with a final newline if asked.
func Format(text []byte, indent string, newline bool) ([]byte, error) {
	var c []byte
	for i := 0; i < len(text); i++ {
		ch := text[i]
		switch ch {
		case ' ', '\t', '\n', '\r':
			continue
		case '"':
			j := i + 1
			for j < len(text) && text[j] != '"' {
				if text[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(text) {
				return nil, fmt.Errorf("json: unterminated string: %w", ErrInvalid)
			}
			c = append(c, text[i:j+1]...)
			i = j
			continue
		case ',':
			if n := len(c); n == 0 || c[n-1] == '[' || c[n-1] == '{' || c[n-1] == ',' {
				continue
			}
		case ']', '}':
			if n := len(c); n > 0 && c[n-1] == ',' {
				c = c[:n-1]
			}
		}
		c = append(c, ch)
	}
	if !json.Valid(c) {
		return nil, fmt.Errorf("json: %w", ErrInvalid)
	}
	out := c
	if indent != "" {
		var b bytes.Buffer
		if err := json.Indent(&b, c, "", indent); err != nil {
			return nil, fmt.Errorf("json: %w", err)
		}
		out = b.Bytes()
	}
	if newline {
		out = append(out, '\n')
	}
	return out, nil
}

// The alternatives tried at each depth, in order, as separate rounds.
const (
	deleteChildren = iota
	hoistFirst
	hoistLast
	emptyValue
	nullValue
	alts
)

// Edits proposes round's edits: round/5 is the depth (0 for the
// document's value) and round%5 the alternative.
func (s *Syntax) Edits(path string, text []byte, round int) ([]rewrite.Edit, bool) {
	s.style(path, text)
	root, err := Parse(text)
	if err != nil {
		return nil, false
	}
	byDepth := map[int][]*Node{}
	maxDepth := 0
	var walk func(n *Node, d int)
	walk = func(n *Node, d int) {
		byDepth[d] = append(byDepth[d], n)
		maxDepth = max(maxDepth, d)
		for _, c := range n.Children {
			walk(c, d+1)
		}
	}
	walk(root, 0)
	d, alt := round/alts, round%alts
	if d > maxDepth {
		return nil, false
	}
	more := round+1 < alts*(maxDepth+1)
	var edits []rewrite.Edit
	for _, n := range byDepth[d] {
		switch alt {
		case deleteChildren:
			for _, c := range n.Children {
				edits = append(edits, rewrite.Edit{{Start: c.MemberStart, End: c.End}})
			}
		case hoistFirst, hoistLast:
			if len(n.Children) == 0 {
				continue
			}
			c := n.Children[0]
			if alt == hoistLast {
				c = n.Children[len(n.Children)-1]
			}
			edits = append(edits, rewrite.Edit{{Start: n.Start, End: n.End, Text: string(text[c.Start:c.End])}})
		case emptyValue, nullValue:
			repl := "null"
			if alt == emptyValue {
				repl = map[Kind]string{Object: "{}", Array: "[]", String: `""`, Number: "0", Bool: "false", Null: "null"}[n.Kind]
			}
			if string(text[n.Start:n.End]) != repl {
				edits = append(edits, rewrite.Edit{{Start: n.Start, End: n.End, Text: repl}})
			}
		}
	}
	return edits, more
}

// Kind is the kind of a JSON value.
type Kind int

// The kinds of JSON values.
const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

// A Node is a JSON value in a text: its kind, its byte range, where its
// member starts (the key of an object member; Start otherwise) and its
// children (members' values or elements).
type Node struct {
	Kind        Kind
	Start, End  int
	MemberStart int
	Children    []*Node
}

// Parse parses a JSON document into nodes with their byte ranges.
func Parse(text []byte) (*Node, error) {
	if !json.Valid(text) {
		return nil, fmt.Errorf("json: %w", ErrInvalid)
	}
	p := &parser{text: text}
	return p.value(), nil
}

// parser reads a text already known to be valid JSON.
type parser struct {
	text []byte
	pos  int
}

func (p *parser) space() {
	for p.pos < len(p.text) && bytes.IndexByte([]byte(" \t\r\n"), p.text[p.pos]) >= 0 {
		p.pos++
	}
}

func (p *parser) value() *Node {
	p.space()
	n := &Node{Start: p.pos, MemberStart: p.pos}
	switch c := p.text[p.pos]; c {
	case '{', '[':
		n.Kind = Array
		end := byte(']')
		if c == '{' {
			n.Kind, end = Object, '}'
		}
		p.pos++
		for {
			p.space()
			if p.text[p.pos] == end {
				p.pos++
				break
			}
			if p.text[p.pos] == ',' {
				p.pos++
				continue
			}
			memberStart := p.pos
			if n.Kind == Object {
				p.str()
				p.space()
				p.pos++ // ':'
			}
			child := p.value()
			child.MemberStart = memberStart
			n.Children = append(n.Children, child)
		}
	case '"':
		n.Kind = String
		p.str()
	case 't', 'f', 'n':
		n.Kind = Bool
		if c == 'n' {
			n.Kind = Null
		}
		for p.pos < len(p.text) && p.text[p.pos] >= 'a' && p.text[p.pos] <= 'z' {
			p.pos++
		}
	default:
		n.Kind = Number
		for p.pos < len(p.text) && bytes.IndexByte([]byte("+-0123456789.eE"), p.text[p.pos]) >= 0 {
			p.pos++
		}
	}
	n.End = p.pos
	return n
}

func (p *parser) str() {
	p.pos++
	for p.text[p.pos] != '"' {
		if p.text[p.pos] == '\\' {
			p.pos++
		}
		p.pos++
	}
	p.pos++
}
