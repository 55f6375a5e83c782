package rt

import (
	"context"
	"runtime/pprof"
	"unsafe"
)

// Attribution of events to tests rides on profiler labels: when a test
// starts, its goroutine gets a fresh label set, and the Go runtime copies a
// goroutine's label pointer into every goroutine it creates. The pointer
// therefore names the test for the test's goroutine and for everything it
// starts, transitively, at the cost of one load to read it.

// getProfLabel returns the running goroutine's profiler label pointer.
// The runtime keeps this linkname working on purpose (go.dev/issue/67401).
//
//go:linkname getProfLabel runtime/pprof.runtime_getProfLabel
func getProfLabel() unsafe.Pointer

// P is getProfLabel for instrumented code, which calls it directly.
//
//go:linkname P runtime/pprof.runtime_getProfLabel
func P() unsafe.Pointer

// setTestLabel gives the running goroutine a label set of its own naming
// the test, and returns the label pointer goroutines of the test will carry.
func setTestLabel(name string) unsafe.Pointer {
	pprof.SetGoroutineLabels(pprof.WithLabels(context.Background(), pprof.Labels("culprit.test", name)))
	return getProfLabel()
}

// clearLabel removes the running goroutine's labels (after an example,
// which runs on the goroutine that runs the next one).
func clearLabel() {
	pprof.SetGoroutineLabels(context.Background())
}
