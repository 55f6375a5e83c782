// Command buffer prints a value whose String method writes into a
// bytes.Buffer: the writes into the buffer are intermediate values, the
// one output is the Println that prints the buffer's text.
package main

import (
	"bytes"
	"fmt"
	"os"
)

type point struct{ x, y int }

func (p point) String() string {
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "(%d", p.x)
	fmt.Fprintf(&buf, ", %d)", p.y)
	buf.WriteString("!")
	return buf.String()
}

func main() {
	p := point{3, 4}
	s := p.String()
	fmt.Fprintln(os.Stderr, "point", s)
}
