package command

import (
	"reflect"
	"testing"
)

func TestSplit(t *testing.T) {
	tests := []struct {
		level Level
		text  string
		want  []string
	}{
		{Lines, "", nil},
		{Lines, "a\nbc\n\nd", []string{"a\n", "bc\n", "\n", "d"}},
		{Lines, "a\n", []string{"a\n"}},
		{Tokens, `if x1 >= 10 {  f("é_z") }`, []string{"if", " ", "x1", " ", ">", "=", " ", "10", " ", "{", "  ", "f", "(", `"`, "é_z", `"`, ")", " ", "}"}},
		{Tokens, "a\n\n  b", []string{"a", "\n\n  ", "b"}},
		{Bytes, "ab\n", []string{"a", "b", "\n"}},
		{Files, "ab\ncd", []string{"ab\ncd"}},
		{Files, "", nil},
	}
	for _, tt := range tests {
		var got []string
		for _, s := range partition(tt.level.Split("f", []byte(tt.text)), len(tt.text)) {
			got = append(got, tt.text[s.Start:s.End])
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s.Split(%q) = %q, want %q", tt.level.Name(), tt.text, got, tt.want)
		}
	}
}

func TestPartition(t *testing.T) {
	tests := []struct {
		reason string
		spans  []Span
		n      int
		want   []Span
	}{
		{"a partition stays", []Span{{0, 2}, {2, 5}}, 5, []Span{{0, 2}, {2, 5}}},
		{"gaps become units", []Span{{1, 2}, {3, 4}}, 6, []Span{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 6}}},
		{"overlaps are clipped", []Span{{0, 3}, {2, 5}}, 5, []Span{{0, 3}, {3, 5}}},
		{"empty and out-of-range spans go", []Span{{1, 1}, {4, 9}}, 5, []Span{{0, 4}, {4, 5}}},
		{"nothing covers all", nil, 3, []Span{{0, 3}}},
	}
	for _, tt := range tests {
		if got := partition(tt.spans, tt.n); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: partition(%v, %d) = %v, want %v", tt.reason, tt.spans, tt.n, got, tt.want)
		}
	}
}

func TestParseLevels(t *testing.T) {
	got, err := ParseLevels("lines, bytes")
	if err != nil || !reflect.DeepEqual(got, []Level{Lines, Bytes}) {
		t.Errorf("ParseLevels = %v, %v", got, err)
	}
	if _, err := ParseLevels("lines,words"); err == nil {
		t.Error("ParseLevels accepted an unknown level")
	}
}
