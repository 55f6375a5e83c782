package rewrite_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/culprit-go/culprit/reduce"
	"github.com/culprit-go/culprit/reduce/rewrite"
)

func TestApply(t *testing.T) {
	tests := []struct {
		reason string
		edits  []rewrite.Edit
		want   string
		err    error
	}{
		{"nothing", nil, "f(a, b, c)", nil},
		{"one deletion", []rewrite.Edit{{{Start: 2, End: 5}}}, "f(b, c)", nil},
		{"overlapping deletions merge", []rewrite.Edit{{{Start: 5, End: 8}}, {{Start: 3, End: 9}}}, "f(a)", nil},
		{"a replacement inside a deletion disappears", []rewrite.Edit{{{Start: 2, End: 9}}, {{Start: 5, End: 6, Text: "x"}}}, "f()", nil},
		{"replacements and deletions in one edit", []rewrite.Edit{{{Start: 0, End: 1, Text: "g"}, {Start: 2, End: 5}}}, "g(b, c)", nil},
		{"insertion", []rewrite.Edit{{{Start: 2, End: 2, Text: "z, "}}}, "f(z, a, b, c)", nil},
		{"crossing replacements", []rewrite.Edit{{{Start: 2, End: 6, Text: "x"}}, {{Start: 5, End: 8, Text: "y"}}}, "", rewrite.ErrOverlap},
	}
	for _, tt := range tests {
		got, err := rewrite.Apply([]byte("f(a, b, c)"), tt.edits)
		if !errors.Is(err, tt.err) || err == nil && string(got) != tt.want {
			t.Errorf("%s: Apply = %q, %v; want %q, %v", tt.reason, got, err, tt.want, tt.err)
		}
	}
	if _, err := rewrite.Apply([]byte("ab"), []rewrite.Edit{{{Start: 1, End: 5}}}); err == nil {
		t.Error("Apply out of range: no error")
	}
}

// words is a toy syntax: each round proposes to delete one word per edit,
// then (round 1) to replace each word by "x"; candidates with an empty
// text do not parse.
type words struct{}

func (words) Name() string { return "words" }

func (words) Edits(_ string, text []byte, round int) ([]rewrite.Edit, bool) {
	var out []rewrite.Edit
	start := -1
	for i := 0; i <= len(text); i++ {
		if i < len(text) && text[i] != ' ' {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			switch round {
			case 0:
				end := min(i+1, len(text))
				out = append(out, rewrite.Edit{{Start: start, End: end}})
			case 1:
				out = append(out, rewrite.Edit{{Start: start, End: i, Text: "x"}})
			}
			start = -1
		}
	}
	return out, round < 1
}

func (words) Normalize(_ string, _, c []byte) ([]byte, error) {
	s := strings.Join(strings.Fields(string(c)), " ")
	if s == "" {
		return nil, errors.New("empty")
	}
	return []byte(s), nil
}

