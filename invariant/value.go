package invariant

import (
	"hash/maphash"
	"math"
	"strconv"
	"strings"

	"github.com/culprit-go/culprit/trace"
)

// kind is what a recorded value is, for the properties.
type kind uint8

const (
	kAbsent kind = iota // not recorded, or of a form the trace abbreviates away
	kNum
	kStr
	kBool
	kNil
	kRef   // a non-nil pointer, slice, map, channel or function
	kOther // a struct, array or complex number: its type only
)

// cell is one value as the properties see it.
type cell struct {
	k      kind
	isInt  bool    // kNum: an integer that fits in int64
	i      int64   // kNum with isInt
	f      float64 // kNum: the value (rounded for large integers)
	s      string  // kStr: the recorded prefix
	full   bool    // kStr: s is the whole string; kBool: the value
	n      int     // length of a string, slice, map or channel
	hasLen bool    // n is meaningful
	typ    string  // the dynamic type's name
}

// cellOf converts a recorded value.
func cellOf(v trace.Value) cell {
	switch v.Tag {
	case trace.ValInt:
		return cell{k: kNum, isInt: true, i: v.Int, f: float64(v.Int), typ: "int"}
	case trace.ValUint:
		c := cell{k: kNum, f: float64(v.Uint), typ: "uint"}
		if v.Uint <= math.MaxInt64 {
			c.isInt, c.i = true, int64(v.Uint)
		}
		return c
	case trace.ValFloat:
		c := cell{k: kNum, f: v.Float, typ: "float64"}
		return c
	case trace.ValString:
		return cell{k: kStr, s: v.Str, full: v.Len == len(v.Str), n: v.Len, hasLen: true, typ: "string"}
	case trace.ValTrue:
		return cell{k: kBool, full: true, typ: "bool"}
	case trace.ValFalse:
		return cell{k: kBool, typ: "bool"}
	case trace.ValNil:
		return cell{k: kNil, typ: "nil"}
	case trace.ValRef:
		c := cell{k: kRef, typ: v.Type}
		if strings.HasPrefix(v.Type, "[]") || strings.HasPrefix(v.Type, "map[") || strings.HasPrefix(v.Type, "chan ") || strings.HasPrefix(v.Type, "<-chan ") {
			c.n, c.hasLen = int(v.Uint), true
		}
		return c
	case trace.ValOther:
		return cell{k: kOther, typ: v.Type}
	}
	return cell{}
}

// intCell returns an integer cell.
func intCell(n int64) cell { return cell{k: kNum, isInt: true, i: n, f: float64(n), typ: "int"} }

// nilable reports whether c is nil or a reference.
func (c cell) nilable() bool { return c.k == kNil || c.k == kRef }

// length returns c's length when it has one (nil has length 0).
func (c cell) length() (int, bool) {
	switch {
	case c.hasLen:
		return c.n, true
	case c.k == kNil:
		return 0, true
	}
	return 0, false
}

// key is c as a map key, for counting distinct values.
func (c cell) key() string {
	switch c.k {
	case kNum:
		if c.isInt {
			return "i" + strconv.FormatInt(c.i, 10)
		}
		return "f" + strconv.FormatFloat(c.f, 'g', -1, 64)
	case kStr:
		return "s" + strconv.Itoa(c.n) + ":" + c.s
	case kBool:
		if c.full {
			return "t"
		}
		return "b"
	case kNil:
		return "n"
	case kRef:
		return "r" + c.typ + strconv.Itoa(c.n)
	case kOther:
		return "o" + c.typ
	}
	return "?"
}

// hash is c's key as a number: cells with one key hash alike.
func (c cell) hash(seed maphash.Seed) uint64 {
	h := uint64(c.k+1) * 0x9e3779b97f4a7c15
	switch c.k {
	case kNum:
		if c.isInt {
			return h ^ uint64(c.i)
		}
		return h ^ 0x5555555555555555 ^ math.Float64bits(c.f)
	case kStr:
		return h ^ maphash.String(seed, c.s) ^ uint64(c.n)*0xff51afd7ed558ccd
	case kBool:
		if c.full {
			return h ^ 1
		}
	case kRef:
		return h ^ maphash.String(seed, c.typ) ^ uint64(c.n)*0xff51afd7ed558ccd
	case kOther:
		return h ^ maphash.String(seed, c.typ)
	}
	return h
}

// hasLiteral reports whether literal would render c.
func (c cell) hasLiteral() bool {
	switch c.k {
	case kNum:
		return c.isInt || !math.IsInf(c.f, 0) && !math.IsNaN(c.f)
	case kStr:
		return c.full
	case kBool, kNil:
		return true
	}
	return false
}

// literal renders c as a Go literal, when it has one.
func (c cell) literal() (string, bool) {
	switch c.k {
	case kNum:
		if c.isInt {
			return strconv.FormatInt(c.i, 10), true
		}
		if math.IsInf(c.f, 0) || math.IsNaN(c.f) {
			return "", false
		}
		s := strconv.FormatFloat(c.f, 'g', -1, 64)
		if !strings.ContainsAny(s, ".eE") {
			s += ".0"
		}
		return s, true
	case kStr:
		if !c.full {
			return "", false
		}
		return strconv.Quote(c.s), true
	case kBool:
		return strconv.FormatBool(c.full), true
	case kNil:
		return "nil", true
	}
	return "", false
}

// String renders c for people.
func (c cell) String() string {
	if s, ok := c.literal(); ok {
		return s
	}
	switch c.k {
	case kStr:
		return strconv.Quote(c.s) + "..." + "(" + strconv.Itoa(c.n) + " bytes)"
	case kRef:
		if c.hasLen {
			return c.typ + "(len " + strconv.Itoa(c.n) + ")"
		}
		return c.typ
	case kOther:
		return c.typ + "{...}"
	case kNum:
		return strconv.FormatFloat(c.f, 'g', -1, 64)
	}
	return "?"
}

// relTol is the relative tolerance of equality between floating-point
// values (approx).
const relTol = 1e-9

// numEq compares two numbers: exactly when both are integers, within
// relTol otherwise.
func numEq(a, b cell) bool {
	if a.isInt && b.isInt {
		return a.i == b.i
	}
	return approxEq(a.f, b.f)
}

func approxEq(a, b float64) bool {
	if a == b {
		return true
	}
	return math.Abs(a-b) <= relTol*math.Max(math.Abs(a), math.Abs(b))
}

// numCmp returns -1, 0 or 1 as a < b, a == b (exactly), a > b.
func numCmp(a, b cell) int {
	if a.isInt && b.isInt {
		switch {
		case a.i < b.i:
			return -1
		case a.i > b.i:
			return 1
		}
		return 0
	}
	switch {
	case a.f < b.f:
		return -1
	case a.f > b.f:
		return 1
	}
	return 0
}
