package deps

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestControlDeps checks the static control dependencies computed from
// post-dominators: each row's want lists "line <- line" pairs (a unit on
// the first line depends on the decision on the second). The function
// opens on line 3, so its body starts on line 4.
func TestControlDeps(t *testing.T) {
	tests := []struct {
		name, reason, body string
		want               []string
	}{
		{"early return", "code after an if that returns depends on its condition (the issue's golden case)", `
	if x < 0 {
		return 0
	}
	y := 2 * x
	return y`, []string{"5 <- 4", "7 <- 4", "8 <- 4"}},
		{"else if", "an else branch depends on the condition that failed before it", `
	if x < 0 {
		x = 1
	} else if x > 5 {
		x = 2
	} else {
		x = 3
	}
	return x`, []string{"5 <- 4", "6 <- 4", "7 <- 6", "9 <- 6"}},
		{"loop", "a loop body depends on the loop condition; the condition not on itself", `
	for x > 0 {
		x--
	}
	return x`, []string{"5 <- 4"}},
		{"switch", "each case body depends on its case test, later tests on the earlier ones failing", `
	switch x {
	case 1:
		x = 2
	case 2, 3:
		x = 4
	default:
		x = 5
	}
	return x`, []string{"10 <- 7", "6 <- 5", "7 <- 5", "8 <- 7"}},
		{"break", "code after a conditional break depends on the break's condition; the loop condition runs again only when it did not break", `
	for x > 0 {
		if x == 3 {
			break
		}
		x--
	}
	return x`, []string{"4 <- 5", "5 <- 4", "6 <- 5", "8 <- 5"}},
		{"panic", "a panic ends the function like a return", `
	if x < 0 {
		panic("negative")
	}
	return x`, []string{"5 <- 4", "7 <- 4"}},
		{"range", "a range body depends on the range header", `
	s := 0
	for _, v := range []int{x} {
		s += v
	}
	return s`, []string{"6 <- 5"}},
	}
	dir := t.TempDir()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_")+".go")
			src := "package p\n\nfunc f(x int) int {" + tc.body + "\n}\n"
			if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			f := newSource().file(path)
			if f == nil || len(f.funcs) != 1 {
				t.Fatalf("parse: %v", f)
			}
			var got []string
			for _, u := range f.funcs[0].units {
				for _, c := range u.ctrl {
					s := fmt.Sprintf("%d <- %d", u.line, f.funcs[0].units[c].line)
					if !contains(got, s) {
						got = append(got, s)
					}
				}
			}
			sort.Strings(got)
			if strings.Join(got, "; ") != strings.Join(tc.want, "; ") {
				t.Errorf("%s\ncontrol dependencies %q, want %q", tc.reason, got, tc.want)
			}
		})
	}
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}
