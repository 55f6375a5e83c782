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

// Copy returns the first element copied from a: the builtin copy writes
// dst from src.
func Copy(a int) int {
	src := []int{a, 2}
	dst := make([]int, 2)
	copy(dst, src)
	return dst[0]
}

// Spawn receives a from a goroutine started with a named function.
func Spawn(a int) int {
	ch := make(chan int)
	go send(ch, a)
	v := <-ch
	return v
}

func send(ch chan int, v int) { ch <- v }
