package rt

import (
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"
)

// TestSample checks which events of a site are recorded: the first
// callLimit, then those numbered by powers of two.
func TestSample(t *testing.T) {
	tests := []struct {
		limit uint32
		n     int
		want  []int
	}{
		{limit: 3, n: 40, want: []int{1, 2, 3, 4, 8, 16, 32}},
		{limit: 5, n: 20, want: []int{1, 2, 3, 4, 5, 8, 16}},
		{limit: 0, n: 5, want: []int{1, 2, 3, 4, 5}}, // 0: everything
		{limit: 1, n: 1100, want: []int{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024}},
	}
	for _, tt := range tests {
		saveDir, saveLimit, saveCalls, saveNums := traceDir, callLimit, calls, nums
		traceDir, callLimit = t.TempDir(), tt.limit
		calls, nums = make([]uint32, 3), make([]uint64, 3)
		var got, gotSkipped []int
		for i := 1; i <= tt.n; i++ {
			if sample(1) {
				got = append(got, i)
			}
			if sample(2) != (i == 1 || i <= int(tt.limit) || tt.limit == 0 || i&(i-1) == 0) {
				t.Errorf("limit %d: site 2, event %d: sites are not independent", tt.limit, i)
			}
			// What an entry point compiled for -l does: skipped first,
			// then the slow path's sample.
			if !skipped(0) && sample(0) {
				gotSkipped = append(gotSkipped, i)
			}
		}
		traceDir, callLimit, calls, nums = saveDir, saveLimit, saveCalls, saveNums
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("limit %d: recorded events %v, want %v", tt.limit, got, tt.want)
		}
		if !reflect.DeepEqual(gotSkipped, tt.want) {
			t.Errorf("limit %d: through skipped, recorded events %v, want %v", tt.limit, gotSkipped, tt.want)
		}
	}
}

// TestSampleBudget checks the trace's budget: once eventBudget events
// are recorded, every site's limit falls to afterBudget, and the process
// writes its budget file once; restartSampling starts the count afresh.
func TestSampleBudget(t *testing.T) {
	saveDir, saveLimit, saveBudget, saveCalls, saveNums, saveModule := traceDir, callLimit, eventBudget, calls, nums, module
	defer func() {
		traceDir, callLimit, eventBudget, calls, nums, module = saveDir, saveLimit, saveBudget, saveCalls, saveNums, saveModule
		recorded.Store(0)
	}()
	dir := t.TempDir()
	traceDir, callLimit, eventBudget, module = dir, 1000, 150, "example.com/m/p"
	calls, nums = make([]uint32, 3), make([]uint64, 3)
	recorded.Store(0)
	budgetFile := filepath.Join(dir, "budget-example.com_m_p-"+strconv.Itoa(os.Getpid()))
	// Site 1 records 120 events, all within its limit and the budget.
	for i := 1; i <= 120; i++ {
		if !sample(1) {
			t.Fatalf("site 1, event %d: not recorded under the budget", i)
		}
	}
	if _, err := os.Stat(budgetFile); err == nil {
		t.Fatal("budget file written before the budget was reached")
	}
	// Site 2: its first 30 events reach the budget (150); from then on
	// its limit is afterBudget (100).
	var got []int
	for i := 1; i <= 600; i++ {
		if sample(2) {
			got = append(got, i)
		}
	}
	var want []int
	for i := 1; i <= afterBudget; i++ {
		want = append(want, i)
	}
	want = append(want, 128, 256, 512)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("site 2 past the budget recorded %v, want %v", got, want)
	}
	// Site 1, past its 100 events already: powers of two only, after
	// the event its last record planned for under the old limit (121).
	got = nil
	for i := 121; i <= 300; i++ {
		if sample(1) {
			got = append(got, i)
		}
	}
	if want := []int{121, 128, 256}; !reflect.DeepEqual(got, want) {
		t.Errorf("site 1 past the budget recorded %v, want %v", got, want)
	}
	data, err := os.ReadFile(budgetFile)
	if err != nil {
		t.Fatalf("no budget file: %v", err)
	}
	if string(data) != "150\n" {
		t.Errorf("budget file holds %q, want the budget", data)
	}
	// A restart (samplePerTest) counts the events afresh.
	saveSPT := samplePerTest
	defer func() { samplePerTest = saveSPT }()
	samplePerTest = true
	restartSampling("TestX")
	for i := 1; i <= 140; i++ {
		if !sample(2) {
			t.Fatalf("after a restart, site 2's event %d not recorded", i)
		}
	}
}

// TestSampleOff checks that nothing is recorded without a trace
// directory, and that sites outside the table are recorded.
func TestSampleOff(t *testing.T) {
	saveDir, saveCalls, saveNums := traceDir, calls, nums
	defer func() { traceDir, calls, nums = saveDir, saveCalls, saveNums }()
	traceDir, calls, nums = "", make([]uint32, 2), make([]uint64, 2)
	if sample(1) {
		t.Error("recorded without a trace directory")
	}
	traceDir = t.TempDir()
	if !sample(7) {
		t.Error("site outside the table not recorded")
	}
}

