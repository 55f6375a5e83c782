package rt

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
	"unsafe"

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

// node has a cycle through a pointer, which deep values must cut.
type node struct {
	Name string
	Next *node
	kids []int
}

// userErr's Error must never run from the encoder.
type userErr struct{}

func (userErr) Error() string { panic("the encoder called a user method") }

// wantLocs are the locations TestRoundTrip's reads and writes recorded.
var wantLocs []struct {
	site int
	kind trace.LocKind
	addr uintptr
	base uintptr
	idx  int64
	key  string
}

// TestRoundTrip records through rt's encoder and reads the file back with
// the trace package's decoder: the two sides of the format, held together.
func TestRoundTrip(t *testing.T) {
	dir := t.TempDir()
	traceDir, numSites, module = dir, 70, "example.com/p"
	spawnq = nil
	root = newT(0, "")
	calls = make([]uint32, numSites)
	var ctr [40]Ctr // sites 30 to 69
	Counters(ctr[:], 30)
	var ctr0 [30]Ctr // sites 0 to 29
	Counters(ctr0[:], 0)
	t.Cleanup(func() { traceDir, numSites, module, ctrs = "", 0, "rt", nil })

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
		ctr0[3] = 1
		B(true, &ctr0[10], &ctr0[11])
		B(false, &ctr0[12], &ctr0[13])
		var nilp *point
		cyc := &node{Name: "a", kids: []int{1}}
		cyc.Next = cyc
		c.Exit(5, Enter(5, 99, 7, -3, uint16(9), "hi", 2.5, true, nil, nilp, &point{}, []int{1, 2}, point{1, 2}, string(make([]byte, 100)),
			errors.New("boom"), fmt.Errorf("wrap: %w", io.EOF), userErr{}, cyc, [3]int{4, 5, 6}, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, []*point{{1, 2}, nil}))
		done := make(chan bool)
		go func() { ctr[64-30] = 1; done <- true }() // runs while the test does
		<-done
		// A call linked to the callee's entry, a read, a write, a panic
		// and recover, a goroutine, a channel send and receive.
		x := 42
		callee := func(v int) int { Enter(5, 99).Exit(5); return v }
		Ret(c.C(20, 99), 20, callee(W(c, 21, R(c, 22, x))))
		Recv(c, 24, done, Send(c, 23, done, true))
		c.Recovered(26, Panic(c, 25, "boom"))
		Started(27, c.Go(27), 0)
		// Format 3: steps and decisions (short forms after the first),
		// reads and writes with their locations, a deferred call and a
		// go statement calling a named function, linked to the entry.
		c.K(30)
		c.K(31)
		c.D(32, false)
		c.Dk(34)
		xs := []int{5, 6, 7}
		m := map[string]int{"k": 9}
		pt := &point{1, 2}
		RE(c, 35, xs, 2)
		WE(c, 36, xs, 1)
		RK(c, 37, m, "k")
		WK(c, 38, m, "k")
		RA(c, 39, &pt.Y)
		WA(c, 40, &x)
		func() {
			defer c.V(41)
			defer func() { Enter(6, 0).Exit(6) }()
			defer c.C(41, 0)
		}()
		done2 := make(chan bool)
		c.GoF(42, 43, 77)
		go func() { Enter(7, 77).Exit(7); done2 <- true }()
		<-done2
		c.K(44)
		wantLocs = []struct {
			site int
			kind trace.LocKind
			addr uintptr
			base uintptr
			idx  int64
			key  string
		}{
			{35, trace.LocElem, uintptr(unsafe.Pointer(&xs[2])), uintptr(unsafe.Pointer(&xs[0])), 2, "?"},
			{36, trace.LocElem, uintptr(unsafe.Pointer(&xs[1])), uintptr(unsafe.Pointer(&xs[0])), 1, "?"},
			{37, trace.LocKey, 0, *(*uintptr)(unsafe.Pointer(&m)), 0, `"k"`},
			{38, trace.LocKey, 0, *(*uintptr)(unsafe.Pointer(&m)), 0, `"k"`},
			{39, trace.LocAddr, uintptr(unsafe.Pointer(&pt.Y)), 0, 0, "?"},
			{40, trace.LocAddr, uintptr(unsafe.Pointer(&x)), 0, 0, "?"},
		}
	})
	b := &fakeTB{name: "TestB", failed: true}
	run(b, func(c *T) { ctr0[3] = 1; ctr[69-30] = 1 })
	s := &fakeTB{name: "TestS", skipped: true}
	run(s, func(c *T) {})
	ctr0[1] = 1 // no test
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
	if len(p.Events) != 33 {
		t.Fatalf("events: %+v", p.Events)
	}
	vals := p.Events[0].Values
	wantVals := []string{"7", "-3", "9", `"hi"`, "2.5", "true", "nil", "nil", "*rt.point(len 0)", "[]int(len 2)", "rt.point{...}",
		`"` + string(make([]byte, 64)) + `"...(100 bytes)`,
		"*errors.errorString(len 0)", "*fmt.wrapError(len 0)", "rt.userErr{...}", "*rt.node(len 0)", "[3]int{...}", "[]int(len 10)", "[]*rt.point(len 2)"}
	// Format 4: entries record values with their parts.
	wantFull := map[int]string{
		8:  "&rt.point{X: 0, Y: 0}",
		9:  "[]int{1, 2}",
		10: "rt.point{X: 1, Y: 2}",
		12: `error("boom")`,
		13: `error("wrap: EOF")`,
		14: "rt.userErr{}",
		15: `&rt.node{Name: "a", Next: &rt.node{Name: "a", Next: *rt.node(len 0), kids: []int(len 1)}, kids: []int{1}}`,
		16: "[3]int{4, 5, 6}",
		17: "[]int{0, 1, 2, 3, 4, 5, 6, 7, ...}(len 10)",
		18: "[]*rt.point{&rt.point{X: 1, Y: 2}, nil}",
	}
	for i, want := range wantFull {
		if i < len(vals) && vals[i].Full() != want {
			t.Errorf("value %d in full = %s, want %s", i, vals[i].Full(), want)
		}
	}
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
	if c := p.Events[1]; !c.Exit() || c.Site != 5 || c.Test != 1 || c.Goroutine != p.Events[0].Goroutine {
		t.Errorf("exit: %+v", c)
	}
	type rec struct {
		Tag  byte
		Site int
		From int
		Ref  uint64
		Val  string
	}
	var recs []rec
	for _, e := range p.Events[2:14] {
		r := rec{e.Tag, e.Site, e.From, e.Ref, ""}
		for _, v := range e.Values {
			r.Val += v.String() + ";"
		}
		recs = append(recs, r)
	}
	wantRecs := []rec{
		{'C', 20, -1, 0, ""},
		{'R', 22, -1, 0, "42;"},
		{'W', 21, -1, 0, "42;"},
		{'E', 5, 20, 0, ""}, // called from the call at 20
		{'X', 5, -1, 0, ""},
		{'V', 20, -1, 0, "42;"},
		{'S', 23, -1, 1, "true;"},
		{'U', 24, -1, 1, "true;"},
		{'P', 25, -1, 0, `"boom";`},
		{'Q', 26, -1, 0, `"boom";`},
		{'G', 27, -1, 1, ""},
		{'H', 27, -1, 1, ""},
	}
	if !reflect.DeepEqual(recs, wantRecs) {
		t.Errorf("stream records:\n got %+v\nwant %+v", recs, wantRecs)
	}
	type rec3 struct {
		Tag  byte
		Site int
		From int
		Val  string
	}
	var got3 []rec3
	g0 := p.Events[2].Goroutine
	for _, e := range p.Events[14:] {
		r := rec3{e.Tag, e.Site, e.From, ""}
		for _, v := range e.Values {
			r.Val += v.String() + ";"
		}
		if e.Goroutine != g0 {
			r.Val += "child"
		}
		got3 = append(got3, r)
		for _, l := range wantLocs {
			if l.site == e.Site && (e.Loc.Kind != l.kind || e.Loc.Addr != uint64(l.addr) || e.Loc.Base != uint64(l.base) || e.Loc.Index != l.idx || e.Loc.Key.String() != l.key) {
				t.Errorf("site %d: location %+v, want %+v", e.Site, e.Loc, l)
			}
		}
	}
	want3 := []rec3{
		{trace.TagStep, 30, -1, ""},
		{trace.TagStep, 31, -1, ""},
		{trace.TagDecision, 33, -1, ""}, // the false outcome of 32
		{trace.TagDecision, 34, -1, ""},
		{trace.TagRead, 35, -1, "7;"},
		{trace.TagWrite, 36, -1, "6;"},
		{trace.TagRead, 37, -1, "9;"},
		{trace.TagWrite, 38, -1, "9;"},
		{trace.TagRead, 39, -1, "2;"},
		{trace.TagWrite, 40, -1, "42;"},
		{trace.TagCall, 41, -1, ""},
		{trace.TagEnter, 6, 41, ""}, // the deferred call's entry names the defer's call site
		{trace.TagExit, 6, -1, ""},
		{trace.TagReturn, 41, -1, ""},
		{trace.TagGo, 42, -1, ""},
		{trace.TagStarted, 42, -1, "child"}, // the child announces the go statement
		{trace.TagEnter, 7, 43, "child"},    // and its entry names the go statement's call
		{trace.TagExit, 7, -1, "child"},
		{trace.TagStep, 44, -1, ""},
	}
	if !reflect.DeepEqual(got3, want3) {
		t.Errorf("format 3 records:\n got %+v\nwant %+v", got3, want3)
	}
}

