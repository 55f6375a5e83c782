//go:build unix

package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// arrange rearranges the module's copy in dir as layout says (see
// entry.Layout) and returns the directory to run in.
func arrange(ctx context.Context, dir, layout string) (string, error) {
	switch layout {
	case "":
		return dir, nil
	case "vendor":
		return dir, goCmd(ctx, dir, "mod", "vendor")
	case "work":
		// The module one level down in a workspace: the go command runs
		// in workspace mode, the module is one of its modules.
		ws := dir + ".ws"
		if err := os.RemoveAll(ws); err != nil {
			return "", err
		}
		if err := os.MkdirAll(ws, 0o755); err != nil {
			return "", err
		}
		mod := filepath.Join(ws, "mod")
		if err := os.Rename(dir, mod); err != nil {
			return "", err
		}
		return mod, goCmd(ctx, ws, "work", "init", "./mod")
	case "nested":
		// A module of its own below the module's root: ./... leaves it
		// out, and so must the instrumenter. It would not build as part
		// of the outer module (it imports a module the outer one does
		// not require), and its test fails if it runs.
		nested := filepath.Join(dir, "nested")
		files := map[string]string{
			"go.mod":    "module example.com/nested\n\ngo 1.21\n",
			"n.go":      "package nested\n\nimport _ \"example.com/elsewhere\"\n",
			"n_test.go": "package nested\n\nimport \"testing\"\n\nfunc TestNested(t *testing.T) { t.Fatal(\"the nested module ran\") }\n",
		}
		if err := os.MkdirAll(nested, 0o755); err != nil {
			return "", err
		}
		for name, text := range files {
			if err := os.WriteFile(filepath.Join(nested, name), []byte(text), 0o644); err != nil {
				return "", err
			}
		}
		return dir, nil
	}
	return "", fmt.Errorf("unknown layout %q", layout)
}

// goCmd runs the go command in dir.
func goCmd(ctx context.Context, dir string, args ...string) error {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go %s: %w: %s", strings.Join(args, " "), err, out)
	}
	return nil
}

// lastLines returns the last n lines of s, joined by " | ".
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}
