package reduce

import (
	"context"
	"crypto/sha256"
	"fmt"
	"sync"
)

// probe is one candidate of a round: the index set to test, the outcome
// that makes the algorithm take it, and (for dd) the step it stands for.
type probe struct {
	set  []int
	want Outcome
	step step
	i    int
}

// engine runs tests for the algorithms: it memoizes outcomes, counts
// tests, calls the hooks, and evaluates a round's probes concurrently.
type engine[E any] struct {
	input []E
	test  Test[E]
	cfg   Config

	mu    sync.Mutex // serializes hooks and guards stats
	stats Stats
	cache map[string]Outcome
}

func newEngine[E any](input []E, test Test[E], cfg Config) *engine[E] {
	return &engine[E]{input: input, test: test, cfg: cfg, cache: make(map[string]Outcome)}
}

// key identifies a candidate: the bit set of its indices, hashed when the
// input is long.
func (e *engine[E]) key(set []int) string {
	bits := make([]byte, (len(e.input)+7)/8)
	for _, i := range set {
		bits[i/8] |= 1 << (i % 8)
	}
	if len(bits) <= sha256.Size {
		return string(bits)
	}
	sum := sha256.Sum256(bits)
	return string(sum[:])
}

func (e *engine[E]) progress(pass, fail []int) {
	if e.cfg.OnProgress == nil {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.cfg.OnProgress(Progress{Pass: append([]int{}, pass...), Fail: append([]int{}, fail...)})
}

// lookup returns a memoized outcome and counts the hit.
func (e *engine[E]) lookup(key string, size int) (Outcome, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	out, ok := e.cache[key]
	if ok {
		e.stats.CacheHits++
		if e.cfg.OnTest != nil {
			e.cfg.OnTest(TestEvent{Size: size, Outcome: out, Cached: true})
		}
	}
	return out, ok
}

// record stores the outcome of a test that ran to completion.
func (e *engine[E]) record(key string, size int, out Outcome) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.stats.Tests++
	e.cache[key] = out
	if e.cfg.OnTest != nil {
		e.cfg.OnTest(TestEvent{Number: e.stats.Tests, Size: size, Outcome: out})
	}
}

// run tests one candidate. It reports ok=false when ctx was cancelled
// before the test completed; the outcome is then meaningless.
func (e *engine[E]) run(ctx context.Context, set []int) (Outcome, bool) {
	out := e.test(ctx, pick(e.input, set))
	if ctx.Err() != nil {
		return 0, false
	}
	switch out {
	case Pass, Fail, Unresolved:
	default:
		panic(fmt.Sprintf("reduce: test returned invalid outcome %d", int(out)))
	}
	return out, true
}

// outcome tests a single candidate, using the cache.
func (e *engine[E]) outcome(ctx context.Context, set []int) (Outcome, error) {
	if err := ctx.Err(); err != nil {
		return 0, fmt.Errorf("reduce: %w", err)
	}
	key := e.key(set)
	if out, ok := e.lookup(key, len(set)); ok {
		return out, nil
	}
	out, ok := e.run(ctx, set)
	if !ok {
		return 0, fmt.Errorf("reduce: %w", ctx.Err())
	}
	e.record(key, len(set), out)
	return out, nil
}

// first returns the index of the first of the round's n probes, in
// order, whose outcome is the one it wants, and that probe, or -1 if
// there is none. at builds the k-th probe; first calls it only for the
// probes it considers, so that a round whose first probes succeed costs
// no more than them. With more than one worker it tests later probes
// speculatively while earlier ones run, but still decides in order, so
// the answer does not depend on the number of workers; speculative tests
// still running at the decision are cancelled.
func (e *engine[E]) first(ctx context.Context, n int, at func(k int) probe) (int, probe, error) {
	if e.cfg.NoCache {
		// Memoize within the round only: a round may list a candidate twice.
		defer func() {
			e.mu.Lock()
			clear(e.cache)
			e.mu.Unlock()
		}()
	}
	workers := max(e.cfg.Workers, 1)
	type built struct {
		p   probe
		key string
	}
	probes := map[int]built{} // the probes considered so far
	get := func(k int) built {
		b, ok := probes[k]
		if !ok {
			b.p = at(k)
			b.key = e.key(b.p.set)
			probes[k] = b
		}
		return b
	}

	type done struct {
		key  string
		size int
		out  Outcome
		ok   bool
	}
	results := make(chan done)
	running := make(map[string]context.CancelFunc)
	fresh := make(map[string]bool) // run in this round, not yet looked at
	defer func() {
		// Cancel and drain speculative tests that are no longer needed.
		for _, cancel := range running {
			cancel()
		}
		for range running {
			<-results
		}
	}()

	launched := make(map[string]bool)
	next := 0 // the next probe to consider launching
	launch := func() {
		for ; next < n && len(running) < workers; next++ {
			b := get(next)
			k := b.key
			if launched[k] {
				continue
			}
			e.mu.Lock()
			_, known := e.cache[k]
			e.mu.Unlock()
			if known {
				continue
			}
			launched[k] = true
			tctx, cancel := context.WithCancel(ctx)
			running[k] = cancel
			set := b.p.set
			go func() {
				out, ok := e.run(tctx, set)
				results <- done{k, len(set), out, ok}
			}()
		}
	}

	for i := 0; i < n; i++ {
		b := get(i)
		p, key := b.p, b.key
		for {
			if fresh[key] {
				delete(fresh, key)
				e.mu.Lock()
				out := e.cache[key]
				e.mu.Unlock()
				if out == p.want {
					return i, p, nil
				}
				break
			}
			if out, ok := e.lookup(key, len(p.set)); ok {
				if out == p.want {
					return i, p, nil
				}
				break
			}
			if next <= i {
				next = i // launch this probe first
			}
			launch()
			if len(running) == 0 {
				panic("reduce: internal error: no test running for an unknown outcome")
			}
			select {
			case d := <-results:
				running[d.key]()
				delete(running, d.key)
				if !d.ok {
					return -1, probe{}, fmt.Errorf("reduce: %w", ctx.Err())
				}
				e.record(d.key, d.size, d.out)
				fresh[d.key] = true
			case <-ctx.Done():
				return -1, probe{}, fmt.Errorf("reduce: %w", ctx.Err())
			}
		}
		delete(probes, i) // looked at: not needed again
	}
	return -1, probe{}, nil
}
