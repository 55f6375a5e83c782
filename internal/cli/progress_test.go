package cli

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer the progress goroutine and the test share.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestProgress checks that the progress line is rewritten in place (a
// shorter line blanks what the longer one left) and erased at the end.
func TestProgress(t *testing.T) {
	var w syncBuffer
	lines := []string{"culprit: slice: running: 1s, trace 12.0 MB", "culprit: slice: short"}
	n := 0
	stop := startProgress(&w, time.Millisecond, func(time.Duration) string {
		s := lines[min(n, 1)]
		n++
		return s
	})
	for !strings.Contains(w.String(), "short") {
		time.Sleep(time.Millisecond)
	}
	stop()
	stop() // a second call does nothing
	got := w.String()
	first := "\r" + lines[0]
	if !strings.HasPrefix(got, first) {
		t.Fatalf("progress starts %q, want %q", got, first)
	}
	blanked := "\r" + lines[1] + strings.Repeat(" ", len(lines[0])-len(lines[1]))
	if !strings.Contains(got, blanked) {
		t.Errorf("the shorter line does not blank the longer one's end: %q", got)
	}
	erase := "\r" + strings.Repeat(" ", len(lines[1])) + "\r"
	if !strings.HasSuffix(got, erase) {
		t.Errorf("progress ends %q, want the line erased %q", got[max(len(got)-60, 0):], erase)
	}
}

func TestByteSize(t *testing.T) {
	for _, c := range []struct {
		n    int64
		want string
	}{
		{0, "0 B"},
		{999, "999 B"},
		{1000, "1.0 kB"},
		{12_345_678, "12.3 MB"},
		{128 << 20, "134.2 MB"},
		{13e9, "13.0 GB"},
	} {
		if got := byteSize(c.n); got != c.want {
			t.Errorf("byteSize(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}

func TestRoundTime(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want string
	}{
		{time.Nanosecond, "1ns"},
		{1234567 * time.Nanosecond, "1ms"},
		{1500 * time.Millisecond, "2s"},
		{autoLimit(3 * time.Second), "1m30s"},
	} {
		if got := roundTime(c.d).String(); got != c.want {
			t.Errorf("roundTime(%v) = %s, want %s", c.d, got, c.want)
		}
	}
}
