package mem

// Shadow returns the outer x; the inner x shadows it in the block.
func Shadow(a, b int) int {
	x := a
	if b > 0 {
		x := b
		_ = x
	}
	return x
}

// Elems writes two elements and returns one of them.
func Elems(a, b int) int {
	xs := make([]int, 4)
	xs[2] = a
	i := 3
	xs[i] = b
	v := xs[i]
	return v
}

// Alias writes an element through another slice header.
func Alias(a, b int) int {
	xs := make([]int, 4)
	ys := xs
	xs[1] = a
	ys[1] = b
	v := xs[1]
	return v
}

type person struct{ name, city string }

// Field writes two fields through a pointer and reads one.
func Field(a, b string) string {
	p := &person{}
	q := p
	q.name = a
	p.city = b
	v := p.name
	return v
}

// Pointer writes a variable through a pointer.
func Pointer(a, b int) int {
	x := a
	p := &x
	*p = b
	return x
}

// Map writes two keys and reads one.
func Map(a, b int) int {
	m := map[string]int{}
	m["k"] = a
	m["j"] = b
	v := m["k"]
	return v
}

// Switch picks by a constant case.
func Switch(k, a, b int) int {
	y := 0
	switch k {
	case 1:
		y = a
	case 2:
		y = b
	}
	return y
}

var calls int

// Sum adds xs up and counts its calls, which no test checks.
func Sum(xs []int) int {
	calls++
	sum := 0
	for _, x := range xs {
		sum += x
	}
	return sum
}

// First returns 1 + the x of the first iteration: only that one matters.
func First(a int) int {
	x := 0
	first := 0
	for i := 0; i < 2; i++ {
		y := x + 1
		if i == 0 {
			first = y
		}
		x = a
	}
	return first
}
