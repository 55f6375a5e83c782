package calc

import (
	"fmt"
	"strconv"
)

// Eval returns the value of the integer expression expr, which may use
// decimal numbers, + - * /, unary minus, parentheses and spaces. Division
// truncates toward zero. Eval returns an error if expr is malformed.
//
// Eval panics when it divides by zero; see the package documentation.
func Eval(expr string) (int, error) {
	p := &parser{in: expr}
	v, err := p.expr()
	if err != nil {
		return 0, err
	}
	p.space()
	if p.pos < len(p.in) {
		return 0, fmt.Errorf("eval %q: unexpected %q at offset %d", expr, p.in[p.pos], p.pos)
	}
	return v, nil
}

// A parser is a recursive-descent parser over in, reading at pos.
type parser struct {
	in  string
	pos int
}

// space skips blanks.
func (p *parser) space() {
	for p.pos < len(p.in) && p.in[p.pos] == ' ' {
		p.pos++
	}
}

// peek returns the next non-blank byte, or 0 at the end of the input.
func (p *parser) peek() byte {
	p.space()
	if p.pos < len(p.in) {
		return p.in[p.pos]
	}
	return 0
}

// expr parses a sum of terms.
func (p *parser) expr() (int, error) {
	v, err := p.term()
	if err != nil {
		return 0, err
	}
	for op := p.peek(); op == '+' || op == '-'; op = p.peek() {
		p.pos++
		w, err := p.term()
		if err != nil {
			return 0, err
		}
		if op == '+' {
			v += w
		} else {
			v -= w
		}
	}
	return v, nil
}

// term parses a product of factors.
func (p *parser) term() (int, error) {
	v, err := p.factor()
	if err != nil {
		return 0, err
	}
	for op := p.peek(); op == '*' || op == '/'; op = p.peek() {
		p.pos++
		w, err := p.factor()
		if err != nil {
			return 0, err
		}
		if op == '*' {
			v *= w
		} else {
			v /= w // the defect: w may be zero
		}
	}
	return v, nil
}

// factor parses a number, a negated factor or a parenthesized expression.
func (p *parser) factor() (int, error) {
	switch c := p.peek(); {
	case c == '-':
		p.pos++
		v, err := p.factor()
		return -v, err
	case c == '(':
		p.pos++
		v, err := p.expr()
		if err != nil {
			return 0, err
		}
		if p.peek() != ')' {
			return 0, fmt.Errorf("eval %q: missing ')' at offset %d", p.in, p.pos)
		}
		p.pos++
		return v, nil
	case '0' <= c && c <= '9':
		start := p.pos
		for p.pos < len(p.in) && '0' <= p.in[p.pos] && p.in[p.pos] <= '9' {
			p.pos++
		}
		v, err := strconv.Atoi(p.in[start:p.pos])
		if err != nil {
			return 0, fmt.Errorf("eval %q: %w", p.in, err)
		}
		return v, nil
	case c == 0:
		return 0, fmt.Errorf("eval %q: unexpected end of input", p.in)
	default:
		return 0, fmt.Errorf("eval %q: unexpected %q at offset %d", p.in, c, p.pos)
	}
}
