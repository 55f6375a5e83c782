package mem

import (
	"fmt"
	"io"
)

// Leak prints a, writes b to w and returns a.
func Leak(w io.Writer, a, b string) string {
	fmt.Println("a:", a)
	fmt.Fprintf(w, "%s\n", b)
	return a + "!"
}
