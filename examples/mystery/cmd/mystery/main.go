// Command mystery runs mystery.Mystery on the contents of a file.
//
// Usage:
//
//	mystery FILE
//
// When Mystery rejects the contents, the command dies with Go's usual
// panic report, "panic: Invalid input" and a stack trace on standard error,
// and exit status 2. testdata/crash.txt holds the seed's failing input:
//
//	culprit reduce examples/mystery/testdata/crash.txt -- go run -C examples ./mystery/cmd/mystery
package main

import (
	"fmt"
	"os"

	"github.com/culprit-go/culprit/examples/mystery"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: mystery FILE")
		os.Exit(2)
	}
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintf(os.Stderr, "mystery: %v\n", err)
		os.Exit(2)
	}
	mystery.Mystery(string(data))
}
