// Package calls passes pointers, slices and maps to code that is not
// instrumented, which writes through them unseen: what is read after
// depends on the call.
package calls

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"sort"
	"strings"
)

// Sscan scans a number into n.
func Sscan(s string) int {
	var n int
	fmt.Sscan(s, &n)
	return n
}

type config struct {
	Name string
	N    int
}

// Unmarshal decodes JSON into v.
func Unmarshal(data []byte) int {
	var v config
	v.N = 1
	if err := json.Unmarshal(data, &v); err != nil {
		return -1
	}
	n := v.N
	return n
}

// BinaryRead decodes a little-endian number into x.
func BinaryRead(b []byte) uint16 {
	var x uint16
	binary.Read(bytes.NewReader(b), binary.LittleEndian, &x)
	return x
}

// ReadFull reads into a buffer.
func ReadFull(s string) byte {
	buf := make([]byte, 4)
	r := strings.NewReader(s)
	io.ReadFull(r, buf)
	c := buf[1]
	return c
}

// Min sorts the elements it wrote.
func Min(a, b int) int {
	xs := make([]int, 2)
	xs[0] = a
	xs[1] = b
	sort.Ints(xs)
	v := xs[0]
	return v
}

// Reflect sets y through reflection.
func Reflect(x int) int {
	var y int
	reflect.ValueOf(&y).Elem().SetInt(int64(x))
	return y
}

// Delete deletes the entry k.
func Delete(a int, k string) int {
	m := map[string]int{}
	m["a"] = a
	delete(m, k)
	return len(m)
}

// ReadOnly passes a slice to calls that only read it.
func ReadOnly(a, b int) int {
	xs := []int{a}
	s := fmt.Sprint(xs, b)
	_ = strings.ToUpper(s)
	return xs[0]
}

// set writes through its pointer: instrumented, its write is recorded.
func set(p *int, v int) {
	*p = v
}

// Instrumented passes a pointer to an instrumented function.
func Instrumented(a, b int) int {
	x := a
	set(&x, b)
	return x
}
