//go:build !race

package hazards

import (
	"sync/atomic"
	"unsafe"
)

// Forgery is what Forged's result claims to point to.
type Forgery struct{ A, B int }

// Forged returns an interface whose dynamic type is *Forgery and whose
// data word points to no Forgery (address 0x8000, never mapped: Linux
// maps nothing below 64 KiB; and not below 4 KiB, where the runtime
// would take it for a corrupt pointer when it copies the stack that
// holds it, which rt's calls may make it do), as go-spew's
// unsafeReflectValue(v).Interface() can give: the program only asks for
// its type, while reading what it points to faults. It comes out of a
// call into the standard library (atomic.Value's Load), whose result
// culprit records with what it points to: reading it must not panic
// (testify's spew tests hung so, rt's lock held by the panic). Not
// under -race, whose checkptr rejects the forged pointer.
func Forged() interface{} {
	var v atomic.Value
	v.Store(forge())
	return v.Load()
}

// eface is the layout of an interface{}.
type eface struct{ typ, data unsafe.Pointer }

func forge() interface{} {
	var x interface{} = (*Forgery)(nil)
	(*eface)(unsafe.Pointer(&x)).data = unsafe.Add(nil, 0x8000)
	return x
}

// KindOf names the dynamic type of x without reading its value.
func KindOf(x interface{}) string {
	switch x.(type) {
	case *Forgery:
		return "*Forgery"
	}
	return "other"
}
