package command

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"sync"

	"github.com/culprit-go/culprit/reduce"
)

// key identifies a candidate by its content.
type key [sha256.Size]byte

// keyOf hashes the files of a candidate: their paths, modes and contents.
func keyOf(files []File) key {
	h := sha256.New()
	var n [8]byte
	for _, f := range files {
		binary.LittleEndian.PutUint64(n[:], uint64(len(f.Path)))
		h.Write(n[:])
		h.Write([]byte(f.Path))
		binary.LittleEndian.PutUint64(n[:], uint64(len(f.Data)))
		h.Write(n[:])
		h.Write(f.Data)
	}
	var k key
	h.Sum(k[:0])
	return k
}

// cache memoizes outcomes by candidate content, across levels and sweeps.
// A candidate being tested is tested once: concurrent askers wait for it.
type cache struct {
	mu     sync.Mutex
	done   map[key]reduce.Outcome
	flight map[key]chan struct{}
}

func newCache() *cache {
	return &cache{done: map[key]reduce.Outcome{}, flight: map[key]chan struct{}{}}
}

// get returns the cached outcome of k (hit is true), or, if nobody is
// testing k, claims it: the caller must test it and call put.
func (c *cache) get(ctx context.Context, k key) (o reduce.Outcome, hit bool, err error) {
	for {
		c.mu.Lock()
		if o, ok := c.done[k]; ok {
			c.mu.Unlock()
			return o, true, nil
		}
		wait, busy := c.flight[k]
		if !busy {
			c.flight[k] = make(chan struct{})
			c.mu.Unlock()
			return 0, false, nil
		}
		c.mu.Unlock()
		select {
		case <-wait:
		case <-ctx.Done():
			return 0, false, ctx.Err()
		}
	}
}

// put records the outcome of a claimed key; a zero outcome (a cancelled
// test) releases the claim without recording anything.
func (c *cache) put(k key, o reduce.Outcome) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if o != 0 {
		c.done[k] = o
	}
	close(c.flight[k])
	delete(c.flight, k)
}

// known reports whether the outcome of k is recorded.
func (c *cache) known(k key) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.done[k]
	return ok
}
