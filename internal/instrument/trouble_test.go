package instrument

import (
	"reflect"
	"strings"
	"testing"
)

// TestTroubleScanner feeds go test's output, plain and -json, on one
// stream or two, and checks what it makes of build failures and
// timeouts.
func TestTroubleScanner(t *testing.T) {
	tests := []struct {
		name           string
		stdout, stderr string
		broken         []string
		build          []string
		timedOut       []string
	}{
		{name: "build failure, two streams",
			stdout: "FAIL\texample.com/broken [build failed]\nFAIL\n",
			stderr: "# example.com/broken [example.com/broken.test]\n./broken.go:5:10: cannot use \"positive\"\n",
			broken: []string{"example.com/broken"},
			build:  []string{"# example.com/broken [example.com/broken.test]", "./broken.go:5:10: cannot use \"positive\""}},
		{name: "build failure, one stream",
			stdout: "# example.com/broken [example.com/broken.test]\n./broken.go:5:10: cannot use \"positive\"\nFAIL\texample.com/broken [build failed]\nok  \texample.com/other\t0.01s\n",
			broken: []string{"example.com/broken"},
			build:  []string{"# example.com/broken [example.com/broken.test]", "./broken.go:5:10: cannot use \"positive\""}},
		{name: "setup failure",
			stdout: "FAIL\texample.com/m [setup failed]\n",
			stderr: "x.go:3:2: no required module provides package example.com/missing\n",
			broken: []string{"example.com/m"},
			build:  []string{"x.go:3:2: no required module provides package example.com/missing"}},
		{name: "build failure, json",
			stdout: `{"ImportPath":"example.com/broken [example.com/broken.test]","Action":"build-output","Output":"# example.com/broken [example.com/broken.test]\n"}
{"ImportPath":"example.com/broken [example.com/broken.test]","Action":"build-output","Output":"./broken.go:5:10: cannot use\n"}
{"ImportPath":"example.com/broken [example.com/broken.test]","Action":"build-fail"}
{"Action":"output","Package":"example.com/broken","Output":"FAIL\texample.com/broken [build failed]\n"}
{"Action":"fail","Package":"example.com/broken","Elapsed":0,"FailedBuild":"example.com/broken [example.com/broken.test]"}
`,
			broken: []string{"example.com/broken"},
			build:  []string{"# example.com/broken [example.com/broken.test]", "./broken.go:5:10: cannot use"}},
		{name: "timeout",
			stdout:   "=== RUN   TestHang\npanic: test timed out after 2s\n\trunning tests:\n\t\tTestHang (2s)\n\ngoroutine 8 [running]:\ntesting.(*M).startAlarm.func1()\n\t/usr/local/go/src/testing/testing.go:2802 +0x354\nFAIL\thang\t2.082s\nFAIL\n",
			timedOut: []string{"hang: the test binary timed out after 2s while running TestHang"}},
		{name: "timeout, json",
			stdout: `{"Action":"output","Package":"hang","Test":"TestHang","Output":"panic: test timed out after 2s\n"}
{"Action":"output","Package":"hang","Test":"TestHang","Output":"\trunning tests:\n"}
{"Action":"output","Package":"hang","Test":"TestHang","Output":"\t\tTestHang (2s)\n"}
{"Action":"output","Package":"hang","Output":"FAIL\thang\t2.082s\n"}
`,
			timedOut: []string{"hang: the test binary timed out after 2s while running TestHang"}},
		{name: "failing tests only",
			stdout: "--- FAIL: TestX (0.00s)\n    x_test.go:3: # not a build line\nFAIL\nFAIL\tx\t0.01s\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &troubleScanner{}
			// Written in pieces, as pipes deliver.
			for _, c := range strings.SplitAfter(tt.stdout, "\t") {
				s.stream(0).Write([]byte(c))
			}
			s.stream(1).Write([]byte(tt.stderr))
			var res Result
			s.report(&res)
			if !reflect.DeepEqual(res.Broken, tt.broken) || !reflect.DeepEqual(res.BuildErrors, tt.build) || !reflect.DeepEqual(res.TimedOut, tt.timedOut) {
				t.Errorf("broken %q, build %q, timed out %q\nwant %q, %q, %q", res.Broken, res.BuildErrors, res.TimedOut, tt.broken, tt.build, tt.timedOut)
			}
		})
	}
}