// TestCallStack checks how entries claim call sites and returns pop them.
func TestCallStack(t *testing.T) {
	var s gstate
	// f(g(x)): f's call site, then g's; g enters, returns; f enters.
	s.push(pending{site: 10, key: 1, rec: true})
	s.push(pending{site: 11, key: 2})
	if from := s.claim(2); from != 12 {
		t.Errorf("g's entry names call site %d, want 11 (+1)", from)
	}
	if from := s.claim(2); from != 0 {
		t.Errorf("a second entry (recursion without a call site) claims %d, want nothing", from-1)
	}
	if rec := s.pop(11); rec {
		t.Error("g's call was not recorded, but its return says it was")
	}
	if from := s.claim(3); from != 0 {
		t.Error("an entry of another function claimed f's call site")
	}
	if from := s.claim(1); from != 11 {
		t.Errorf("f's entry names call site %d, want 10 (+1)", from-1)
	}
	// A panic leaves call sites above f's: f's return removes them.
	s.push(pending{site: 20, key: 0})
	s.push(pending{site: 21, key: 0})
	if rec := s.pop(10); !rec {
		t.Error("f's call was recorded, but its return says it was not")
	}
	if len(s.stack) != 0 {
		t.Errorf("stack after f's return: %v, want empty", s.stack)
	}
	// A go statement's call site is removed by the entry that claims it.
	s.push(pending{site: 30, spawn: true})
	if from := s.claim(9); from != 31 || len(s.stack) != 0 {
		t.Errorf("spawn claimed as %d leaving %v, want 30 (+1) and nothing", from-1, s.stack)
	}
}

// TestMutedActivation checks that a muted state records nothing: a call
// of a hot function that was not sampled.
func TestMutedActivation(t *testing.T) {
	m := newT(1, "x").muted
	saveDir, saveCalls, saveNums := traceDir, calls, nums
	defer func() { traceDir, calls, nums = saveDir, saveCalls, saveNums }()
	traceDir, calls, nums = t.TempDir(), make([]uint32, 4), make([]uint64, 4)
	mu.Lock()
	before := len(w.buf)
	mu.Unlock()
	x := 3
	R(m, 1, x)
	WA(m, 2, &x)
	m.K(3).D(1, true)
	Ret(m.C(2, 0), 2, x)
	mu.Lock()
	after := len(w.buf)
	w.buf = w.buf[:before]
	mu.Unlock()
	if after != before {
		t.Errorf("a muted activation wrote %d bytes", after-before)
	}
}

// TestPanicWord checks that the goroutine's panic word was found where
// rt expects it, so that exits outside panics do not unwind the stack.
func TestPanicWord(t *testing.T) {
	if havePanicWord && !panicCalibrated {
		t.Fatal("the panic word of the goroutine descriptor is not where rt reads it: every recorded exit unwinds the stack")
	}
	if panicCalibrated && panicWord() != 0 {
		t.Error("panic word set outside a panic")
	}
	func() {
		defer func() {
			if panicCalibrated && panicWord() == 0 {
				t.Error("panic word not set in a function deferred by a panic")
			}
			recover()
		}()
		panic("x")
	}()
}

// TestRelated checks which tests a slice of a test replays: the test,
// its parents and its subtests; the others are muted.
func TestRelated(t *testing.T) {
	for _, c := range []struct {
		name, want string
		related    bool
	}{
		{"TestA", "", true},
		{"TestA", "TestA", true},
		{"TestA", "TestA/sub", true},
		{"TestA/sub", "TestA/sub", true},
		{"TestA/sub/deeper", "TestA/sub", true},
		{"TestA/other", "TestA/sub", false},
		{"TestA/subway", "TestA/sub", false},
		{"TestAB", "TestA", false},
		{"TestB", "TestA/sub", false},
	} {
		if got := related(c.name, c.want); got != c.related {
			t.Errorf("related(%q, %q) = %v, want %v", c.name, c.want, got, c.related)
		}
	}
}

// TestUnrelatedMuted checks that a test the slice does not read starts
// muted, and that its activations record nothing.
func TestUnrelatedMuted(t *testing.T) {
	saveDir, saveOnly, saveTest, saveCalls, saveNums := traceDir, onlyRelated, sampleTest, calls, nums
	saveActive := active.Load()
	defer func() {
		traceDir, onlyRelated, sampleTest, calls, nums = saveDir, saveOnly, saveTest, saveCalls, saveNums
		active.Store(saveActive)
		clearLabel()
	}()
	traceDir, onlyRelated, sampleTest = t.TempDir(), true, "TestA/sub"
	calls, nums = make([]uint32, 4), make([]uint64, 4)
	mu.Lock()
	before := len(w.buf)
	mu.Unlock()
	for _, c := range []struct {
		name  string
		muted bool
	}{{"TestA", false}, {"TestA/sub", false}, {"TestA/other", true}, {"TestB", true}} {
		// Under a parent that is not root: a top-level test's records go
		// to the file at once, and the buffer is what is measured.
		if got := start(c.name, kindTest, &T{id: 1 << 20}); got.Mute != c.muted {
			t.Errorf("test %s: muted %v, want %v", c.name, got.Mute, c.muted)
		}
	}
	mu.Lock()
	started := len(w.buf)
	mu.Unlock()
	// The goroutine now runs TestB, the last started.
	x := 3
	m := Enter(1, 0, x)
	R(m, 1, x)
	m.K(3)
	m.ExitAt(1)
	mu.Lock()
	after := len(w.buf)
	w.buf = w.buf[:before]
	mu.Unlock()
	if started == before {
		t.Error("no test record written")
	}
	if after != started {
		t.Errorf("an unrelated test's activation wrote %d bytes", after-started)
	}
}
