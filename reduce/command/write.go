package command

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// writeFile replaces the file at dst with data atomically: it writes a
// temporary file in the same directory and renames it over dst, so that
// dst always holds either the old or the new content.
func writeFile(dst string, data []byte, mode fs.FileMode) error {
	if info, err := os.Stat(dst); err == nil && info.IsDir() {
		return fmt.Errorf("write %s: is a directory", dst)
	}
	tmp, err := os.CreateTemp(filepath.Dir(dst), "."+filepath.Base(dst)+".tmp*")
	if err != nil {
		return fmt.Errorf("write %s: %w", dst, err)
	}
	name := tmp.Name()
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Chmod(mode)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(name, dst)
	}
	if err != nil {
		os.Remove(name)
		return fmt.Errorf("write %s: %w", dst, err)
	}
	return nil
}

// writeTree replaces the directory at dst with the given files atomically:
// it builds a sibling temporary directory and swaps it with dst (with one
// atomic exchange where the system has one).
func writeTree(dst string, files []File) error {
	info, err := os.Stat(dst)
	exists := err == nil
	if exists && !info.IsDir() {
		return fmt.Errorf("write %s: exists and is not a directory", dst)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dst), "."+filepath.Base(dst)+".tmp*")
	if err != nil {
		return fmt.Errorf("write %s: %w", dst, err)
	}
	if err := fill(tmp, files); err != nil {
		os.RemoveAll(tmp)
		return fmt.Errorf("write %s: %w", dst, err)
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		os.RemoveAll(tmp)
		return fmt.Errorf("write %s: %w", dst, err)
	}
	if !exists {
		if err := os.Rename(tmp, dst); err != nil {
			os.RemoveAll(tmp)
			return fmt.Errorf("write %s: %w", dst, err)
		}
		return nil
	}
	err = exchange(tmp, dst)
	if errors.Is(err, errors.ErrUnsupported) {
		// Two renames: dst is briefly missing, but its old content
		// stays on disk under the temporary name until the swap ends.
		old := tmp + ".old"
		if err = os.Rename(dst, old); err == nil {
			if err = os.Rename(tmp, dst); err != nil {
				os.Rename(old, dst)
			} else {
				tmp = old
			}
		}
	}
	os.RemoveAll(tmp) // after a swap, tmp holds the old tree
	if err != nil {
		return fmt.Errorf("write %s: %w", dst, err)
	}
	return nil
}

// fill writes files under dir.
func fill(dir string, files []File) error {
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, f.Data, f.Mode|0o200); err != nil {
			return err
		}
		if err := os.Chmod(p, f.Mode); err != nil {
			return err
		}
	}
	return nil
}
