package rt

import (
	"math"
	"reflect"
	"runtime/debug"
	"unsafe"
)

// Values in stream records, encoded as trace/format.go specifies.

// encode encodes vals (with a count when many) into the scratch buffer,
// writing the type records they need to the stream first; scratch appends
// them after the record's head.
func (w *writer) encode(many bool, vals ...interface{}) {
	vals = hideAll(&vals)
	if w.vals == nil {
		w.vals = new(writer)
	}
	if !w.vals.encodeVals(many, many && !w.shallow, vals) {
		w.vals.unreadable(many, len(vals))
	}
}

// encodeVals encodes vals into v as encode does, deep or not, and
// reports false when reading them panicked. Reading follows what the
// program's own code may never touch: a reflect.Value whose flags a
// package rewrote through unsafe (go-spew's, whose Interface() then gives
// an interface over memory of another shape), a header built by hand. A
// panic there must not reach the program (and it would leave mu held).
// Nor may a fault: memory the program unmapped and no longer reads
// through (ristretto's slices over released mmap buffers) faults at a
// non-nil address, which kills the process unless the goroutine panics
// on faults, as it does while reading (the program's own setting is
// restored after). Its recover stops only a panic of the reading: one
// the program is already unwinding, when an exit is recorded on the way,
// runs this function's deferred call as a normal return, where recover
// gives nil.
func (v *writer) encodeVals(many, deep bool, vals []interface{}) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	if readsMemory(vals, false) {
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	}
	v.buf = v.buf[:0]
	if many {
		v.uv(uint64(len(vals)))
	}
	for _, x := range vals {
		if deep {
			v.deepValue(x)
		} else {
			v.value(x)
		}
	}
	return true
}

// readsMemory reports whether encoding vals (what they point to, when
// at) may read memory outside the interfaces themselves: anything but
// booleans and numbers, whose values an interface holds. Only such reads
// can fault, and only they pay for switching faults to panics.
func readsMemory(vals []interface{}, at bool) bool {
	for _, x := range vals {
		t := reflect.TypeOf(x)
		if t == nil {
			continue
		}
		if at {
			if t.Kind() != reflect.Pointer {
				continue
			}
			t = t.Elem()
		}
		if t.Kind() > reflect.Complex128 {
			return true
		}
	}
	return false
}

// unreadable replaces whatever encodeVals or encodeAt wrote with n values
// not recorded (a blank each), counted when many.
func (v *writer) unreadable(many bool, n int) {
	v.buf = v.buf[:0]
	if many {
		v.uv(uint64(n))
	}
	for i := 0; i < n; i++ {
		v.byte(0)
	}
}

func (w *writer) scratch() { w.buf = append(w.buf, w.vals.buf...) }

// typ returns the ID of t, writing its type record first if it is new.
func typ(t reflect.Type) uint64 {
	if w.types == nil {
		w.types = map[uintptr]uint64{}
	}
	// Keyed by the type descriptor's address (the data word of the
	// reflect.Type interface, a *rtype): a map of interface keys hashes
	// through the interface, several times slower on this hot path.
	key := (*[2]uintptr)(unsafe.Pointer(&t))[1]
	slot := &w.typeCache[(key>>5)%uintptr(len(w.typeCache))]
	if slot[0] == key && slot[1] != 0 {
		return uint64(slot[1])
	}
	id, ok := w.types[key]
	if !ok {
		id = uint64(len(w.types) + 1)
		w.types[key] = id
		w.byte('Y')
		w.uv(id)
		w.str(t.String())
		if t.Kind() == reflect.Struct {
			n := minInt(t.NumField(), maxFields)
			w.byte('F')
			w.uv(id)
			w.uv(uint64(n))
			for i := 0; i < n; i++ {
				w.str(t.Field(i).Name)
			}
		}
	}
	slot[0], slot[1] = key, uintptr(id)
	return id
}

// value encodes v without calling any of its methods, and without its
// parts (deepValue records those).
func (w *writer) value(v interface{}) {
	switch x := v.(type) {
	case nil:
		w.byte(1)
	case blank:
		w.byte(0)
	case bool:
		if x {
			w.byte(3)
		} else {
			w.byte(2)
		}
	case int:
		w.byte(4)
		w.sv(int64(x))
	case int64:
		w.byte(4)
		w.sv(x)
	case uint8:
		w.byte(5)
		w.uv(uint64(x))
	case string:
		w.strValue(x)
	case float64:
		w.float(x)
	default:
		w.reflectValue(reflect.ValueOf(v))
	}
}

