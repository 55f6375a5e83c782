package mutate

import (
	"errors"
	"strings"
)

// Point is a position.
type Point struct{ X, Y int }

// Moved returns p moved by d.
func (p Point) Moved(d int) Point { return Point{p.X + d, p.Y + d} }

// Trimmed drops what TrimSpace and Moved returned, and the points
// Parse read.
func Trimmed(s string, p Point) (string, Point) {
	strings.TrimSpace(s)
	p.Moved(1)
	q := Point{}
	_, err := Parse(s)
	if err != nil {
		_, err = Parse("0,0")
	}
	return s, q
}

// Parse reads a point "x,y" (by the lengths of x and y).
func Parse(s string) (Point, error) {
	x, y, ok := strings.Cut(s, ",")
	if !ok {
		return Point{}, errors.New("no comma")
	}
	return Point{len(x), len(y)}, nil
}
