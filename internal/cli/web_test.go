package cli_test

import (
	"bytes"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/culprit-go/culprit/internal/cli"
)

// lockedBuffer is a buffer the command writes while the test reads it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestWebRankDiagnosis runs culprit rank -http on a copy of the middle
// example, as a user would, and checks that the view's ranking page is
// the diagnosis (return y first, with the evidence of its spectrum, its
// slice and its mutants), that the single metric's ranking is a tab away
// and that the source view has the failing run's slice (the view's
// trace has every event); then interrupts it as Ctrl-C does.
func TestWebRankDiagnosis(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the tests, slices and mutants of an example")
	}
	dir := t.TempDir()
	for _, f := range []string{"go.mod", "middle/middle.go", "middle/middle_test.go"} {
		data, err := os.ReadFile(filepath.Join("..", "..", "examples", f))
		if err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(filepath.Join(dir, filepath.Dir(f)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)

	var stdout, stderr lockedBuffer
	done := make(chan int, 1)
	go func() {
		done <- cli.Main([]string{"rank", "-http", "localhost:0", "./middle"}, strings.NewReader(""), &stdout, &stderr)
	}()
	serving := regexp.MustCompile(`serving the web view of .* on (http://\S+/)`)
	var url string
	for deadline := time.Now().Add(4 * time.Minute); url == "" && time.Now().Before(deadline); {
		select {
		case status := <-done:
			t.Fatalf("culprit rank -http returned %d before serving:\n%s", status, stderr.String())
		case <-time.After(200 * time.Millisecond):
		}
		if m := serving.FindStringSubmatch(stderr.String()); m != nil {
			url = m[1]
		}
	}
	if url == "" {
		t.Fatalf("culprit rank -http did not serve in 4 minutes:\n%s", stderr.String())
	}
	page := func(path string) string {
		t.Helper()
		resp, err := http.Get(url + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 {
			t.Fatalf("GET %s: %s\n%s", path, resp.Status, body)
		}
		return string(body)
	}
	rank := page("rank")
	_, table, _ := strings.Cut(rank, `<table class="rank diag"`)
	_, rows, _ := strings.Cut(table, "<tbody>")
	first, _, _ := strings.Cut(rows, "</tr>")
	for _, w := range []string{"Ranking: diagnosis", "TestMiddle/2_1_3", `href="/rank?by=metric"`, "mutants ("} {
		if !strings.Contains(rank, w) {
			t.Errorf("/rank: no %q in\n%s", w, rank)
		}
	}
	for _, w := range []string{"middle/middle.go:12</a>", "return y // the defect", "stmt 0.71 (1F 1P); in slice 1/1; mutants "} {
		if !strings.Contains(first, w) {
			t.Errorf("/rank's first row: no %q in\n%s", w, first)
		}
	}
	if metric := page("rank?by=metric"); !strings.Contains(metric, "Metric ochiai") {
		t.Errorf("/rank?by=metric: not the ochiai ranking:\n%s", metric)
	}
	if src := page("source"); !strings.Contains(src, `class="slice`) {
		t.Errorf("/source: no slice of the failing run:\n%s", src)
	}

	syscall.Kill(os.Getpid(), syscall.SIGINT) // Main stops serving on Ctrl-C
	select {
	case status := <-done:
		if status != 0 {
			t.Errorf("culprit rank -http: status %d after Ctrl-C:\n%s", status, stderr.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("culprit rank -http did not stop on Ctrl-C")
	}
	if stdout.String() != "" {
		t.Errorf("culprit rank -http printed the ranking too:\n%s", stdout.String())
	}
}
