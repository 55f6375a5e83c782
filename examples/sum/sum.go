package sum

import (
	"cmp"
	"fmt"
	"io"
)

// Sum2 returns a + b.
func Sum2(a, b int) int {
	return a + b
}

// Sum3 returns a + b + c: the sum of three numbers, or the concatenation of
// three strings.
func Sum3[T cmp.Ordered](a, b, c T) T {
	return a + b + c
}

// PrintSum writes a + b and a newline to w.
func PrintSum(w io.Writer, a, b int) {
	fmt.Fprintln(w, a+b)
}
