// Package addr writes storage through other variables than the one read
// after: a slice of an array variable (issue 18: a UUID's String filled
// its buffer through a parameter, and the buffer read after depended on
// its declaration alone).
package addr

import "encoding/hex"

// Filled writes buf's element 1 through fill's parameter, a slice of
// buf: the array read after depends on a, not on b.
func Filled(a, b int) string {
	var buf [3]byte
	fill(buf[:], a)
	_ = b
	return string(buf[:])
}

func fill(dst []byte, a int) {
	dst[1] = byte('0' + a)
}

// Encoded fills buf through hex.Encode, code that is not instrumented,
// given a slice of it: buf read after depends on a.
func Encoded(a, b int) string {
	var buf [2]byte
	hex.Encode(buf[:], []byte{byte(a)})
	_ = b
	return string(buf[:])
}
