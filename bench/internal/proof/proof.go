// Package proof holds what culprit's benchmarks on real modules share:
// the modules of the instrumentation proof, their download into a
// writable copy that runs as the main module, and single-statement
// mutations that inject faults into such a copy.
package proof

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Module is one module of the proof.
type Module struct {
	Path     string
	Packages []string // patterns inside the module; nil is ./...
}

// Patterns returns the module's package patterns: Packages, or ./... when
// it names none.
func (m Module) Patterns() []string {
	if m.Packages == nil {
		return []string{"./..."}
	}
	return m.Packages
}

// Modules returns the modules of the instrumentation proof: those issue 1
// names, then ours (assembly-backed code, generics, a flag parser,
// Unicode tables, a diff library, a matcher).
func Modules() []Module {
	return []Module{
		{Path: "github.com/google/uuid"},
		{Path: "github.com/google/go-cmp"},
		{Path: "github.com/BurntSushi/toml"},
		{Path: "gopkg.in/yaml.v3"},
		{Path: "github.com/tidwall/gjson"},
		{Path: "github.com/Masterminds/semver/v3"},
		{Path: "github.com/dustin/go-humanize"},
		{Path: "github.com/google/btree"},
		{Path: "github.com/pkg/errors"},
		{Path: "golang.org/x/text", Packages: []string{"./unicode/norm", "./transform", "./language"}},
		{Path: "github.com/cespare/xxhash/v2"},
		{Path: "github.com/hashicorp/golang-lru/v2"},
		{Path: "github.com/spf13/pflag"},
		{Path: "github.com/mattn/go-runewidth"},
		{Path: "github.com/pmezard/go-difflib"},
		{Path: "github.com/tidwall/match"},
	}
}

// Select returns the modules named in the comma-separated list paths, as
// Modules gives them when they are of the proof, all of it when paths is
// empty.
func Select(paths string) []Module {
	all := Modules()
	if paths == "" {
		return all
	}
	var out []Module
	for _, p := range strings.Split(paths, ",") {
		m := Module{Path: p}
		for _, x := range all {
			if x.Path == p {
				m = x
			}
		}
		out = append(out, m)
	}
	return out
}

// Download fetches mod@latest through the module proxy and copies its
// source into a writable directory of its own below work, returned with
// the version: the overlay cannot replace files in the module cache and a
// mutation must not touch it, so the copy runs as the main module. work
// gets a go.mod of its own when it has none (go mod download needs one).
func Download(ctx context.Context, work, mod string) (dir, version string, err error) {
	return DownloadAt(ctx, work, mod, "latest")
}

// DownloadAt is Download of mod at version (a version or a query such
// as "latest").
func DownloadAt(ctx context.Context, work, mod, version string) (dir, got string, err error) {
	if _, err := os.Stat(filepath.Join(work, "go.mod")); err != nil {
		if err := os.WriteFile(filepath.Join(work, "go.mod"), []byte("module proof\n\ngo 1.21\n"), 0o644); err != nil {
			return "", "", fmt.Errorf("download %s: %w", mod, err)
		}
	}
	cmd := exec.CommandContext(ctx, "go", "mod", "download", "-json", mod+"@"+version)
	cmd.Dir = work
	out, err := cmd.Output()
	if err != nil {
		return "", "", fmt.Errorf("download %s: %w: %s", mod, err, out)
	}
	var info struct{ Dir, Version, Error string }
	if err := json.Unmarshal(out, &info); err != nil {
		return "", "", fmt.Errorf("download %s: %w", mod, err)
	}
	if info.Error != "" {
		return "", "", fmt.Errorf("download %s: %s", mod, info.Error)
	}
	dir = filepath.Join(work, strings.NewReplacer("/", "_", "@", "_").Replace(mod+"@"+info.Version))
	if err := os.RemoveAll(dir); err != nil {
		return "", "", fmt.Errorf("download %s: %w", mod, err)
	}
	if err := copyTree(info.Dir, dir); err != nil {
		return "", "", fmt.Errorf("copy %s: %w", mod, err)
	}
	if err := oldGoLine(dir, mod); err != nil {
		return "", "", fmt.Errorf("download %s: %w", mod, err)
	}
	// Its dependencies, and go.sum entries for them: a module published
	// without go.sum (gopkg.in/yaml.v3) needs go mod tidy to test at all.
	args := []string{"mod", "download"}
	if _, err := os.Stat(filepath.Join(dir, "go.sum")); err != nil {
		args = []string{"mod", "tidy"}
	}
	tidy := exec.CommandContext(ctx, "go", args...)
	tidy.Dir = dir
	if out, err := tidy.CombinedOutput(); err != nil {
		return "", "", fmt.Errorf("%s: go %s: %w: %s", mod, strings.Join(args, " "), err, out)
	}
	return dir, info.Version, nil
}

// oldGoLine gives the module in dir the go line the go command assumes
// for it: a module without go.mod (old, pre-modules) gets one, and a
// go.mod without a go directive (the proxy's synthesized one) gets
// "go 1.16", which is what the go command takes a missing directive to
// mean. Otherwise go mod tidy would write the running toolchain's
// version, and that changes the module's language (go vet's checks,
// loop variables).
func oldGoLine(dir, mod string) error {
	path := filepath.Join(dir, "go.mod")
	data, err := os.ReadFile(path)
	if err != nil {
		return os.WriteFile(path, []byte("module "+mod+"\n\ngo 1.16\n"), 0o644)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) > 0 && f[0] == "go" {
			return nil
		}
	}
	return os.WriteFile(path, append(data, "\ngo 1.16\n"...), 0o644)
}

// copyTree copies the files below from to to, writable (the module cache
// is read-only).
func copyTree(from, to string) error {
	return filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(from, path)
		if err != nil {
			return err
		}
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
}

// DirSize returns the bytes of the files below dir (0 when it cannot be
// read).
func DirSize(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}
