package crash

import (
	"fmt"
	"os"
	"runtime/debug"
	"testing"
)

func TestOK(t *testing.T) {}

// TestEarlyParallel waits, paused, for the sequential tests: a panic in
// one of them stops it before it ran (TestResume).
func TestEarlyParallel(t *testing.T) { t.Parallel() }

func TestPanic(t *testing.T) { Boom() }

func TestExit(t *testing.T) { Quit() }

func TestHang(t *testing.T) { Hang() }

func TestFatal(t *testing.T) { t.Fatal("fatal") }

func TestGoPanic(t *testing.T) { GoBoom() }

// TestOverflow stops the binary with a fatal error, which no recover
// sees and no deferred call follows.
func TestOverflow(t *testing.T) {
	debug.SetMaxStack(1 << 20)
	Deep(0)
}

func TestPanicSub(t *testing.T) {
	t.Run("ok", func(t *testing.T) {})
	t.Run("boom", func(t *testing.T) { Boom() })
	t.Run("never", func(t *testing.T) {})
}

func TestZAfter(t *testing.T) {}

// TestWhere prints the test binary's path: go test builds it under
// GOTMPDIR (TestGoTmpDir).
func TestWhere(t *testing.T) { fmt.Println("binary:", os.Args[0]) }
