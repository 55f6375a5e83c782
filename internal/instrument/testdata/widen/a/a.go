package a

import "example.com/widen/b"

// Quad quadruples.
func Quad(x int) int { return b.Double(b.Double(x)) }
