// Package elems copies slices and structs: what is read of the copy
// depends on the element or field read, not on the whole (issue 18).
package elems

// Append copies xs into a new array with append and adds c: ys[0] read
// after is xs[0], from a, not b nor c.
func Append(a, b, c int) int {
	xs := make([]int, 2)
	xs[0] = a
	xs[1] = b
	ys := append(xs, c)
	return ys[0]
}

// Appended returns the element append added: c, not a nor b.
func Appended(a, b, c int) int {
	xs := make([]int, 2)
	xs[0] = a
	xs[1] = b
	ys := append(xs, c)
	return ys[2]
}

type pair struct{ x, y int }

// Struct copies p into q: q.x read after is p.x, from a, not b.
func Struct(a, b int) int {
	var p pair
	p.x = a
	p.y = b
	q := p
	return q.x
}
