package cli

import (
	"reflect"
	"testing"
)

func TestBuildFlags(t *testing.T) {
	tests := []struct {
		reason string
		in     []string
		want   []string
	}{
		{"no flags: vet off, no inlining", nil, []string{"-vet=off", "-gcflags=-l"}},
		{"the user's flags kept, ours after them", []string{"-count=2", "-json"}, []string{"-count=2", "-json", "-vet=off", "-gcflags=-l"}},
		{"the user's -vet wins", []string{"-vet=all"}, []string{"-vet=all", "-gcflags=-l"}},
		{"the user's --vet form too", []string{"--vet", "off"}, []string{"--vet", "off", "-gcflags=-l"}},
		{"the user's -gcflags win", []string{"-gcflags=all=-N -l"}, []string{"-gcflags=all=-N -l", "-vet=off"}},
		{"before -args, which go test passes to the binary", []string{"-v", "-args", "-x"}, []string{"-v", "-vet=off", "-gcflags=-l", "-args", "-x"}},
	}
	for _, tt := range tests {
		in := append([]string(nil), tt.in...)
		if got := buildFlags(in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: buildFlags(%q) = %q, want %q", tt.reason, tt.in, got, tt.want)
		}
		if !reflect.DeepEqual(in, tt.in) && tt.in != nil {
			t.Errorf("%s: buildFlags changed its argument: %q", tt.reason, in)
		}
	}
}
