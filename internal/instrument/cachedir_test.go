package instrument

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestTrimCache checks that a trim removes the cache's directories
// unused for cacheKeep, and only them, at most once per trimEvery, and
// that stableDir marks a directory it reuses as used.
func TestTrimCache(t *testing.T) {
	root := t.TempDir()
	now := time.Now()
	old := now.Add(-cacheKeep - time.Hour)
	dirs := map[string]time.Time{
		"rt-old": old, "cover-old": old, ".rt-crashed": old, // trimmed
		"rt-new": now, "elsewhere": old, // kept: in use, not culprit's
	}
	for name, at := range dirs {
		if err := os.Mkdir(filepath.Join(root, name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(filepath.Join(root, name), at, at); err != nil {
			t.Fatal(err)
		}
	}
	trimCache(root, now)
	for name := range dirs {
		_, err := os.Stat(filepath.Join(root, name))
		gone := os.IsNotExist(err)
		if want := name != "rt-new" && name != "elsewhere"; gone != want {
			t.Errorf("%s removed: %v, want %v", name, gone, want)
		}
	}
	// Within trimEvery of that trim, another removes nothing.
	stale := filepath.Join(root, "rt-stale")
	if err := os.Mkdir(stale, 0o755); err != nil {
		t.Fatal(err)
	}
	os.Chtimes(stale, old, old)
	trimCache(root, now.Add(time.Hour))
	if _, err := os.Stat(stale); err != nil {
		t.Errorf("a second trim within %s removed %s", trimEvery, stale)
	}
	trimCache(root, now.Add(trimEvery+time.Hour))
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("a trim after %s kept %s", trimEvery, stale)
	}
}

// TestStableDirMarksUse checks that reusing a cached directory makes it
// recent, so that a trim keeps what runs use.
func TestStableDirMarksUse(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	files := map[string][]byte{"a.txt": []byte("a")}
	dir, err := stableDir(t.TempDir(), "rt", files)
	if err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-cacheKeep - time.Hour)
	os.Chtimes(dir, old, old)
	again, err := stableDir(t.TempDir(), "rt", files)
	if err != nil || again != dir {
		t.Fatalf("stableDir again = %s, %v; want %s", again, err, dir)
	}
	fi, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if time.Since(fi.ModTime()) > time.Hour {
		t.Errorf("a reused directory keeps its old time %s", fi.ModTime())
	}
}
