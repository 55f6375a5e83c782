// Command htmlmarkup prints the text of an HTML file without its tags.
//
// Usage:
//
//	htmlmarkup FILE
//
// It calls htmlmarkup.RemoveHTMLMarkup on the whole file, so a file with
// double-quoted text containing '<' or '>' makes it panic (exit status 2,
// "panic: postcondition violated: ..." on standard error). The examples'
// testdata/crash.html is such a file:
//
//	culprit reduce examples/htmlmarkup/testdata/crash.html -- go run -C examples ./htmlmarkup/cmd/htmlmarkup
package main

import (
	"fmt"
	"os"

	"github.com/culprit-go/culprit/examples/htmlmarkup"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: htmlmarkup FILE")
		os.Exit(2)
	}
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintf(os.Stderr, "htmlmarkup: %v\n", err)
		os.Exit(2)
	}
	fmt.Print(htmlmarkup.RemoveHTMLMarkup(string(data)))
}
