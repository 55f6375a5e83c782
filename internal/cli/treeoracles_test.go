package cli_test

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// gotypes is a compiler for the scripts: it type-checks the Go file or
// the package directory at path as "go build" would (without building),
// prints each error to stderr and exits 1 when there is one.
func gotypes(path string) {
	files := []string{path}
	if info, err := os.Stat(path); err == nil && info.IsDir() {
		files, _ = filepath.Glob(filepath.Join(path, "*.go"))
		sort.Strings(files)
	}
	fset := token.NewFileSet()
	var parsed []*ast.File
	failed := false
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		parsed = append(parsed, f)
	}
	if len(parsed) == 0 {
		fmt.Fprintln(os.Stderr, "no Go files")
		os.Exit(1)
	}
	// Importing nothing keeps the oracle fast: uses of imported packages
	// are not checked.
	conf := types.Config{Importer: noImports{}, Error: func(err error) {
		fmt.Fprintln(os.Stderr, err)
		failed = true
	}}
	conf.Check(parsed[0].Name.Name, fset, parsed, nil)
	if failed {
		os.Exit(1)
	}
}

// jsonbug is a JSON consumer that panics on an object whose "kind" is
// "bug" and that has a "size" above 100; it exits 1 on invalid JSON.
func jsonbug(s string) {
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		fmt.Fprintln(os.Stderr, "invalid JSON:", err)
		os.Exit(1)
	}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if size, ok := v["size"].(float64); ok && v["kind"] == "bug" && size > 100 {
				panic("bug too large")
			}
			for _, w := range v {
				walk(w)
			}
		case []any:
			for _, w := range v {
				walk(w)
			}
		}
	}
	walk(v)
}

// divzero is a toy Lisp evaluator's crash: it panics when the text holds
// a "(/ X 0)" form, and exits 1 when its parentheses do not balance.
func divzero(s string) {
	depth := 0
	for _, c := range s {
		switch c {
		case '(':
			depth++
		case ')':
			depth--
		}
		if depth < 0 {
			break
		}
	}
	if depth != 0 {
		fmt.Fprintln(os.Stderr, "unbalanced parentheses")
		os.Exit(1)
	}
	for _, f := range strings.Split(s, "(/ ")[1:] {
		if args := strings.Fields(strings.SplitN(f, ")", 2)[0]); len(args) == 2 && args[1] == "0" {
			panic("division by zero")
		}
	}
}

// noImports is an importer that finds no package.
type noImports struct{}

func (noImports) Import(path string) (*types.Package, error) {
	return nil, fmt.Errorf("%s: not available to the test oracle", path)
}
