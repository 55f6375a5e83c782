//go:build amd64 || arm64

package rt

import "unsafe"

// getg returns the address of the running goroutine's runtime descriptor:
// unique among live goroutines, reused after one exits.
func getg() uintptr

// gptr is getg as a pointer, to read the descriptor.
func gptr() unsafe.Pointer

// panicOff is where the runtime's goroutine descriptor keeps its panic
// in progress (g._panic, after the stack bounds and the two stack guards:
// stable for many releases); calibratePanic checks it.
const panicOff = 4 * unsafe.Sizeof(uintptr(0))

// panicWord returns the running goroutine's panic word, when calibrated.
func panicWord() uintptr { return *(*uintptr)(unsafe.Add(gptr(), panicOff)) }

const havePanicWord = true
