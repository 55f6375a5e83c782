//go:build !amd64 && !arm64

package rt

import "runtime"

// getg returns the running goroutine's ID, parsed from its stack header
// ("goroutine 18 [running]:"): slow, used where no assembly is provided.
func getg() uintptr {
	var buf [32]byte
	n := runtime.Stack(buf[:], false)
	var id uintptr
	for _, c := range buf[len("goroutine "):n] {
		if c < '0' || c > '9' {
			break
		}
		id = id*10 + uintptr(c-'0')
	}
	return id
}

// panicWord is not available: exitPanicking always unwinds.
func panicWord() uintptr { return 1 }

const havePanicWord = false
