//go:build unix && !race

package hazards

import (
	"syscall"
	"testing"
)

func TestUnmapped(t *testing.T) {
	if n := Unmapped(); n != syscall.Getpagesize() {
		t.Errorf("Unmapped() = %d, want the page size %d", n, syscall.Getpagesize())
	}
}
