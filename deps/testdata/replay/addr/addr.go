// Package addr writes storage through other variables than the one read
// after: a slice of an array variable (issue 18: a UUID's String filled
// its buffer through a parameter, and the buffer read after depended on
// its declaration alone).
package addr

import (
	"encoding/hex"
	"reflect"
)

// Filled writes buf's element 1 through fill's parameter, a slice of
// buf: the array read after depends on a, not on b.
func Filled(a, b int) string {
	var buf [3]byte
	fill(buf[:], a)
	_ = b
	return string(buf[:])
}

func fill(dst []byte, a int) {
	dst[1] = byte('0' + a)
}

// Encoded fills buf through hex.Encode, code that is not instrumented,
// given a slice of it: buf read after depends on a.
func Encoded(a, b int) string {
	var buf [2]byte
	hex.Encode(buf[:], []byte{byte(a)})
	_ = b
	return string(buf[:])
}

type rec struct{ N []int }

// Decoded fills r through reflect in decode and fillAll, given &r: r
// read after as a whole depends on what they wrote, and on fillAll's
// loop condition, which ran no iteration for n = 0 (a wrong condition
// there leaves r's elements unset).
func Decoded(n int) bool {
	var r rec
	decode(&r, n)
	return reflect.DeepEqual(r, rec{N: []int{}})
}

func decode(v any, n int) {
	rv := reflect.ValueOf(v).Elem().Field(0)
	rv.Set(reflect.MakeSlice(rv.Type(), n, n))
	fillAll(rv, n)
}

func fillAll(rv reflect.Value, n int) {
	for i := 0; i < n; i++ {
		rv.Index(i).SetInt(7)
	}
}

// Marked writes marks[b] after marks[2]: for b = 1, the element read
// after, marks[2], keeps its older definition, and depends on the write
// to marks[1] made since (had b been 2, the read would have seen it),
// so on b.
func Marked(a, b int) int {
	marks := make([]int, 3)
	marks[2] = a
	marks[b] = 9
	return marks[2]
}
