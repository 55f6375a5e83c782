package proof

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"text/tabwriter"
)

// WorkDir returns the absolute work directory of a benchmark: work,
// created, or a new temporary directory named with prefix that cleanup
// removes.
func WorkDir(work, prefix string) (dir string, cleanup func(), err error) {
	cleanup = func() {}
	if work == "" {
		d, err := os.MkdirTemp("", prefix)
		if err != nil {
			return "", nil, err
		}
		work, cleanup = d, func() { os.RemoveAll(d) }
	} else if err := os.MkdirAll(work, 0o755); err != nil {
		return "", nil, err
	}
	dir, err = filepath.Abs(work)
	if err != nil {
		cleanup()
		return "", nil, err
	}
	return dir, cleanup, nil
}

// Culprit returns the culprit binary a benchmark runs: bin made
// absolute, or, when bin is "", one built from this checkout into work.
func Culprit(work, bin string) (string, error) {
	if bin != "" {
		return filepath.Abs(bin)
	}
	bin = filepath.Join(work, "culprit")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/culprit-go/culprit/cmd/culprit").CombinedOutput(); err != nil {
		return "", fmt.Errorf("build culprit: %w: %s", err, out)
	}
	return bin, nil
}

// WriteTable prints rows, the first being the header, as a Markdown
// table or aligned columns.
func WriteTable(w io.Writer, rows [][]string, markdown bool) {
	if markdown {
		for i, row := range rows {
			fmt.Fprintf(w, "| %s |\n", strings.Join(row, " | "))
			if i == 0 {
				fmt.Fprintf(w, "|%s\n", strings.Repeat("---|", len(row)))
			}
		}
		return
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, row := range rows {
		fmt.Fprintln(tw, strings.Join(row, "\t"))
	}
	tw.Flush()
}
