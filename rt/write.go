package rt

import (
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"
)

// mu guards the writer, the goroutine and type tables and test
// registration.
var mu sync.Mutex

var w writer

// writer buffers one events file.
type writer struct {
	buf    []byte
	vals   *writer // scratch for values, so type records go before the call
	f      *os.File
	failed bool
	goids  map[uintptr]uint64
	types  map[uintptr]uint64 // type descriptor address -> type ID
	// The test and goroutine of the latest stream record, so that steps
	// and decisions in the same context take the short form.
	lastT, lastG uint64
	// shallow makes encode record values without parts (deepSite).
	shallow bool
	// Caches in front of the goroutine and type maps: most records come
	// from the goroutine of the record before, and a few types make most
	// values (type descriptor address, type ID; direct-mapped).
	cacheG, cacheGID uintptr
	typeCache        [256][2]uintptr
}

const flushAt = 1 << 20

func (w *writer) byte(b byte) { w.buf = append(w.buf, b) }

func (w *writer) uv(v uint64) {
	for v >= 0x80 {
		w.buf = append(w.buf, byte(v)|0x80)
		v >>= 7
	}
	w.buf = append(w.buf, byte(v))
}

func (w *writer) sv(v int64) { w.uv(uint64(v<<1) ^ uint64(v>>63)) }

func (w *writer) str(s string) {
	w.uv(uint64(len(s)))
	w.buf = append(w.buf, s...)
}

func (w *writer) maybeFlush() {
	if len(w.buf) >= flushAt {
		w.flush()
	}
}

// flush writes the buffer, opening the file with its header first. A
// file that cannot be written is reported once on standard error, the
// events are dropped and the tests go on.
func (w *writer) flush() {
	if traceDir == "" || w.failed {
		w.buf = w.buf[:0]
		return
	}
	if w.f == nil && listing() {
		// go test -list (or a shard's listing run): no test runs, the
		// trace gets no file.
		w.buf = w.buf[:0]
		return
	}
	if w.f == nil {
		name := strings.NewReplacer("/", "_", "\\", "_", ":", "_").Replace(module)
		path := filepath.Join(traceDir, "events-"+name+"-"+strconv.Itoa(os.Getpid()))
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
		if err != nil {
			w.failed = true
			os.Stderr.WriteString("culprit: cannot write trace: " + err.Error() + "\n")
			return
		}
		w.f = f
		var h writer
		h.buf = append(h.buf, "CPEVENTS"...)
		h.uv(4) // trace.Version
		h.str(module)
		h.uv(uint64(os.Getpid()))
		h.uv(uint64(numSites))
		h.sv(startTime)
		w.buf = append(h.buf, w.buf...)
	}
	if _, err := w.f.Write(w.buf); err != nil {
		w.failed = true
		os.Stderr.WriteString("culprit: cannot write trace: " + err.Error() + "\n")
	}
	w.buf = w.buf[:0]
}

var startTime = time.Now().UnixNano()

// listing reports whether the test binary only lists its tests (-test.list).
func listing() bool {
	f := flag.Lookup("test.list")
	return f != nil && f.Value.String() != ""
}

// goroutine returns a small number for the running goroutine.
func (w *writer) goroutine() uint64 {
	g := getg()
	if g == w.cacheG && w.cacheGID != 0 {
		return uint64(w.cacheGID)
	}
	if w.goids == nil {
		w.goids = map[uintptr]uint64{}
	}
	id, ok := w.goids[g]
	if !ok {
		id = uint64(len(w.goids) + 1)
		w.goids[g] = id
	}
	w.cacheG, w.cacheGID = g, uintptr(id)
	return id
}

// panicking reports whether the caller runs deferred by a panic (or in
// a cleanup testing runs while panicking): whether runtime.gopanic is
// among the few frames above it. Program counters already classified are
// cached, so that a test's end costs a short unwind, not a symbolization.
func panicking() bool {
	var pcs [16]uintptr
	n := runtime.Callers(3, pcs[:])
	for _, pc := range pcs[:n] {
		pcMu.Lock()
		c, ok := pcKind[pc]
		pcMu.Unlock()
		if !ok {
			c = 0
			f, _ := runtime.CallersFrames([]uintptr{pc}).Next()
			switch f.Function {
			case "runtime.gopanic":
				c = 1
			case "runtime.Goexit", "testing.tRunner", "runtime.goexit":
				c = 2
			}
			pcMu.Lock()
			pcKind[pc] = c
			pcMu.Unlock()
		}
		switch c {
		case 1:
			return true
		case 2:
			return false
		}
	}
	return false
}

var (
	pcMu   sync.Mutex
	pcKind = map[uintptr]uint8{} // 1: runtime.gopanic, 2: a frame no panic is above
)

var timeoutOnce sync.Once

// startTimeout arranges a snapshot of the trace shortly before the test
// binary's -test.timeout alarm crashes the process. The alarm starts when
// testing.M.Run starts; the first test starts a little later, so the
// margin covers the difference.
func startTimeout() {
	timeoutOnce.Do(func() {
		f := flag.Lookup("test.timeout")
		if f == nil {
			return
		}
		g, ok := f.Value.(flag.Getter)
		if !ok {
			return
		}
		d, _ := g.Get().(time.Duration)
		if d <= 0 {
			return
		}
		margin := d / 50
		if margin < 200*time.Millisecond {
			margin = 200 * time.Millisecond
		}
		if d <= margin {
			return
		}
		time.AfterFunc(d-margin, func() {
			mu.Lock()
			snapshotLocked()
			w.flush()
			mu.Unlock()
		})
	})
}

// Fatal replaces log.Fatal in instrumented code: it writes the trace
// before exiting.
func Fatal(v ...interface{}) {
	log.Output(2, fmt.Sprint(v...))
	Exit(1)
}

// Fatalf replaces log.Fatalf.
func Fatalf(format string, v ...interface{}) {
	log.Output(2, fmt.Sprintf(format, v...))
	Exit(1)
}

// Fatalln replaces log.Fatalln.
func Fatalln(v ...interface{}) {
	log.Output(2, fmt.Sprintln(v...))
	Exit(1)
}
