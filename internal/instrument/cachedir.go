package instrument

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// stableDir writes files to a directory named by their names and
// contents under the user's cache directory (culprit/KIND-HASH), once:
// an existing one is reused, a new one is written aside and renamed into
// place. Without a cache directory it writes them to work/KIND.
func stableDir(work, kind string, files map[string][]byte) (string, error) {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	h := sha256.New()
	for _, n := range names {
		fmt.Fprintf(h, "%s\x00%d\x00", n, len(files[n]))
		h.Write(files[n])
	}
	write := func(dir string) error {
		for _, n := range names {
			if err := writeFile(filepath.Join(dir, n), files[n]); err != nil {
				return err
			}
		}
		return nil
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		dir := filepath.Join(work, kind)
		return dir, write(dir)
	}
	dir := filepath.Join(cache, "culprit", fmt.Sprintf("%s-%x", kind, h.Sum(nil)[:12]))
	if _, err := os.Stat(filepath.Join(dir, names[len(names)-1])); err == nil {
		markUsed(dir, time.Now())
		return dir, nil
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		dir := filepath.Join(work, kind)
		return dir, write(dir)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), "."+kind+"-")
	if err != nil {
		dir := filepath.Join(work, kind)
		return dir, write(dir)
	}
	if err := write(tmp); err != nil {
		os.RemoveAll(tmp)
		return "", err
	}
	if err := os.Rename(tmp, dir); err != nil {
		os.RemoveAll(tmp) // another run put it there first
		if _, serr := os.Stat(dir); serr != nil {
			return "", fmt.Errorf("instrument: %w", err)
		}
	}
	trimCache(filepath.Dir(dir), time.Now())
	return dir, nil
}

// The cache's directories are named by their contents, and each run's
// configuration (its trace directory, the test it samples) is one more:
// unused ones are removed, as the go command trims its build cache. A
// directory a run reuses is marked used (its modification time, at most
// once an hour); one unused for cacheKeep goes at the next trim, and a
// run that writes a new directory trims, at most once per trimEvery.
const (
	cacheKeep = 5 * 24 * time.Hour
	trimEvery = 24 * time.Hour
)

// markUsed sets dir's modification time to now when it is over an hour
// old.
func markUsed(dir string, now time.Time) {
	if fi, err := os.Stat(dir); err == nil && now.Sub(fi.ModTime()) > time.Hour {
		os.Chtimes(dir, now, now) // at worst it is trimmed and written again
	}
}

// trimCache removes the directories stableDir wrote under root (KIND-HASH,
// and .KIND-* left by a run that died writing one) unused for cacheKeep,
// unless root/trim.txt says a trim ran within trimEvery. It changes
// nothing else under root, and a failure leaves the cache as it is.
func trimCache(root string, now time.Time) {
	mark := filepath.Join(root, "trim.txt")
	if fi, err := os.Stat(mark); err == nil && now.Sub(fi.ModTime()) < trimEvery {
		return
	}
	if err := os.WriteFile(mark, []byte(now.UTC().Format(time.RFC3339)+"\n"), 0o644); err != nil {
		return
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		return
	}
	for _, e := range entries {
		name := strings.TrimPrefix(e.Name(), ".")
		if !e.IsDir() || !strings.HasPrefix(name, "rt-") && !strings.HasPrefix(name, "cover-") {
			continue
		}
		if fi, err := e.Info(); err == nil && now.Sub(fi.ModTime()) > cacheKeep {
			os.RemoveAll(filepath.Join(root, e.Name()))
		}
	}
}
