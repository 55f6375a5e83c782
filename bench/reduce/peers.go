package main

// The peers mode: culprit reduce against C-Vise and C-Reduce on the same
// inputs with the same interestingness scripts.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// A peerCase is an input file and the shell script that says whether a
// candidate (in the script's working directory, under the same name) is
// interesting.
type peerCase struct {
	name, file string
	data       []byte
	script     string
	notC       bool
}

// peerResult is one tool's outcome on one case.
type peerResult struct {
	tool    string
	bytes   int
	tests   int
	seconds float64
	note    string
}

// injected is the compile error put into the Go file: the benchmark's
// oracle is "go build fails with this message".
const injected = "undefined: frameHelperGone"

// peerCases fetches the real inputs through the module proxy and builds
// the cases.
func peerCases() ([]peerCase, error) {
	errorsDir, err := moduleDir("github.com/pkg/errors@latest")
	if err != nil {
		return nil, err
	}
	stack, err := os.ReadFile(filepath.Join(errorsDir, "stack.go"))
	if err != nil {
		return nil, err
	}
	const anchor = "func (f Frame) line() int {\n"
	if !strings.Contains(string(stack), anchor) {
		return nil, errors.New("github.com/pkg/errors stack.go changed: no Frame.line to inject the error into")
	}
	stack = []byte(strings.Replace(string(stack), anchor, anchor+"\t_ = frameHelperGone(f)\n", 1))

	// A file that does not parse: go/printer's nodes.go (54 KB) with a
	// map type missing its element type, which gofmt -e reports.
	nodes, err := os.ReadFile(filepath.Join(runtime.GOROOT(), "src", "go", "printer", "nodes.go"))
	if err != nil {
		return nil, err
	}
	const nodesAnchor = "func (p *printer) expr1("
	if !strings.Contains(string(nodes), nodesAnchor) {
		return nil, errors.New("go/printer nodes.go changed: no expr1 to put the syntax error before")
	}
	nodes = []byte(strings.Replace(string(nodes), nodesAnchor, "var brokenTable map[string]\n\n"+nodesAnchor, 1))

	// An unused variable in a real module file, the compiler's "declared
	// and not used"; the strict oracle also demands that it be the only
	// error, which a result that breaks the rest of the package is not.
	unused := []byte(strings.Replace(string(stack), anchor, anchor+"\tunusedProbe := 1\n", 1))
	unused = []byte(strings.Replace(string(unused), "\t_ = frameHelperGone(f)\n", "", 1))
	build := func(grep string) string {
		return `d=$(mktemp -d)
cp stack.go "$d/" && printf 'module m\ngo 1.21\n' > "$d/go.mod"
out=$(cd "$d" && go build . 2>&1)
rm -rf "$d"
` + grep
	}

	jsonDir, err := moduleDir("github.com/valyala/fastjson@latest")
	if err != nil {
		return nil, err
	}
	large, err := os.ReadFile(filepath.Join(jsonDir, "testdata", "large.json"))
	if err != nil {
		return nil, err
	}
	return []peerCase{
		{
			name: "go: pkg/errors stack.go + compile error",
			file: "stack.go",
			data: stack,
			script: `d=$(mktemp -d)
cp stack.go "$d/" && printf 'module m\ngo 1.21\n' > "$d/go.mod"
out=$(cd "$d" && go build . 2>&1)
rm -rf "$d"
echo "$out" | grep -q '` + injected + `'
`,
			notC: true,
		},
		{
			name: "go: printer nodes.go, syntax error (gofmt)",
			file: "nodes.go",
			data: nodes,
			script: `gofmt -e nodes.go 2>&1 | grep -q 'expected type'
`,
			notC: true,
		},
		{
			name: "go: pkg/errors stack.go + unused variable",
			file: "stack.go",
			data: unused,
			script: build(`echo "$out" | grep -q 'declared and not used: unusedProbe'
`),
			notC: true,
		},
		{
			name: "go: the same, and no other error",
			file: "stack.go",
			data: unused,
			script: build(`echo "$out" | grep -q 'declared and not used: unusedProbe' && test "$(echo "$out" | grep -c '^\./')" = 1
`),
			notC: true,
		},
		{
			name: "json: fastjson large.json, one value",
			file: "large.json",
			data: large,
			script: `python3 -c '
import json, sys
def walk(v):
    if isinstance(v, dict):
        if v.get("username") == "zergot" and v.get("id") == 89:
            sys.exit(0)
        for w in v.values(): walk(w)
    elif isinstance(v, list):
        for w in v: walk(w)
try:
    walk(json.load(open("large.json")))
except Exception:
    pass
sys.exit(1)
'
`,
			notC: true,
		},
		{
			name: "c: ring buffer + gcc warning",
			file: "ring.c",
			data: []byte(cProgram),
			script: `gcc -c -Wall -o /dev/null ring.c 2>&1 | grep -q 'warning: division by zero'
`,
		},
	}, nil
}

