package mem

type cell struct{ n int }

// Guarded reports whether p holds more than k: p.n is read, and above
// called, only when p is not nil.
func Guarded(p *cell, k int) bool {
	ok := p != nil && above(p.n, k)
	return ok
}

func above(n, k int) bool {
	return n > k
}

// Nested reports whether a holds, or b and c do: c is evaluated only when
// a does not hold and b does.
func Nested(a, b, c int) bool {
	if a > 0 || (b > 0 && c > 0) {
		return true
	}
	return false
}
