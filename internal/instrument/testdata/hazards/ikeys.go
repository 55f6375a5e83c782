package hazards

// Key is the key type of an interface-keyed map (gopher-lua's LValue).
type Key interface{ key() }

// Name is a Key.
type Name string

func (Name) key() {}

// InterfaceKeys reads and writes a map of interface keys with typed
// constants and values of a concrete type, comma-ok included: the
// instrumenter must not pass them as keys to its generic records, where
// type inference would take their type for the key type and fail to
// build (gopher-lua's tbl.dict[LString("key")]).
func InterfaceKeys() (int, bool) {
	m := map[Key]int{}
	m[Name("a")] = 1
	n := Name("b")
	m[n] = 2
	_, found := m[Name("c")]
	v, ok := m[n]
	if !ok {
		return 0, found
	}
	return m[Name("a")] + v, found
}

// Batch holds calls as bbolt's batch does.
type Batch struct{ calls []int }

// Shorten takes call i out of b as bbolt's batch does: one statement
// assigns b.calls[i] and b.calls, and b.calls is shorter after it, so the
// instrumenter cannot read b.calls[i] again after the statement to
// record the write.
func (b *Batch) Shorten(i int) {
	if i < 0 {
		b.Shorten(-i) // recursive: never inlined, so recorded
		return
	}
	b.calls[i], b.calls = b.calls[len(b.calls)-1], b.calls[:len(b.calls)-1]
}