// moduleDir downloads a module through the proxy and returns its directory.
func moduleDir(mod string) (string, error) {
	out, err := exec.Command("go", "mod", "download", "-json", mod).Output()
	if err != nil {
		return "", fmt.Errorf("go mod download %s: %w", mod, err)
	}
	var info struct{ Dir string }
	if err := json.Unmarshal(out, &info); err != nil || info.Dir == "" {
		return "", fmt.Errorf("go mod download %s: no directory in %q", mod, out)
	}
	return info.Dir, nil
}

// ensurePeers installs C-Vise and C-Reduce from Debian packages when they
// are missing and returns the tools found.
func ensurePeers() map[string]bool {
	have := map[string]bool{}
	missing := false
	for _, t := range []string{"cvise", "creduce"} {
		if _, err := exec.LookPath(t); err == nil {
			have[t] = true
		} else {
			missing = true
		}
	}
	if missing {
		fmt.Fprintln(os.Stderr, "bench: installing cvise and creduce (apt-get install -y cvise creduce)")
		cmd := exec.Command("apt-get", "install", "-y", "cvise", "creduce")
		if out, err := cmd.CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "bench: apt-get failed (%v); the missing peers are skipped:\n%s\n", err, lastLines(string(out), 3))
		}
		for _, t := range []string{"cvise", "creduce"} {
			if _, err := exec.LookPath(t); err == nil {
				have[t] = true
			} else {
				fmt.Fprintf(os.Stderr, "bench: %s not available: skipped\n", t)
			}
		}
	}
	return have
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(len(lines)-n, 0):], "\n")
}

// peers runs every tool on every case and prints the table.
func peers(jobs int, limit time.Duration, only string) error {
	have := ensurePeers()
	cases, err := peerCases()
	if err != nil {
		return err
	}
	tmp, culprit, err := buildCulprit("culprit-peers-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	fmt.Printf("culprit reduce vs C-Vise and C-Reduce: %s/%s, %d CPUs, %s, %s, %d jobs each, limit %v per run\n\n",
		runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.Version(), time.Now().Format("2006-01-02"), jobs, limit)
	fmt.Printf("| %-40s | %-8s | %8s | %6s | %8s | %7s | %7s | %7s |\n", "input", "tool", "bytes", "tests", "seconds", "bytes/cv", "tests/cv", "time/cv")
	fmt.Printf("|%s|%s|%s|%s|%s|%s|%s|%s|\n", strings.Repeat("-", 42), strings.Repeat("-", 10), strings.Repeat("-", 10), strings.Repeat("-", 8), strings.Repeat("-", 10), strings.Repeat("-", 10), strings.Repeat("-", 10), strings.Repeat("-", 9))
	tools := []string{"culprit", "cvise", "creduce"}
	for i, c := range cases {
		if only != "" && !strings.HasPrefix(c.name, only) {
			continue
		}
		var results []peerResult
		for _, tool := range tools {
			if tool != "culprit" && !have[tool] {
				continue
			}
			dir := filepath.Join(tmp, fmt.Sprintf("case%d-%s", i, tool))
			res, err := runPeer(tool, culprit, dir, c, jobs, limit)
			if err != nil {
				res = peerResult{tool: tool, note: err.Error()}
			}
			results = append(results, res)
		}
		var cv *peerResult
		for k := range results {
			if results[k].tool == "cvise" {
				cv = &results[k]
			}
		}
		for _, r := range results {
			ratio := func(a, b float64) string {
				if cv == nil || b == 0 {
					return "-"
				}
				return fmt.Sprintf("%.2f", a/b)
			}
			row := fmt.Sprintf("| %-40s | %-8s | %8d | %6d | %8.1f |", c.name, r.tool, r.bytes, r.tests, r.seconds)
			if cv != nil {
				row += fmt.Sprintf(" %8s | %8s | %7s |", ratio(float64(r.bytes), float64(cv.bytes)), ratio(float64(r.tests), float64(cv.tests)), ratio(r.seconds, cv.seconds))
			} else {
				row += "        - |        - |       - |"
			}
			if r.note != "" {
				row += " " + r.note
			}
			fmt.Println(row)
		}
	}
	fmt.Printf("\n(original sizes:")
	for _, c := range cases {
		fmt.Printf(" %s %d bytes;", c.file, len(c.data))
	}
	fmt.Println(")")
	return nil
}

