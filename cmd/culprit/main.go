// Command culprit is automated debugging for Go: it reduces failure-inducing
// inputs, ranks suspicious statements, slices dependencies and mines
// invariants. Run "culprit help" for the commands.
package main

import (
	"os"

	"github.com/culprit-go/culprit/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
