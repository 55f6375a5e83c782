//go:build amd64 || arm64

package rt

// getg returns the address of the running goroutine's runtime descriptor:
// unique among live goroutines, reused after one exits.
func getg() uintptr
