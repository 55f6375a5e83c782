package instrument

import "testing"

// TestOutputScanner checks what go test's output tells of examples: their
// results, plain or -json, and whether -json output names none (the
// events files then need no settling).
func TestOutputScanner(t *testing.T) {
	for _, c := range []struct {
		name   string
		out    string
		result string // ExampleA's in example.com/p
		none   bool
	}{
		{"plain", "--- FAIL: ExampleA (0.00s)\nFAIL\texample.com/p\t0.01s\n", "fail", false},
		{"plain, silent", "ok  \texample.com/p\t0.01s\n", "", false},
		{"json, an example", `{"Action":"run","Package":"example.com/p","Test":"ExampleA"}` + "\n" +
			`{"Action":"pass","Package":"example.com/p","Test":"ExampleA"}` + "\n", "pass", false},
		{"json, one example started", `{"Action":"run","Package":"example.com/p","Test":"ExampleA"}` + "\n", "", false},
		{"json, tests only", `{"Action":"run","Package":"example.com/p","Test":"TestA"}` + "\n" +
			`{"Action":"fail","Package":"example.com/p","Test":"TestA"}` + "\n" +
			`{"Action":"fail","Package":"example.com/p"}` + "\n", "", true},
	} {
		s := newOutputScanner()
		s.Write([]byte(c.out))
		if got := s.result("example.com/p", "ExampleA"); got != c.result {
			t.Errorf("%s: ExampleA %q, want %q", c.name, got, c.result)
		}
		if got := s.noExamples(); got != c.none {
			t.Errorf("%s: no examples %v, want %v", c.name, got, c.none)
		}
	}
}
