package calls

import (
	"strings"
	"unsafe"
)

// next is called back by strings.Map.
func next(r rune) rune {
	return r + 1
}

// Mapped: strings.Map calls next back from code that is not
// instrumented; what Map returns may come from what next returned and
// from what Map was given.
func Mapped(s string) int {
	out := strings.Map(next, s)
	return len(out) + int(out[0])
}

// Through writes v through a converted pointer, as an unsafe decoder does.
func Through(v int) int {
	var x int
	p := unsafe.Pointer(&x)
	*(*int)(p) = v
	return x
}
