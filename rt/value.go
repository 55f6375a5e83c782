package rt

import (
	"math"
	"reflect"
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
	v := w.vals
	v.buf = v.buf[:0]
	if many {
		v.uv(uint64(len(vals)))
	}
	for _, x := range vals {
		v.value(x)
	}
}

func (w *writer) scratch() { w.buf = append(w.buf, w.vals.buf...) }

// typ returns the ID of t, writing its type record first if it is new.
func typ(t reflect.Type) uint64 {
	if w.types == nil {
		w.types = map[reflect.Type]uint64{}
	}
	id, ok := w.types[t]
	if !ok {
		id = uint64(len(w.types) + 1)
		w.types[t] = id
		w.byte('Y')
		w.uv(id)
		w.str(t.String())
	}
	return id
}

// value encodes v without calling interface{} of its methods.
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
		case reflect.Map, reflect.Slice, reflect.Chan:
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
