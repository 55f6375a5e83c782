package reduce

import (
	"context"
	"errors"
	"hash/fnv"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// oracle is a deterministic random test over candidates of distinct ints:
// a candidate fails when it holds every element of need (a monotone core)
// and passes otherwise, except that a hash of the candidate turns some
// outcomes into Unresolved. The whole input always fails and the empty one
// always passes, so every mode has a valid start.
type oracle struct {
	n     int
	need  []int
	seed  uint64
	noise uint64 // one in noise candidates is unresolved; 0 for none
}

func newOracle(seed uint64, n int, noise uint64) oracle {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	var need []int
	for i := 0; i < n; i++ {
		if r.IntN(8) == 0 {
			need = append(need, i)
		}
	}
	if len(need) == 0 {
		need = []int{r.IntN(n)}
	}
	return oracle{n: n, need: need, seed: seed, noise: noise}
}

func (o oracle) outcome(c []int) Outcome {
	if len(c) == o.n {
		return Fail
	}
	if len(c) == 0 {
		return Pass
	}
	h := fnv.New64a()
	var b [8]byte
	for _, x := range append([]int{int(o.seed)}, c...) {
		for i := range b {
			b[i] = byte(uint64(x) >> (8 * i))
		}
		h.Write(b[:])
	}
	if o.noise > 0 && h.Sum64()%o.noise == 0 {
		return Unresolved
	}
	for _, x := range o.need {
		if _, found := slices.BinarySearch(c, x); !found {
			return Pass
		}
	}
	return Fail
}

func (o oracle) test(_ context.Context, c []int) Outcome { return o.outcome(c) }

// checkResult verifies the guarantees of DD in mode m: the failing side
// fails, the passing side passes, both are subsequences of the input with
// pass inside fail, and the difference is 1-minimal from both sides.
func checkResult(t *testing.T, o oracle, m Mode, res Result[int]) {
	t.Helper()
	input := allIndices(o.n)
	if !isSortedSet(res.Fail, o.n) || !isSortedSet(res.Pass, o.n) {
		t.Fatalf("result is not a subsequence of the input: pass %v fail %v", res.Pass, res.Fail)
	}
	if !slices.Equal(difference(res.Pass, res.Fail), []int{}) {
		t.Fatalf("pass %v is not inside fail %v", res.Pass, res.Fail)
	}
	if got := o.outcome(res.Fail); got != Fail {
		t.Fatalf("minimized input %v: %v, want FAIL", res.Fail, got)
	}
	if m&Max != 0 {
		if got := o.outcome(res.Pass); got != Pass {
			t.Fatalf("maximized input %v: %v, want PASS", res.Pass, got)
		}
	}
	if m == Max && !slices.Equal(res.Fail, input) {
		t.Fatalf("max mode changed the failing input to %v", res.Fail)
	}
	if m == Min && len(res.Pass) != 0 {
		t.Fatalf("min mode changed the passing input to %v", res.Pass)
	}
	for _, x := range res.Diff {
		if m&Min != 0 {
			smaller := difference(res.Fail, []int{x})
			if o.outcome(smaller) == Fail {
				t.Fatalf("not 1-minimal: %v still fails without %d", res.Fail, x)
			}
		}
		if m&Max != 0 {
			larger := union(res.Pass, []int{x})
			if o.outcome(larger) == Pass {
				t.Fatalf("not 1-maximal: %v still passes with %d", res.Pass, x)
			}
		}
	}
}

func TestProperties(t *testing.T) {
	for seed := uint64(0); seed < 200; seed++ {
		n := 1 + int(seed*7%97)
		o := newOracle(seed, n, []uint64{0, 3, 11}[seed%3])
		for _, m := range []Mode{Min, Max, Diff} {
			res, err := DD(context.Background(), allIndices(n), o.test, m, Config{})
			if err != nil {
				t.Fatalf("seed %d mode %v: %v", seed, m, err)
			}
			checkResult(t, o, m, res)
			if m == Min && o.noise == 0 && !slices.Equal(res.Fail, o.need) {
				t.Errorf("seed %d: monotone oracle minimized to %v, want exactly %v", seed, res.Fail, o.need)
			}
		}
		res, err := DDMin(context.Background(), allIndices(n), o.test, Config{})
		if err != nil {
			t.Fatalf("seed %d ddmin: %v", seed, err)
		}
		checkResult(t, o, Min, res)
	}
}

// TestWorkers checks that parallel evaluation gives the sequential result
// for every worker count, and that one worker runs exactly the sequential
// algorithm's tests in the same order.
func TestWorkers(t *testing.T) {
	for seed := uint64(0); seed < 60; seed++ {
		n := 5 + int(seed*13%120)
		o := newOracle(seed, n, 7)
		for _, m := range []Mode{Min, Max, Diff} {
			var seq [][]int
			var mu sync.Mutex
			logged := func(ctx context.Context, c []int) Outcome {
				mu.Lock()
				seq = append(seq, slices.Clone(c))
				mu.Unlock()
				return o.test(ctx, c)
			}
			want, err := DD(context.Background(), allIndices(n), logged, m, Config{})
			if err != nil {
				t.Fatal(err)
			}
			sequential := seq
			seq = nil
			one, err := DD(context.Background(), allIndices(n), logged, m, Config{Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.EqualFunc(seq, sequential, slices.Equal) || one.Tests != want.Tests {
				t.Fatalf("seed %d %v: one worker ran another sequence of tests", seed, m)
			}
			for _, w := range []int{2, 3, 8} {
				got, err := DD(context.Background(), allIndices(n), o.test, m, Config{Workers: w})
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got.Fail, want.Fail) || !slices.Equal(got.Pass, want.Pass) {
					t.Fatalf("seed %d %v workers %d: got pass %v fail %v, sequential gives %v %v",
						seed, m, w, got.Pass, got.Fail, want.Pass, want.Fail)
				}
				if got.Tests < want.Tests {
					t.Fatalf("seed %d %v workers %d: %d tests, fewer than sequential %d", seed, m, w, got.Tests, want.Tests)
				}
			}
		}
	}
}

// TestConcurrency checks that workers really run tests at the same time
// and never more than asked: each test waits a little for company.
func TestConcurrency(t *testing.T) {
	var running, peak atomic.Int32
	o := newOracle(3, 64, 0)
	test := func(ctx context.Context, c []int) Outcome {
		cur := running.Add(1)
		defer running.Add(-1)
		for p := peak.Load(); cur > p && !peak.CompareAndSwap(p, cur); p = peak.Load() {
		}
		for deadline := time.Now().Add(5 * time.Millisecond); running.Load() < 2 && time.Now().Before(deadline) && ctx.Err() == nil; {
			time.Sleep(100 * time.Microsecond)
		}
		return o.outcome(c)
	}
	if _, err := DD(context.Background(), allIndices(64), test, Min, Config{Workers: 3}); err != nil {
		t.Fatal(err)
	}
	if p := peak.Load(); p < 2 || p > 3 {
		t.Errorf("at most %d tests ran at once with 3 workers, want 2 or 3", p)
	}
}

// TestCancel checks that cancellation returns the best failing input found
// so far with an error that says why.
func TestCancel(t *testing.T) {
	o := newOracle(5, 80, 0)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	count := 0
	var last Progress
	test := func(ctx context.Context, c []int) Outcome {
		count++
		if count == 12 {
			cancel()
		}
		return o.outcome(c)
	}
	res, err := DD(ctx, allIndices(80), test, Min, Config{OnProgress: func(p Progress) { last = p }})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got error %v, want context.Canceled", err)
	}
	if o.outcome(res.Fail) != Fail || len(res.Fail) >= 80 {
		t.Errorf("cancelled run returned %v, want a smaller failing input", res.Fail)
	}
	if !slices.Equal(last.Fail, res.FailIdx) {
		t.Errorf("last progress %v differs from the result %v", last.Fail, res.FailIdx)
	}
}

func TestErrors(t *testing.T) {
	pass := func(context.Context, []byte) Outcome { return Pass }
	fail := func(context.Context, []byte) Outcome { return Fail }
	if _, err := DD(context.Background(), []byte("abc"), pass, Min, Config{}); !errors.Is(err, ErrNotFailing) {
		t.Errorf("min on a passing input: %v, want ErrNotFailing", err)
	}
	if _, err := DDMin(context.Background(), []byte("abc"), pass, Config{}); !errors.Is(err, ErrNotFailing) {
		t.Errorf("ddmin on a passing input: %v, want ErrNotFailing", err)
	}
	if _, err := DD(context.Background(), []byte("abc"), fail, Max, Config{}); !errors.Is(err, ErrNotPassing) {
		t.Errorf("max with a failing empty input: %v, want ErrNotPassing", err)
	}
	// Minimizing when even the empty input fails gives the empty input.
	res, err := DD(context.Background(), []byte("abc"), fail, Min, Config{})
	if err != nil || len(res.Fail) != 0 {
		t.Errorf("min with a failing empty input: %q, %v; want empty", res.Fail, err)
	}
	if _, err := DD(context.Background(), []byte("abc"), fail, Diff, Config{Pass: []int{2, 1}}); err == nil {
		t.Errorf("unsorted initial pass set accepted")
	}
}

// TestCache checks memoization: no candidate is tested twice.
func TestCache(t *testing.T) {
	o := newOracle(9, 50, 5)
	seen := map[string]bool{}
	test := func(_ context.Context, c []int) Outcome {
		k := string(fmtInts(c))
		if seen[k] {
			t.Fatalf("candidate %v tested twice", c)
		}
		seen[k] = true
		return o.outcome(c)
	}
	res, err := DD(context.Background(), allIndices(50), test, Diff, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Tests != len(seen) {
		t.Errorf("stats count %d tests, %d ran", res.Tests, len(seen))
	}
}

func fmtInts(c []int) []byte {
	var b []byte
	for _, x := range c {
		b = append(b, byte(x), byte(x>>8), ',')
	}
	return b
}

func FuzzDD(f *testing.F) {
	f.Add(uint64(1), uint8(20), uint8(0), uint8(3))
	f.Add(uint64(7), uint8(64), uint8(1), uint8(0))
	f.Add(uint64(42), uint8(3), uint8(2), uint8(2))
	f.Fuzz(func(t *testing.T, seed uint64, n, mode, noise uint8) {
		size := 1 + int(n)%150
		o := newOracle(seed, size, uint64(noise%8))
		m := []Mode{Min, Max, Diff}[mode%3]
		res, err := DD(context.Background(), allIndices(size), o.test, m, Config{Workers: 1 + int(seed%3)})
		if err != nil {
			t.Fatal(err)
		}
		checkResult(t, o, m, res)
	})
}
