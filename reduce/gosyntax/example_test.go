package gosyntax_test

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/culprit-go/culprit/reduce"
	"github.com/culprit-go/culprit/reduce/gosyntax"
)

// Reduce shrinks a Go source file while a predicate holds: here, while
// the source still calls panic with "boom". Every candidate parses and is
// gofmt-formatted.
func ExampleReduce() {
	src := `package main

import "fmt"

func main() {
	for i := 0; i < 3; i++ {
		fmt.Println("step", i)
		if i == 2 {
			panic("boom")
		}
	}
}
`
	fails := func(_ context.Context, s string) bool { return strings.Contains(s, `panic("boom")`) }
	out, err := gosyntax.Reduce(context.Background(), src, fails, 1)
	if err != nil {
		fmt.Println(err)
	}
	fmt.Print(out)
	// Output:
	// package main
	//
	// func main() {
	// 	panic("boom")
	// }
}

// compile stands for a tool that fails on some Go programs: it rejects
// any source that both declares a type and has a goroutine.
func compile(src string) error {
	if strings.Contains(src, "type ") && strings.Contains(src, "go ") {
		return errors.New("internal compiler error")
	}
	return nil
}

// Rewrite plugs the Go reducer into reduce.Call: a string argument that
// is Go source is reduced by its syntax tree, then rune by rune.
func ExampleRewrite() {
	src := `package p

type T struct{ A, B int }

func f(t T) int { return t.A + t.B }

func g() {
	go f(T{1, 2})
}
`
	call, err := reduce.NewCall(compile, src)
	if err != nil {
		fmt.Println(err)
		return
	}
	call.Rewrite = gosyntax.Rewrite
	args, err := call.Min(context.Background())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(call.Format(args))
	// Output:
	// compile("type go ")
}
