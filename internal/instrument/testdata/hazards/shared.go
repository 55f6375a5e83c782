package hazards

import (
	"reflect"
	"runtime"
	"sync"
)

// sharedCounter is shared by goroutines that take its lock: recording a call's
// receiver must not read its fields while another goroutine writes them
// under the lock (a race the program does not have).
type sharedCounter struct {
	mu   sync.Mutex
	n    int
	name string
	tags []string
	last interface{}
}

func (c *sharedCounter) add(d int) {
	c.mu.Lock()
	c.n += d
	c.name = c.name[:0] + "n"
	c.tags = append(c.tags[:0], "x", "y")
	c.last = d
	c.mu.Unlock()
}

// SharedWrites adds from four goroutines at once.
func SharedWrites() int {
	c := &sharedCounter{}
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 300; i++ {
				c.add(1)
			}
		}()
	}
	wg.Wait()
	return c.n
}

// LitName returns the name of its own function literal: instrumenting
// must not add literals before it (f.func1 would become f.func2; go-cmp
// tests the names of literals).
func LitName(p *int) string {
	f := func() {}
	return runtime.FuncForPC(reflect.ValueOf(f).Pointer()).Name()
}