// runPeer runs one tool on one case in dir and measures it. Tests are
// counted by the script itself, so every tool is counted the same way
// (culprit's count includes its run of the original).
func runPeer(tool, culprit, dir string, c peerCase, jobs int, limit time.Duration) (peerResult, error) {
	res := peerResult{tool: tool}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return res, err
	}
	input := filepath.Join(dir, c.file)
	if err := os.WriteFile(input, c.data, 0o644); err != nil {
		return res, err
	}
	counter := filepath.Join(dir, "tests.count")
	script := filepath.Join(dir, "interesting.sh")
	body := "#!/bin/sh\necho >> '" + counter + "'\n" + c.script
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		return res, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	var cmd *exec.Cmd
	result := input
	switch tool {
	case "culprit":
		result = input + ".reduced"
		cmd = exec.CommandContext(ctx, culprit, "reduce", "-jobs", fmt.Sprint(jobs), "-test", script, input)
	case "cvise", "creduce":
		args := []string{"--n", fmt.Sprint(jobs)}
		if c.notC {
			args = append(args, "--not-c")
		}
		if tool == "cvise" {
			args = append(args, "--timeout", "60")
		}
		// Both want the test case in the working directory.
		cmd = exec.CommandContext(ctx, tool, append(args, script, c.file)...)
	}
	cmd.Dir = dir
	cmd.WaitDelay = 5 * time.Second
	start := time.Now()
	out, err := cmd.CombinedOutput()
	res.seconds = time.Since(start).Seconds()
	if ctx.Err() != nil {
		res.note = fmt.Sprintf("stopped at the %v limit", limit)
	} else if err != nil {
		res.note = fmt.Sprintf("failed: %v: %s", err, lastLines(string(out), 2))
	}
	final, ferr := os.ReadFile(result)
	if ferr != nil {
		return res, fmt.Errorf("%s: no result: %w", tool, ferr)
	}
	res.bytes = len(final)
	if counts, err := os.ReadFile(counter); err == nil {
		res.tests = strings.Count(string(counts), "\n")
	}
	if os.Getenv("CULPRIT_BENCH_SHOW") != "" {
		fmt.Fprintf(os.Stderr, "--- %s %s:\n%s\n", tool, c.name, final)
	}
	return res, nil
}

// cProgram is the C input: a ring buffer with statistics, whose average
// divides by a constant zero, which gcc reports as a warning.
const cProgram = `#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RING_SIZE 16

struct ring {
	int data[RING_SIZE];
	unsigned head, tail, count;
	const char *name;
};

static void ring_init(struct ring *r, const char *name)
{
	memset(r->data, 0, sizeof r->data);
	r->head = r->tail = r->count = 0;
	r->name = name;
}

static int ring_push(struct ring *r, int v)
{
	if (r->count == RING_SIZE)
		return -1;
	r->data[r->tail] = v;
	r->tail = (r->tail + 1) % RING_SIZE;
	r->count++;
	return 0;
}

static int ring_pop(struct ring *r, int *v)
{
	if (r->count == 0)
		return -1;
	*v = r->data[r->head];
	r->head = (r->head + 1) % RING_SIZE;
	r->count--;
	return 0;
}

static int ring_sum(const struct ring *r)
{
	int sum = 0;
	unsigned i, k;
	for (i = 0, k = r->head; i < r->count; i++, k = (k + 1) % RING_SIZE)
		sum += r->data[k];
	return sum;
}

static int ring_average(const struct ring *r)
{
	const int buckets = 0;
	int sum = ring_sum(r);
	if (r->count == 0)
		return 0;
	return sum / 0 + buckets;
}

static void ring_print(const struct ring *r)
{
	unsigned i, k;
	printf("%s [%u]:", r->name, r->count);
	for (i = 0, k = r->head; i < r->count; i++, k = (k + 1) % RING_SIZE)
		printf(" %d", r->data[k]);
	printf("\n");
}

int main(int argc, char **argv)
{
	struct ring r;
	int i, v;
	ring_init(&r, argc > 1 ? argv[1] : "ring");
	for (i = 0; i < 20; i++) {
		if (ring_push(&r, i * i) < 0) {
			fprintf(stderr, "full at %d\n", i);
			break;
		}
	}
	ring_print(&r);
	while (r.count > 8 && ring_pop(&r, &v) == 0)
		printf("popped %d\n", v);
	printf("sum %d, average %d\n", ring_sum(&r), ring_average(&r));
	return EXIT_SUCCESS;
}
`