func (w *writer) strValue(s string) {
	w.byte(7)
	w.uv(uint64(len(s)))
	if len(s) > 64 {
		s = s[:64]
	}
	w.str(s)
}

func (w *writer) float(f float64) {
	w.byte(6)
	b := math.Float64bits(f)
	for i := 0; i < 8; i++ {
		w.buf = append(w.buf, byte(b>>(8*i)))
	}
}

func (w *writer) reflectValue(v reflect.Value) {
	switch v.Kind() {
	case reflect.Bool:
		if v.Bool() {
			w.byte(3)
		} else {
			w.byte(2)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		w.byte(4)
		w.sv(v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		w.byte(5)
		w.uv(v.Uint())
	case reflect.Float32, reflect.Float64:
		w.float(v.Float())
	case reflect.String:
		w.strValue(v.String())
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Chan, reflect.Func, reflect.UnsafePointer, reflect.Interface:
		if v.IsNil() {
			w.byte(1)
			return
		}
		id := typ(v.Type())
		w.byte(8)
		w.uv(id)
		switch v.Kind() {
		case reflect.Map:
			// A map's length is read from the map, which other goroutines
			// may write: under -race, not read (0).
			if raceMode {
				w.uv(0)
			} else {
				w.uv(uint64(v.Len()))
			}
		case reflect.Slice, reflect.Chan:
			w.uv(uint64(v.Len()))
		default:
			w.uv(0)
		}
	case reflect.Invalid:
		w.byte(0)
	default:
		id := typ(v.Type())
		w.byte(9)
		w.uv(id)
	}
}

// Deep values: function entries, exits and call results (encode with
// many) record the parts of a value the invariants read, within bounds
// that keep a record small and the encoder cheap.
const (
	maxDepth  = 2  // struct fields and elements followed below a value
	maxDerefs = 2  // pointers followed on one path
	maxElems  = 8  // elements kept of a slice or array
	maxFields = 16 // fields kept of a struct
	maxNodes  = 64 // values recorded for one argument, parts included
)

// deepCalls is how many calls of one function (or returns at one call
// site) record values with their parts; later ones record them as reads
// do. culprit mine keeps parts of the first calls only (MaxDeepCalls), and
// parts are what makes a record expensive.
const deepCalls = 1000

// deepSite reports whether the entry, exit or return being recorded at
// site keeps values' parts: within its first deepCalls events.
func deepSite(site uint32) bool {
	if raceMode {
		numMu.Lock()
		defer numMu.Unlock()
	}
	return site >= uint32(len(nums)) || nums[site] <= deepCalls
}

// deepValue encodes v with its parts: the fields of structs, the values
// pointers point to, the first elements of slices and arrays, and the
// message of an error of the standard library.
func (w *writer) deepValue(v interface{}) {
	// A new variable, not v: escape analysis follows variables, and
	// Error and reflection would make v's contents escape.
	x := hide(&v)
	switch x.(type) {
	case nil, blank, bool, int, int64, uint8, string, float64:
		w.value(x)
		return
	}
	if e, ok := x.(error); ok {
		if msg, ok := errorText(e); ok {
			w.byte(14)
			w.uv(uint64(len(msg)))
			if len(msg) > 64 {
				msg = msg[:64]
			}
			w.str(msg)
		}
	}
	budget := maxNodes
	w.deep(reflect.ValueOf(x), 0, 0, false, &budget)
}

// deepAt encodes, as deepValue does, the value p points to: a result or
// parameter of the function whose exit is recorded, passed by address so
// that the exit can be a deferred call with no function literal (a
// literal would renumber the function's own, which tests can see in
// their names). A blank stands for a value not recorded.
func (w *writer) deepAt(p interface{}, shallow bool) {
	p = hide(&p)
	if _, ok := p.(blank); ok {
		w.byte(0)
		return
	}
	v := reflect.ValueOf(p)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		w.byte(0)
		return
	}
	e := v.Elem()
	if e.Kind() == reflect.Interface {
		if e.IsNil() {
			w.byte(1)
			return
		}
		if shallow {
			w.value(e.Interface()) // the interface itself: no allocation
		} else {
			w.deepValue(e.Interface())
		}
		return
	}
	if shallow {
		w.reflectValue(e)
		return
	}
	budget := maxNodes
	w.deep(e, 0, 0, false, &budget)
}

// encodeAt encodes the values ptrs point to, with their count, as encode
// does with many.
func (w *writer) encodeAt(ptrs []interface{}) {
	if w.vals == nil {
		w.vals = new(writer)
	}
	if !w.vals.encodeAtVals(ptrs, w.shallow) {
		w.vals.unreadable(true, len(ptrs))
	}
}

// encodeAtVals is encodeVals for encodeAt.
func (v *writer) encodeAtVals(ptrs []interface{}, shallow bool) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	if readsMemory(ptrs, true) {
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	}
	v.buf = v.buf[:0]
	v.uv(uint64(len(ptrs)))
	for _, p := range ptrs {
		v.deepAt(p, shallow)
	}
	return true
}

