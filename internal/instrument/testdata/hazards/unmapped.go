//go:build unix && !race

package hazards

import (
	"sync/atomic"
	"syscall"
)

// Unmapped returns a slice over a page it has unmapped, as
// ristretto's z package keeps slices over mmap-backed buffers it has
// released: the program never reads through it again, only its length.
// It comes out of a call into the standard library, whose result culprit
// records with what it points to: reading the page faults at a non-nil
// address, which must not kill the program (ristretto's tests died of
// "unexpected fault address" in rt). Not under -race, whose shadow
// memory of the page is gone too.
func Unmapped() int {
	page := syscall.Getpagesize()
	b, err := syscall.Mmap(-1, 0, page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return -1
	}
	b[0] = 1
	if err := syscall.Munmap(b); err != nil {
		return -1
	}
	var v atomic.Value
	v.Store(b)
	return len(v.Load().([]byte))
}
