package hazards

import "unsafe"

// Converted writes v through a pointer converted from unsafe.Pointer,
// as unsafe decoders do: the write must be recorded, where it wrote.
func Converted(v int) int {
	var x int
	p := unsafe.Pointer(&x)
	*(*int)(p) = v
	return x
}