// errorText returns e.Error() when e's dynamic type is declared in the
// standard library (never a method of the program's own), recovering
// from a panic in it.
func errorText(e error) (msg string, ok bool) {
	t := reflect.TypeOf(e)
	if t.Kind() == reflect.Pointer {
		if reflect.ValueOf(e).IsNil() {
			return "", false
		}
		t = t.Elem()
	}
	if !stdPkg(t.PkgPath()) {
		return "", false
	}
	defer func() {
		if recover() != nil {
			msg, ok = "", false
		}
	}()
	return e.Error(), true
}

// stdPkg reports whether path has the form of a standard library
// package's (no dot in its first element) and is not of the traced
// module (whose path may have that form too: "m").
func stdPkg(path string) bool {
	if path == "" || path == "main" {
		return false
	}
	first := firstElem(path)
	for i := 0; i < len(first); i++ {
		if first[i] == '.' {
			return false
		}
	}
	return first != firstElem(module)
}

// firstElem returns path up to its first slash.
func firstElem(path string) string {
	for i := 0; i < len(path); i++ {
		if path[i] == '/' {
			return path[:i]
		}
	}
	return path
}

// deep encodes v, following its parts while depth, derefs and the budget
// allow, and as value does past them.
//
// shared tells that v lies in memory the program shares (reached through
// a pointer or a slice), not in the copy the call made: other goroutines
// may write it meanwhile, under locks rt does not take. There rt reads
// numbers, bools and pointers (one machine word each, never torn), and a
// string's first 64 bytes and the first elements of a slice of numbers (a
// torn header can only make those reads overrun, by a bounded amount); an
// interface there, or a slice of anything else, is recorded by its static
// type and nil-ness or length, since its words could be read torn (a type
// word with another value's data). Under -race nothing shared is read at
// all: the detector would report the reads.
func (w *writer) deep(v reflect.Value, depth, derefs int, shared bool, budget *int) {
	*budget--
	if *budget < 0 {
		w.reflectValue(v)
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || derefs >= maxDerefs || raceMode {
			w.reflectValue(v)
			return
		}
		w.byte(10)
		w.uv(typ(v.Type()))
		w.deep(v.Elem(), depth, derefs+1, true, budget)
	case reflect.Interface:
		if v.IsNil() {
			w.byte(1)
			return
		}
		if shared {
			w.reflectValue(v)
			return
		}
		w.deep(v.Elem(), depth, derefs, shared, budget)
	case reflect.Slice, reflect.Array:
		if (v.Kind() == reflect.Slice && (v.IsNil() || raceMode || shared && !wordKind(v.Type().Elem().Kind()))) || depth >= maxDepth {
			w.reflectValue(v)
			return
		}
		n := v.Len()
		if v.Kind() == reflect.Slice {
			w.byte(11)
		} else {
			w.byte(12)
		}
		w.uv(typ(v.Type()))
		w.uv(uint64(n))
		n = minInt(n, maxElems)
		w.uv(uint64(n))
		elemShared := shared || v.Kind() == reflect.Slice
		for i := 0; i < n; i++ {
			w.deep(v.Index(i), depth+1, derefs, elemShared, budget)
		}
	case reflect.Struct:
		if depth >= maxDepth {
			w.reflectValue(v)
			return
		}
		w.byte(13)
		w.uv(typ(v.Type()))
		n := minInt(v.NumField(), maxFields)
		w.uv(uint64(n))
		for i := 0; i < n; i++ {
			w.deep(v.Field(i), depth+1, derefs, shared, budget)
		}
	default:
		w.reflectValue(v)
	}
}

// minInt is min, which rt cannot use: it compiles as a module of go 1.18,
// so that modules declaring go 1.18 can be instrumented.
func minInt(a, b int) int {
	if a < b {
		return a
	}
	return b
}

// wordKind reports whether values of kind k are numbers or bools: one
// machine word or less, nothing to follow.
func wordKind(k reflect.Kind) bool {
	switch k {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64:
		return true
	}
	return false
}
