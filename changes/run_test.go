package changes

import (
	"fmt"
	"testing"
)

// TestFailures: the failing top-level tests and packages of go test's
// output, subtests folded into their test, the bare FAIL line left out.
func TestFailures(t *testing.T) {
	out := `--- FAIL: TestMul (0.00s)
    --- FAIL: TestMul/neg (0.00s)
        calc_test.go:7: Mul(4, -1) = 0, want -4
--- FAIL: TestAdd (0.00s)
FAIL
FAIL	example.com/calc	0.002s
ok  	example.com/calc/other	0.001s
FAIL	example.com/calc/broken [build failed]
`
	tests, pkgs := failures(out)
	if got := fmt.Sprint(tests, pkgs); got != "[TestMul TestAdd] [example.com/calc example.com/calc/broken]" {
		t.Errorf("failures = %s", got)
	}
}
