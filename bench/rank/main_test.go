package main

import (
	"math"
	"testing"

	"github.com/culprit-go/culprit/spectrum"
)

// TestPlace checks the fault's placement among lines, with ties and
// lines no event sits on.
func TestPlace(t *testing.T) {
	p := placement{Best: 2, Worst: 5, Total: 10}
	if p.top(1, 1) != 0 || p.top(3, 1) != 0.5 || p.top(5, 1) != 1 || p.top(3, 0) != 1 || p.top(3, 2) != 0 {
		t.Errorf("top: %v %v %v", p.top(1, 1), p.top(3, 1), p.top(5, 1))
	}
	if p.exam(0) != 0.2 || p.exam(1) != 0.35 || p.exam(2) != 0.5 {
		t.Errorf("exam: %v %v %v", p.exam(0), p.exam(1), p.exam(2))
	}
}

// TestPlaceInfinite checks that an infinite score (DStar) ties only with
// itself.
func TestPlaceInfinite(t *testing.T) {
	if spectrum.Tied(math.Inf(1), 3) || spectrum.Tied(3, math.Inf(1)) || !spectrum.Tied(math.Inf(1), math.Inf(1)) || !spectrum.Tied(0.1+0.2, 0.3) {
		t.Error("near")
	}
}
