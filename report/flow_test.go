package report

import (
	"fmt"
	"strings"
	"testing"

	"github.com/culprit-go/culprit/flow"
)

// TestFlowTextLeaves checks how the text format names what an output
// depends on: the versions of one variable folded into one entry from
// foldAt of them, the variables and the constants each bounded to
// maxLeaves with the count of the rest, constants last.
func TestFlowTextLeaves(t *testing.T) {
	many := func(prefix string, n int) []string {
		var out []string
		for i := range n {
			out = append(out, fmt.Sprintf("%s%d", prefix, i))
		}
		return out
	}
	tests := []struct {
		name    string
		depends []string
		consts  int
		want    string
	}{
		{"two versions stay apart", []string{"a@1", "a@2", "b", "0"}, 1, "a@1, a@2, b, 0"},
		{"three fold in the first's place", []string{"a@1", "a@10", "a@2", "b", "c@4"}, 0, "a@1..10 (3 versions), b, c@4"},
		{"not versions", []string{"@1", "x@", "x@01", "x@-1", "y@2"}, 0, "@1, x@, x@01, x@-1, y@2"},
		{"calls' results", []string{"<f() return value>@3", "<f() return value>@7", "<f() return value>@9", `"s"`}, 1, `<f() return value>@3..9 (3 versions), "s"`},
		{"variables bounded", many("v", 30), 0, strings.Join(many("v", 24), ", ") + ", (6 more)"},
		{"constants bounded apart", append([]string{"x"}, many("", 25)...), 25, "x, " + strings.Join(many("", 24), ", ") + ", (1 more)"},
		{"versions folded, then bounded", append(many("s@", 100), "t"), 0, "s@0..99 (100 versions), t"},
		{"elements fold too", []string{"a[0]", "a[1]", "m[\"x\"]", "m[\"y\"]", "m[\"z\"]", "m.f"}, 0, "a[0], a[1], m[…] (3 elements), m.f"},
		{"an element's versions fold as versions", []string{"m[1]@2", "m[1]@3", "m[1]@5", "m[2]@4"}, 0, "m[1]@2..5 (3 versions), m[2]@4"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := &flow.Graph{Outputs: []flow.Output{{Value: "fmt.Println(x)", DependsOn: tc.depends, Consts: tc.consts}}}
			var b strings.Builder
			if err := FlowText(&b, g, SliceInfo{}); err != nil {
				t.Fatal(err)
			}
			want := "fmt.Println(x) <= " + tc.want + "\n"
			if b.String() != want {
				t.Errorf("got  %q\nwant %q", b.String(), want)
			}
		})
	}
}
