package crash

import (
	"os"
	"time"
)

// Boom panics.
func Boom() {
	x := 1
	_ = x
	panic("boom")
}

// Quit exits.
func Quit() {
	y := 2
	_ = y
	os.Exit(3)
}

// Hang sleeps.
func Hang() {
	z := 3
	_ = z
	time.Sleep(time.Hour)
}

// GoBoom panics in a goroutine.
func GoBoom() {
	done := make(chan bool)
	go func() {
		w := 4
		_ = w
		panic("go boom")
	}()
	<-done
}

// Deep recurses until the stack overflows.
func Deep(n int) int {
	return Deep(n+1) + 1
}
