// Command writer writes through io.Writer parameters: to standard
// output, and to a buffer that is not output.
package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
)

func report(w io.Writer, x int) {
	fmt.Fprintln(w, x)
}

func emit(w io.Writer, s string) error {
	io.WriteString(w, s)
	w.Write([]byte(s))
	if _, err := fmt.Fprintf(w, "%s!\n", s); err != nil {
		return err
	}
	return nil
}

func main() {
	report(os.Stdout, 5)
	emit(os.Stdout, "hi")
	var buf bytes.Buffer
	w := io.Writer(&buf)
	w.Write([]byte("unseen"))
}
