package command

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// entries lists a directory's names, to spot leftover temporary files.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, de := range des {
		names = append(names, de.Name())
	}
	return names
}

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	dst := filepath.Join(dir, "in.txt.reduced")
	for _, data := range []string{"first", "second, longer", ""} {
		if err := writeFile(dst, []byte(data), 0o640); err != nil {
			t.Fatal(err)
		}
		if got := readFile(t, dst); got != data {
			t.Errorf("content %q, want %q", got, data)
		}
		if names := entries(t, dir); len(names) != 1 {
			t.Errorf("leftovers: %q", names)
		}
	}
	info, _ := os.Stat(dst)
	if info.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want 0640", info.Mode().Perm())
	}
	if err := writeFile(dir, []byte("x"), 0o644); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("writeFile over a directory = %v", err)
	}
}

func TestWriteTree(t *testing.T) {
	parent := t.TempDir()
	dst := filepath.Join(parent, "proj.reduced")
	trees := [][]File{
		{{Path: "a.txt", Data: []byte("a"), Mode: 0o644}, {Path: "b/c.txt", Data: []byte("c"), Mode: 0o755}},
		{{Path: "b/c.txt", Data: []byte("C"), Mode: 0o644}},
		nil,
	}
	for _, files := range trees {
		if err := writeTree(dst, files); err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, f := range files {
			want = append(want, f.Path+"="+string(f.Data))
		}
		if got := treeString(t, dst); got != strings.Join(want, ",") {
			t.Errorf("tree %q, want %q", got, want)
		}
		if names := entries(t, parent); len(names) != 1 {
			t.Errorf("leftovers: %q", names)
		}
	}
	file := filepath.Join(parent, "file")
	os.WriteFile(file, []byte("keep me"), 0o644)
	if err := writeTree(file, nil); err == nil {
		t.Error("writeTree replaced a file")
	}
	if got := readFile(t, file); got != "keep me" {
		t.Errorf("the file became %q", got)
	}
}
