// Command culprit is automated debugging for Go: it reduces failure-inducing
// inputs, ranks suspicious statements, slices dependencies and mines
// invariants. Run "culprit help" for the commands.
//
// For culprit's own developers: with CULPRIT_CPUPROFILE=FILE set, the
// command writes a CPU profile of itself (not of the go commands and
// test binaries it runs) to FILE, for go tool pprof.
package main

import (
	"fmt"
	"os"
	"runtime/pprof"

	"github.com/culprit-go/culprit/internal/cli"
)

func main() {
	if path := os.Getenv("CULPRIT_CPUPROFILE"); path != "" {
		stop, err := profile(path)
		if err != nil {
			fmt.Fprintf(os.Stderr, "culprit: CULPRIT_CPUPROFILE: %v\n", err)
			os.Exit(1)
		}
		code := cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
		stop()
		os.Exit(code)
	}
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// profile starts a CPU profile into path and returns what stops it.
func profile(path string) (func(), error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}
