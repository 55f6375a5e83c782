package instrument

import (
	"reflect"
	"testing"
)

// TestSkipFlags checks how Resume reads and replaces the user's -skip
// among go test flags, -args and what follows it left alone.
func TestSkipFlags(t *testing.T) {
	for _, tt := range []struct {
		flags   []string
		value   string
		without []string
	}{
		{nil, "", nil},
		{[]string{"-v", "-skip", "TestA"}, "TestA", []string{"-v"}},
		{[]string{"-skip=TestA|TestB", "-count=1"}, "TestA|TestB", []string{"-count=1"}},
		{[]string{"--skip", "X", "-args", "-skip", "Y"}, "X", []string{"-args", "-skip", "Y"}},
		{[]string{"-run", "TestA", "-args", "-skip=Y"}, "", []string{"-run", "TestA", "-args", "-skip=Y"}},
	} {
		if got := flagValue(tt.flags, "skip"); got != tt.value {
			t.Errorf("flagValue(%q) = %q, want %q", tt.flags, got, tt.value)
		}
		if got := withoutFlag(tt.flags, "skip"); !reflect.DeepEqual(got, tt.without) {
			t.Errorf("withoutFlag(%q) = %q, want %q", tt.flags, got, tt.without)
		}
	}
}
