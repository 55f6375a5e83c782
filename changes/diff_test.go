package changes

import (
	"strings"
	"testing"
)

// TestApplyAndDiff: every subset of a change's units applies, the
// whole change gives the bad side, none the good side, and the diff of
// the whole change reads as git's.
func TestApplyAndDiff(t *testing.T) {
	c := newChange([]fileSides{
		{path: "calc.go", good: calcV1, bad: calcBig, goodExists: true, badExists: true},
		{path: "new.go", bad: "package calc\n\nvar X = 1", badExists: true},
		{path: "old.txt", good: "a\nb\n", goodExists: true},
	})
	all := c.Apply(c.All())
	if all["calc.go"].Data != calcBig || all["new.go"].Data != "package calc\n\nvar X = 1" || all["old.txt"].Exists {
		t.Errorf("the whole change does not give the bad side: %+v", all)
	}
	none := c.Apply(nil)
	if none["calc.go"].Data != calcV1 || none["new.go"].Exists || !none["old.txt"].Exists {
		t.Errorf("no change does not give the good side: %+v", none)
	}
	for _, level := range Levels {
		var n int
		for _, u := range c.Units(level, c.All()) {
			n += len(u)
		}
		if n != len(c.atoms) {
			t.Errorf("%s: the units hold %d atoms, want %d", level, n, len(c.atoms))
		}
	}
	d := c.Diff(c.All())
	for _, want := range []string{
		"diff --git a/new.go b/new.go\nnew file mode 100644\n--- /dev/null\n+++ b/new.go\n@@ -0,0 +1,3 @@\n",
		"+var X = 1\n\\ No newline at end of file\n",
		"diff --git a/old.txt b/old.txt\ndeleted file mode 100644\n--- a/old.txt\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-a\n-b\n",
		"-\tif x < 0 {\n+\tif x < -1 {\n",
	} {
		if !strings.Contains(d, want) {
			t.Errorf("diff lacks %q:\n%s", want, d)
		}
	}
}

// TestDeclUnits: a changed declaration is one unit at the first level,
// even when its lines moved or its doc comment changed.
func TestDeclUnits(t *testing.T) {
	c := newChange([]fileSides{{path: "calc.go", good: calcV1, bad: calcBig, goodExists: true, badExists: true}})
	units := c.Units(Decls, c.All())
	lines := func(u []int) string {
		var b strings.Builder
		for _, a := range u {
			at := c.atoms[a]
			f := c.Files[at.file]
			o := f.ops[at.op]
			if o.Kind == '-' {
				b.WriteString("-" + f.Good[o.A])
			} else {
				b.WriteString("+" + f.Bad[o.B])
			}
		}
		return b.String()
	}
	var sub string
	for _, u := range units {
		if s := lines(u); strings.Contains(s, "func Sub") {
			sub = s
		}
		if s := lines(u); strings.Contains(s, "sum := a + b") && !strings.Contains(s, "-func Add") {
			t.Errorf("Add's new body and its old one are in different units:\n%s", s)
		}
	}
	if sub != "+\n+// Sub subtracts.\n+func Sub(a, b int) int { return a - b }\n" {
		t.Errorf("Sub's unit is %q", sub)
	}
}
