package par

import (
	"testing"
	"time"
)

func TestPar(t *testing.T) {
	Setup()
	t.Run("a", func(t *testing.T) {
		t.Parallel()
		time.Sleep(20 * time.Millisecond)
		A()
	})
	t.Run("b", func(t *testing.T) {
		t.Parallel()
		done := make(chan int)
		go func() { done <- B() }()
		if <-done != 3 {
			t.Error("B is not 3")
		}
	})
	t.Run("c", func(t *testing.T) {
		t.Parallel()
		time.Sleep(10 * time.Millisecond)
		C()
	})
}

func TestSkip(t *testing.T) {
	Skipped()
	t.Skip("left out")
}
