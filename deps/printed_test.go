package deps

import (
	"reflect"
	"testing"
)

func TestPrintedFailures(t *testing.T) {
	tests := []struct {
		name, output string
		want         []Printed
	}{
		{"testing", "    a_test.go:12: got 1, want 2\n    a_test.go:12: again\n", []Printed{{"a_test.go", 12}}},
		{"check.v1", "\n----\nFAIL: enc_test.go:500: S.TestEncoder\n\nenc_test.go:532:\n    c.Assert(x, Equals, y)\n... obtained string = \"a\"\n", []Printed{{"enc_test.go", 532}}},
		{"testify", "    x_test.go:9: \n        \tError Trace:\t/m/x_test.go:9\n        \t            \t/m/h_test.go:4\n        \tError:      \tNot equal: \n", []Printed{{"x_test.go", 9}, {"/m/x_test.go", 9}, {"/m/h_test.go", 4}}},
		{"panic frames", "panic: boom\n\ngoroutine 7 [running]:\nm.F()\n\t/m/f.go:3 +0x1d\n", nil},
		{"none", "--- FAIL: TestX (0.00s)\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := PrintedFailures(tt.output); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("PrintedFailures = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestFindPrinted(t *testing.T) {
	g := NewGraph([]*Node{
		{ID: 0, Var: "x", File: "/m/a_test.go", Line: 5},
		{ID: 1, Var: "<c.Assert()>", File: "/m/a_test.go", Line: 9},
		{ID: 2, Var: "y", File: "/m/b.go", Line: 9},
		{ID: 3, Var: "<t.Logf()>", File: "/m/a_test.go", Line: 11},
		{ID: 4, Var: "<t.Log()>", File: "/m/a_test.go", Line: 12},
		{ID: 5, Var: "<assert.Equal()>", File: "/m/a_test.go", Line: 12},
	}, nil)
	tests := []struct {
		name     string
		locs     []Printed
		wantIDs  []int
		wantUsed []Printed
	}{
		{"base name", []Printed{{"a_test.go", 9}}, []int{1}, []Printed{{"a_test.go", 9}}},
		{"path and miss", []Printed{{"/m/b.go", 9}, {"a_test.go", 7}, {"a_test.go", 5}}, []int{0, 2}, []Printed{{"/m/b.go", 9}, {"a_test.go", 5}}},
		{"nothing", []Printed{{"c.go", 1}}, nil, nil},
		{"t.Logf is no failure", []Printed{{"a_test.go", 11}, {"a_test.go", 9}}, []int{1}, []Printed{{"a_test.go", 9}}},
		{"t.Log beside an assertion", []Printed{{"a_test.go", 12}}, []int{4, 5}, []Printed{{"a_test.go", 12}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ids, used := g.FindPrinted(tt.locs)
			if !reflect.DeepEqual(ids, tt.wantIDs) || !reflect.DeepEqual(used, tt.wantUsed) {
				t.Errorf("FindPrinted = %v, %v, want %v, %v", ids, used, tt.wantIDs, tt.wantUsed)
			}
		})
	}
}
