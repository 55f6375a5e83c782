package proof

import (
	"bytes"
	"testing"
)

func TestWriteTable(t *testing.T) {
	rows := [][]string{{"module", "ratio"}, {"a", "1.5"}}
	for _, tt := range []struct {
		markdown bool
		want     string
	}{
		{true, "| module | ratio |\n|---|---|\n| a | 1.5 |\n"},
		{false, "module  ratio\na       1.5\n"},
	} {
		var b bytes.Buffer
		WriteTable(&b, rows, tt.markdown)
		if b.String() != tt.want {
			t.Errorf("markdown %v:\n%q\nwant\n%q", tt.markdown, b.String(), tt.want)
		}
	}
}
