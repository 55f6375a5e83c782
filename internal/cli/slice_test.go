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
		{"no flags: vet off", nil, []string{"-vet=off"}},
		{"the user's flags kept, ours after them", []string{"-count=2", "-json"}, []string{"-count=2", "-json", "-vet=off"}},
		{"the user's -vet wins", []string{"-vet=all"}, []string{"-vet=all"}},
		{"the user's --vet form too", []string{"--vet", "off"}, []string{"--vet", "off"}},
		{"the user's -gcflags kept as they are", []string{"-gcflags=-l"}, []string{"-gcflags=-l", "-vet=off"}},
		{"before -args, which go test passes to the binary", []string{"-v", "-args", "-x"}, []string{"-v", "-vet=off", "-args", "-x"}},
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

func TestOnlyTest(t *testing.T) {
	tests := []struct {
		reason, run, name string
		want              map[string]bool
	}{
		{"no -test: every test", "", "", nil},
		{"-test alone: its top-level test", "", "TestX/sub", map[string]bool{"TestX": true}},
		{"a -run of that test alone", "^TestX$", "TestX", map[string]bool{"TestX": true}},
		{"a -run of more: every test", "TestX|TestY", "TestX", nil},
		{"a -run with regexp metacharacters quoted", `^Test\.X$`, "Test.X", map[string]bool{"Test.X": true}},
	}
	for _, tt := range tests {
		if got := onlyTest(tt.run, tt.name); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: onlyTest(%q, %q) = %v, want %v", tt.reason, tt.run, tt.name, got, tt.want)
		}
	}
}