// TestNoAllocs checks that recording values allocates nothing once the
// buffers are warm: tests that count allocations must see what they see
// uninstrumented.
func TestNoAllocs(t *testing.T) {
	traceDir, numSites, module = t.TempDir(), 10, "example.com/p"
	root = newT(0, "")
	calls = make([]uint32, numSites)
	t.Cleanup(func() { traceDir, numSites, module = "", 0, "rt"; w = writer{} })
	c := Cur()
	p := &point{1, 2}
	s := "a string"
	n := 100000
	err := fmt.Errorf("wrap: %w", io.EOF)
	ps := []*point{p, p}
	f := func() {
		x := Enter(1, 2, p, s, n, 2.5, *p, err, ps, userErr{})
		R(c, 3, p)
		W(c, 4, n)
		Ret(c.C(5, 0), 5, s)
		c.V(6, n, p)
		xs := [3]int{1, 2, 3}
		m := map[string]int{"k": 1}
		RE(c, 7, xs[:], 1)
		WE(c, 7, xs[:], 2)
		RK(c, 8, m, s)
		WK(c, 8, m, "k")
		RA(c, 9, &p.X)
		WA(c, 9, &n)
		c.K(1)
		c.D(2, true)
		c.Dk(3)
		x.Exit(1, n)
	}
	f()
	if a := testing.AllocsPerRun(100, f); a != 0 {
		t.Errorf("%v allocations per run, want 0", a)
	}
}
