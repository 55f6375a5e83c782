package cli

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestWatchTrace: the slicing run's context is cancelled once the trace
// directory holds more than the bound, and the watch says by how much.
func TestWatchTrace(t *testing.T) {
	dir := t.TempDir()
	ctx, over := watchTrace(context.Background(), dir, 1000)
	if err := os.WriteFile(filepath.Join(dir, "sites"), make([]byte, 600), 0o644); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	if ctx.Err() != nil {
		t.Fatal("cancelled under the bound")
	}
	if err := os.WriteFile(filepath.Join(dir, "events-new"), make([]byte, 600), 0o644); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("not cancelled over the bound")
	}
	if n := over(); n != 1200 {
		t.Errorf("over() = %d, want the size that passed the bound, 1200", n)
	}

	// A run that ends under the bound: nothing to say, and the watch
	// stops.
	ctx, over = watchTrace(context.Background(), t.TempDir(), 1000)
	if n := over(); n != 0 {
		t.Errorf("over() = %d under the bound, want 0", n)
	}
	if ctx.Err() == nil {
		t.Error("the run's context is still live after the watch stopped")
	}
}