func TestReduce(t *testing.T) {
	in := "alpha beta gamma delta epsilon"
	for _, c := range []struct {
		workers int
		dd      bool
	}{{1, false}, {3, false}, {1, true}, {3, true}} {
		workers := c.workers
		test := func(_ context.Context, files []rewrite.File) reduce.Outcome {
			if f := strings.Fields(string(files[0].Data)); len(f) >= 2 && strings.Contains(string(files[0].Data), "gamma") {
				return reduce.Fail
			}
			return reduce.Pass
		}
		var improved []string
		cfg := rewrite.Config{Workers: workers, DD: c.dd, OnImprove: func(fs []rewrite.File) { improved = append(improved, string(fs[0].Data)) }}
		out, st, err := rewrite.Reduce(context.Background(), []rewrite.File{{Path: "w", Data: []byte(in), Syntax: words{}}}, test, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if got := string(out[0].Data); got != "x gamma" && got != "gamma x" {
			t.Errorf("workers %d, dd %v: Reduce = %q, want two words with gamma", workers, c.dd, got)
		}
		if st.Tests == 0 || st.Rounds == 0 || len(improved) == 0 {
			t.Errorf("workers %d: stats %+v, %d improvements", workers, st, len(improved))
		}
	}
}

// keyedWords is words whose second round (a word becomes x) is of a
// later stage.
type keyedWords struct{ words }

func (keyedWords) Keys(string, []byte) []rewrite.Key { return []rewrite.Key{{0, 0}, {1, 0}} }

// TestReduceKeyed: the rounds of several files with the same key run as
// one round over the edits of all of them, and a later stage's rounds
// wait until the earlier stages make no more progress.
func TestReduceKeyed(t *testing.T) {
	test := func(_ context.Context, files []rewrite.File) reduce.Outcome {
		for _, f := range files {
			if !strings.Contains(string(f.Data), "gamma") {
				return reduce.Pass
			}
		}
		return reduce.Fail
	}
	var rounds []string
	cfg := rewrite.Config{OnRound: func(_, path string, round int) { rounds = append(rounds, fmt.Sprintf("%d %q", round, path)) }}
	files := []rewrite.File{
		{Path: "a", Data: []byte("alpha beta gamma"), Syntax: keyedWords{}},
		{Path: "b", Data: []byte("delta gamma epsilon"), Syntax: keyedWords{}},
	}
	out, _, err := rewrite.Reduce(context.Background(), files, test, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if string(out[0].Data) != "gamma" || string(out[1].Data) != "gamma" {
		t.Errorf("Reduce = %q, %q, want gamma, gamma", out[0].Data, out[1].Data)
	}
	// Stage 0: the deletions of both files together, again without
	// progress; stage 1: both rounds once more.
	want := []string{`0 ""`, `0 ""`, `0 ""`, `1 ""`}
	if strings.Join(rounds, ", ") != strings.Join(want, ", ") {
		t.Errorf("rounds %v, want %v", rounds, want)
	}
}

// lines is a toy syntax: round 0 deletes a line per edit, round 1
// replaces each line "cc" by "x".
type lines struct{}

func (lines) Name() string { return "lines" }

func (lines) Edits(_ string, text []byte, round int) ([]rewrite.Edit, bool) {
	var out []rewrite.Edit
	start := 0
	for i, c := range text {
		if c != '\n' {
			continue
		}
		switch {
		case round == 0:
			out = append(out, rewrite.Edit{{Start: start, End: i + 1}})
		case string(text[start:i]) == "cc":
			out = append(out, rewrite.Edit{{Start: start, End: i, Text: "x"}})
		}
		start = i + 1
	}
	return out, round < 1
}

func (lines) Normalize(_ string, _, c []byte) ([]byte, error) { return c, nil }

// TestMemory: an edit that failed alone is left out of the passes that
// follow, and tested alone again once they make no progress, so the
// result is still 1-minimal: here "b" cannot go while "cc" is there,
// and once "cc" is "x" it can.
func TestMemory(t *testing.T) {
	in := "a\nb\ngamma\ncc\n"
	has := func(text, line string) bool { return strings.Contains("\n"+text, "\n"+line+"\n") }
	for _, workers := range []int{1, 2} {
		var mu sync.Mutex
		tested := map[string]int{}
		test := func(_ context.Context, files []rewrite.File) reduce.Outcome {
			text := string(files[0].Data)
			mu.Lock()
			tested[text]++
			mu.Unlock()
			if has(text, "gamma") && (has(text, "b") || has(text, "x")) && (has(text, "cc") || has(text, "x")) {
				return reduce.Fail
			}
			return reduce.Pass
		}
		out, _, err := rewrite.Reduce(context.Background(), []rewrite.File{{Path: "l", Data: []byte(in), Syntax: lines{}}}, test, rewrite.Config{Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		if got := string(out[0].Data); got != "gamma\nx\n" {
			t.Errorf("workers %d: Reduce = %q, want %q", workers, got, "gamma\nx\n")
		}
		// Without "b" in the pass after "cc" became "x", that pass tests
		// the deletion of "b" alone only after it made no progress.
		if tested["gamma\nx\n"] != 1 {
			t.Errorf("workers %d: the result was tested %d times, want once: %v", workers, tested["gamma\nx\n"], tested)
		}
	}
}
