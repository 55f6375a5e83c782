package jsontree_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/culprit-go/culprit/reduce/jsontree"
	"github.com/culprit-go/culprit/reduce/rewrite"
)

func TestFormat(t *testing.T) {
	tests := []struct {
		reason, in, indent, want string
		newline, bad             bool
	}{
		{reason: "dangling commas go", in: `{,"a":1,,"b":[,2,],}`, want: `{"a":1,"b":[2]}`},
		{reason: "indentation is applied", in: `{"a":[1]}`, indent: "  ", newline: true, want: "{\n  \"a\": [\n    1\n  ]\n}\n"},
		{reason: "commas inside strings stay", in: `[",", "]"]`, want: `[",","]"]`},
		{reason: "escaped quotes", in: `["a\",", 1]`, want: `["a\",",1]`},
		{reason: "a key without value is invalid", in: `{"a"}`, bad: true},
		{reason: "empty is invalid", in: ``, bad: true},
	}
	for _, tt := range tests {
		got, err := jsontree.Format([]byte(tt.in), tt.indent, tt.newline)
		if tt.bad != (err != nil) || err == nil && string(got) != tt.want {
			t.Errorf("%s: Format(%q) = %q, %v; want %q (bad %v)", tt.reason, tt.in, got, err, tt.want, tt.bad)
		}
	}
}

func TestParse(t *testing.T) {
	text := `{"a": [1, {"b": null}], "c": "x"}`
	n, err := jsontree.Parse([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	var walk func(n *jsontree.Node)
	walk = func(n *jsontree.Node) {
		got = append(got, text[n.MemberStart:n.End])
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(n)
	want := []string{text, `"a": [1, {"b": null}]`, `1`, `{"b": null}`, `"b": null`, `"c": "x"`}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("members %q, want %q", got, want)
	}
}

// TestTransformations reduces small documents against oracles that each
// need one kind of edit, and checks the layout of the result.
func TestTransformations(t *testing.T) {
	tests := []struct {
		reason, in, want string
		fails            func(v any) bool
	}{
		{
			reason: "members and elements are deleted",
			in:     "{\n  \"a\": 1,\n  \"b\": [1, 2, 3],\n  \"c\": true\n}\n",
			fails: func(v any) bool {
				m, _ := v.(map[string]any)
				b, _ := m["b"].([]any)
				return len(b) > 0 && b[len(b)-1] == 3.0
			},
			want: "{\n  \"b\": [\n    3\n  ]\n}\n",
		},
		{
			reason: "a nested value is hoisted",
			in:     `{"outer": {"inner": {"x": "needle"}}}`,
			fails:  func(v any) bool { return strings.Contains(fmt.Sprint(v), "needle") },
			want:   `"needle"`,
		},
		{
			reason: "values become simpler",
			in:     "[\n\t{\"id\": 12345, \"name\": \"long name\", \"tags\": [\"a\"]}\n]",
			fails: func(v any) bool {
				a, _ := v.([]any)
				if len(a) != 1 {
					return false
				}
				m, ok := a[0].(map[string]any)
				_, has := m["name"]
				return ok && has
			},
			want: "[\n\t{\n\t\t\"name\": \"\"\n\t}\n]",
		},
	}
	for _, tt := range tests {
		fails := func(_ context.Context, s string) bool {
			var v any
			if err := json.Unmarshal([]byte(s), &v); err != nil {
				t.Errorf("%s: tested invalid JSON %q", tt.reason, s)
				return false
			}
			return tt.fails(v)
		}
		got, err := jsontree.Reduce(context.Background(), tt.in, fails, 2)
		if err != nil || got != tt.want {
			t.Errorf("%s: Reduce = %q, %v; want %q", tt.reason, got, err, tt.want)
		}
	}
}

// randomJSON builds a random document of about n values.
func randomJSON(rng *rand.Rand, n int) any {
	if n <= 1 {
		switch rng.Intn(5) {
		case 0:
			return nil
		case 1:
			return rng.Intn(100)
		case 2:
			return fmt.Sprintf("s%d", rng.Intn(100))
		case 3:
			return rng.Intn(2) == 0
		}
		return []any{}
	}
	k := 1 + rng.Intn(4)
	if rng.Intn(2) == 0 {
		a := make([]any, k)
		for i := range a {
			a[i] = randomJSON(rng, n/k)
		}
		return a
	}
	m := map[string]any{}
	for i := 0; i < k; i++ {
		m[fmt.Sprintf("k%d", rng.Intn(10))] = randomJSON(rng, n/k)
	}
	return m
}

// FuzzReduce reduces random documents against random oracles (the
// document contains some of the original's scalars) and checks that the
// result is valid JSON, still fails, and keeps the layout.
func FuzzReduce(f *testing.F) {
	f.Add(int64(1), 20, true)
	f.Add(int64(2), 60, false)
	f.Fuzz(func(t *testing.T, seed int64, n int, indented bool) {
		rng := rand.New(rand.NewSource(seed))
		doc := randomJSON(rng, min(max(n, 1), 200))
		var data []byte
		if indented {
			data, _ = json.MarshalIndent(doc, "", "  ")
		} else {
			data, _ = json.Marshal(doc)
		}
		// The oracle: two scalars of the original are still there.
		var scalars []string
		for _, tok := range strings.FieldsFunc(string(data), func(r rune) bool { return strings.ContainsRune("{}[],: \n", r) }) {
			if !strings.HasPrefix(tok, `"k`) {
				scalars = append(scalars, tok)
			}
		}
		if len(scalars) < 2 {
			return
		}
		a, b := scalars[rng.Intn(len(scalars))], scalars[rng.Intn(len(scalars))]
		fails := func(_ context.Context, s string) bool {
			if !json.Valid([]byte(s)) {
				t.Fatalf("tested invalid JSON %q", s)
			}
			return strings.Contains(s, a) && strings.Contains(s, b)
		}
		syn := &jsontree.Syntax{}
		out, err := rewrite.String(context.Background(), syn, "f.json", string(data), fails, 1+rng.Intn(2))
		if err != nil {
			t.Fatal(err)
		}
		if !fails(context.Background(), out) {
			t.Fatalf("result %q does not fail", out)
		}
		if indented && strings.Contains(out, "\n") && !strings.Contains(out, "\n  ") && len(out) > 3 {
			t.Fatalf("result %q lost the indentation", out)
		}
		if !indented && strings.Contains(out, "\n") {
			t.Fatalf("result %q is no longer compact", out)
		}
	})
}
