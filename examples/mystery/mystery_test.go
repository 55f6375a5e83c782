package mystery

import "testing"

// failingInput is the input the seed's fuzzer found.
const failingInput = `V"/+!aF-(V4EOz*+s/Q,7)2@0_`

// accepts reports whether Mystery returns without panicking on inp, and
// the panic value if it does not.
func accepts(inp string) (ok bool, panicked any) {
	defer func() {
		panicked = recover()
	}()
	Mystery(inp)
	return true, nil
}

// TestMystery expects Mystery to accept every input. The inputs are the
// seed's fuzzed input and the halves and quarters it tries when reducing by
// hand, plus the results of ddmin and ddmax.
func TestMystery(t *testing.T) {
	for _, tc := range []struct {
		name, in string
	}{
		{"fuzzed", failingInput}, // fails
		{"first_half", failingInput[:13]},
		{"second_half", failingInput[13:]},
		{"without_first_quarter", failingInput[6:]}, // fails
		{"without_first_and_second_quarter", failingInput[12:]},
		{"without_first_and_third_quarter", failingInput[6:12] + failingInput[18:]}, // fails
		{"minimized", "()"},                                                         // fails
		{"maximized", `V"/+!aF-V4EOz*+s/Q,7)2@0_`},
		{"closing_first", ")("},
		{"no_parentheses", "An input that does not fail"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if ok, p := accepts(tc.in); !ok {
				t.Errorf("Mystery(%q) panicked: %v", tc.in, p)
			}
		})
	}
}

// FuzzMystery checks that Mystery accepts any input. Its seed corpus
// passes; fuzzing finds inputs that fail.
func FuzzMystery(f *testing.F) {
	f.Add("")
	f.Add("An input that does not fail")
	f.Add(failingInput[13:])
	f.Fuzz(func(t *testing.T, in string) {
		if ok, p := accepts(in); !ok {
			t.Errorf("Mystery(%q) panicked: %v", in, p)
		}
	})
}
