package report

import (
	"bytes"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"github.com/culprit-go/culprit/invariant"
)

// TestContractsGoAggregates checks that -format go output with the
// aggregate patterns (sum, sorted, all) is Go that type-checks: the
// helpers it calls are defined.
func TestContractsGoAggregates(t *testing.T) {
	c := &invariant.Contracts{Functions: []*invariant.Spec{{
		Name:    "example.com/p.Total",
		Params:  []string{"xs"},
		Results: []string{"result"},
		Pre:     []string{"all(xs) > 0", "sorted(xs)"},
		Post:    []string{"result == sum(xs)", "result >= old(len(xs))"},
		Types:   map[string]map[string]int{"xs": {"[]int": 3}, "result": {"int": 3}},
	}}}
	var buf bytes.Buffer
	if err := ContractsGo(&buf, c, "p"); err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "checks.go", buf.Bytes(), 0)
	if err != nil {
		t.Fatalf("generated Go does not parse: %v\n%s", err, buf.Bytes())
	}
	conf := types.Config{Importer: importer.Default()}
	if _, err := conf.Check("p", fset, []*ast.File{f}, nil); err != nil {
		t.Fatalf("generated Go does not type-check: %v\n%s", err, buf.Bytes())
	}
}
