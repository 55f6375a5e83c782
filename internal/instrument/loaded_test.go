package instrument

import (
	"testing"

	"golang.org/x/tools/go/packages"
)

// TestLoadedPick reuses an earlier run's packages only when every
// pattern is one of their import paths, in the same directory with the
// same build flags; a package's external tests (a package of its own
// that a fresh load gives with it) come with it.
func TestLoadedPick(t *testing.T) {
	l := &Loaded{dir: "/m", tags: []string{"-tags=x"}, pkgs: []*packages.Package{
		{ID: "m/a", PkgPath: "m/a"}, {ID: "m/a [m/a.test]", PkgPath: "m/a"}, {ID: "m/a.test", PkgPath: "m/a.test"},
		{ID: "m/b", PkgPath: "m/b"}, {ID: "m/b_test [m/b.test]", PkgPath: "m/b_test"},
	}}
	for _, tc := range []struct {
		dir      string
		tags     []string
		patterns []string
		want     int // packages picked; -1: not reused
	}{
		{"/m", []string{"-tags=x"}, []string{"m/a"}, 2},
		{"/m", []string{"-tags=x"}, []string{"m/b"}, 2}, // with its external tests
		{"/m", []string{"-tags=x"}, []string{"./..."}, -1},
		{"/m", []string{"-tags=x"}, []string{"m/c"}, -1},
		{"/m", nil, []string{"m/a"}, -1},
		{"/n", []string{"-tags=x"}, []string{"m/a"}, -1},
	} {
		got, ok := l.pick(tc.dir, tc.tags, tc.patterns)
		n := len(got)
		if !ok {
			n = -1
		}
		if n != tc.want {
			t.Errorf("pick(%s, %v, %v): %d packages, want %d", tc.dir, tc.tags, tc.patterns, n, tc.want)
		}
	}
	if _, ok := (*Loaded)(nil).pick("/m", nil, []string{"m/a"}); ok {
		t.Error("a nil Loaded was reused")
	}
}

// TestHasGcflags finds the user's own -gcflags (NoInline then leaves
// the compiler's flags to them), before any -args only.
func TestHasGcflags(t *testing.T) {
	for _, tc := range []struct {
		flags []string
		want  bool
	}{
		{nil, false},
		{[]string{"-run", "TestX"}, false},
		{[]string{"-gcflags=-N"}, true},
		{[]string{"-gcflags", "-N"}, true},
		{[]string{"--gcflags=all=-l"}, true},
		{[]string{"-args", "-gcflags=-N"}, false},
	} {
		if got := hasGcflags(tc.flags); got != tc.want {
			t.Errorf("hasGcflags(%q) = %v, want %v", tc.flags, got, tc.want)
		}
	}
}

// TestAsmFuncs reads the functions an assembly file defines, with or
// without an ABI suffix, and not other packages' symbols.
func TestAsmFuncs(t *testing.T) {
	src := "#include \"textflag.h\"\n\nTEXT ·Add(SB),NOSPLIT,$0-24\n\tRET\nTEXT ·sum<ABIInternal>(SB),NOSPLIT,$0\n\tRET\nDATA ·table+0(SB)/8, $1\nTEXT runtime·memhash(SB),NOSPLIT,$0\n"
	got := asmFuncs([]byte(src))
	for _, name := range []string{"Add", "sum"} {
		if !got[name] {
			t.Errorf("%s not found in %v", name, got)
		}
	}
	if got["table"] {
		t.Errorf("data symbol taken for a function: %v", got)
	}
}
