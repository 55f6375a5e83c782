package rt

import (
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"github.com/culprit-go/culprit/trace"
)

// fakeTB stands in for *testing.T.
type fakeTB struct {
	name            string
	failed, skipped bool
	cleanups        []func()
}

func (f *fakeTB) Name() string      { return f.name }
func (f *fakeTB) Failed() bool      { return f.failed }
func (f *fakeTB) Skipped() bool     { return f.skipped }
func (f *fakeTB) Cleanup(fn func()) { f.cleanups = append(f.cleanups, fn) }
func (f *fakeTB) done() {
	for i := len(f.cleanups) - 1; i >= 0; i-- {
		f.cleanups[i]()
	}
}

type point struct{ X, Y int }

// TestRoundTrip records through rt's encoder and reads the file back with
// the trace package's decoder: the two sides of the format, held together.
func TestRoundTrip(t *testing.T) {
	dir := t.TempDir()
	traceDir, numSites, module = dir, 70, "example.com/p"
	root = newT(0, "")
	calls = make([]uint32, numSites)
	t.Cleanup(func() { traceDir, numSites, module = "", 0, "rt" })

	var wg sync.WaitGroup
	run := func(tb *fakeTB, fn func(c *T)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer tb.done()
			Test(tb)
			fn(Cur())
		}()
		wg.Wait()
	}
	a := &fakeTB{name: "TestA"}
	run(a, func(c *T) {
		c.S(3)
		c.B(true, 10)
		c.B(false, 12)
		var nilp *point
		c.Exit(5, Enter(5, 7, -3, uint16(9), "hi", 2.5, true, nil, nilp, &point{}, []int{1, 2}, point{1, 2}, string(make([]byte, 100))))
		done := make(chan bool)
		go func() { Cur().S(64); done <- true }() // inherits the test
		<-done
	})
	b := &fakeTB{name: "TestB", failed: true}
	run(b, func(c *T) { c.S(3); c.S(69) })
	s := &fakeTB{name: "TestS", skipped: true}
	run(s, func(c *T) {})
	Cur().S(1) // no test
	closeTrace(0)
	w = writer{}

	names, _ := filepath.Glob(filepath.Join(dir, "events-*"))
	if len(names) != 1 {
		t.Fatalf("events files: %v", names)
	}
	f, err := os.Open(names[0])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p, err := trace.ReadEvents(f, nil)
	if err != nil {
		t.Fatal(err)
	}
	if p.Package != "example.com/p" || p.PID != os.Getpid() || p.NumSites != 70 || p.Exit != 0 || p.Truncated {
		t.Errorf("header: %+v", p)
	}
	type test struct {
		Name    string
		Outcome trace.Outcome
		Hits    []int
	}
	var got []test
	for _, x := range p.Tests {
		got = append(got, test{x.Name, x.Outcome, x.Hits})
	}
	want := []test{
		{"TestA", trace.OutcomePass, []int{3, 10, 13, 64}},
		{"TestB", trace.OutcomeFail, []int{3, 69}},
		{"TestS", trace.OutcomeSkip, nil},
		{"", trace.OutcomeRunning, []int{1}},
	}
	if len(got) == len(want) && got[2].Hits != nil && len(got[2].Hits) == 0 {
		got[2].Hits = nil
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("tests:\n got %+v\nwant %+v", got, want)
	}
	if len(p.Calls) != 2 {
		t.Fatalf("calls: %+v", p.Calls)
	}
	vals := p.Calls[0].Values
	wantVals := []string{"7", "-3", "9", `"hi"`, "2.5", "true", "nil", "nil", "*rt.point(len 0)", "[]int(len 2)", "rt.point{...}",
		`"` + string(make([]byte, 64)) + `"...(100 bytes)`}
	if len(vals) != len(wantVals) {
		t.Fatalf("values: %v", vals)
	}
	for i, v := range vals {
		if got := v.String(); got != wantVals[i] && i != 11 {
			t.Errorf("value %d = %s, want %s", i, got, wantVals[i])
		}
	}
	if vals[11].Len != 100 || len(vals[11].Str) != trace.MaxString {
		t.Errorf("long string: %d of %d bytes", len(vals[11].Str), vals[11].Len)
	}
	if c := p.Calls[1]; !c.Exit || c.Site != 5 || c.Test != 1 || c.Goroutine != p.Calls[0].Goroutine {
		t.Errorf("exit: %+v", c)
	}
}
