package main

// The peers mode: culprit reduce against C-Vise and C-Reduce on the same
// inputs with the same interestingness scripts.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/format"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"
)

// A peerCase is an input (one file, or the Go files of a package) and the
// shell script that says whether a candidate, in the script's working
// directory under the same names, is interesting.
type peerCase struct {
	name   string
	files  map[string][]byte
	script string // "$MOD" in it is the case's module copy, quoted
	notC   bool
	module *caseModule
	// run, for a package: culprit reduces it in package mode,
	// culprit reduce -run RUN, instead of through the script.
	run string
}

// A caseModule is a real module the script builds or tests, copied from
// the module cache with the injected files; the candidate's files reach
// the go command through -overlay, in place of the package's.
type caseModule struct {
	src   string            // the module's directory in the module cache
	path  string            // module path for a go.mod when src has none
	pkg   string            // the package's directory in the module ("." for the root)
	edits map[string][]byte // files of the module (slash paths) replaced
	dir   string            // the copy, set by prepare
}

// peerResult is one tool's outcome on one case.
type peerResult struct {
	tool    string
	bytes   int
	gofmt   int // size after gofmt (-1: not Go, or does not parse)
	tests   int
	seconds float64
	load    string // 1-minute load average when the tool finished
	checked string // the final result re-run through the script: "yes" or "NO"
	note    string
}

// inject inserts add after anchor in text (once), or fails.
func inject(text []byte, anchor, add string) ([]byte, error) {
	if !strings.Contains(string(text), anchor) {
		return nil, fmt.Errorf("anchor %q not found: the file changed", anchor)
	}
	return []byte(strings.Replace(string(text), anchor, anchor+add, 1)), nil
}

// replace replaces old by repl in text (once), or fails.
func replace(text []byte, old, repl string) ([]byte, error) {
	if !strings.Contains(string(text), old) {
		return nil, fmt.Errorf("%q not found: the file changed", old)
	}
	return []byte(strings.Replace(string(text), old, repl, 1)), nil
}

// overlay is shell code that writes the -overlay file "$ov" mapping each
// of the package's files to the candidate's in the working directory, or
// to nothing (deleted) when the candidate has none.
func overlay(pkg string, names []string) string {
	return `ov=$(mktemp)
{ printf '{"Replace":{'; sep=
for f in ` + strings.Join(names, " ") + `; do
	if [ -f "$f" ]; then printf '%s"%s":"%s"' "$sep" "$MOD/` + pkg + `/$f" "$PWD/$f"; else printf '%s"%s":""' "$sep" "$MOD/` + pkg + `/$f"; fi
	sep=,
done
printf '}}'; } > "$ov"
`
}

// moduleCase is a case whose script runs the go command (goArgs, then
// -overlay and the package) in the module copy and greps its output.
func moduleCase(name string, m *caseModule, goArgs, grep string) peerCase {
	names := sortedKeys(m.edits)
	files := map[string][]byte{}
	for _, n := range names {
		files[filepath.Base(n)] = m.edits[n]
	}
	base := make([]string, len(names))
	for i, n := range names {
		base[i] = filepath.Base(n)
	}
	return peerCase{
		name:   name,
		files:  files,
		module: m,
		notC:   true,
		script: overlay(m.pkg, base) + `out=$(cd "$MOD" && go ` + goArgs + ` -overlay "$ov" ./` + m.pkg + ` 2>&1)
rm -f "$ov"
` + grep,
	}
}

// packageCase is a failing test of a real package: the peers get the
// package's Go files (tests included) and a script that runs go test -run
// with them; culprit runs in package mode. Interesting: the first failing
// test is test, and the output holds check.
func packageCase(name string, m *caseModule, test, check string) (peerCase, error) {
	ents, err := os.ReadDir(filepath.Join(m.src, m.pkg))
	if err != nil {
		return peerCase{}, err
	}
	files := map[string][]byte{}
	var names []string
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), ".go") || e.IsDir() {
			continue
		}
		rel := filepath.ToSlash(filepath.Join(m.pkg, e.Name()))
		data, ok := m.edits[rel]
		if !ok {
			if data, err = os.ReadFile(filepath.Join(m.src, m.pkg, e.Name())); err != nil {
				return peerCase{}, err
			}
		}
		files[e.Name()] = data
		names = append(names, e.Name())
	}
	run := "^" + test + "$"
	return peerCase{
		name:   name,
		files:  files,
		module: m,
		notC:   true,
		run:    run,
		script: overlay(m.pkg, names) + `out=$(cd "$MOD" && go test -count=1 -vet=off -overlay "$ov" -run '` + run + `' ./` + m.pkg + ` 2>&1)
rm -f "$ov"
echo "$out" | grep -m1 -e '^--- FAIL' | grep -q -e '^--- FAIL: ` + test + ` ' && echo "$out" | grep -qF -e "` + check + `"
`,
	}, nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// peerCases fetches the real inputs through the module proxy and builds
// the cases.
func peerCases() ([]peerCase, error) {
	errorsDir, err := moduleDir("github.com/pkg/errors@v0.9.1")
	if err != nil {
		return nil, err
	}
	xmod, err := moduleDir("golang.org/x/mod@v0.42.0")
	if err != nil {
		return nil, err
	}
	humanize, err := moduleDir("github.com/dustin/go-humanize@v1.1.0")
	if err != nil {
		return nil, err
	}
	uuid, err := moduleDir("github.com/google/uuid@v1.6.0")
	if err != nil {
		return nil, err
	}
	jsonDir, err := moduleDir("github.com/valyala/fastjson@v1.6.10")
	if err != nil {
		return nil, err
	}
	read := func(dir, name string) []byte {
		data, rerr := os.ReadFile(filepath.Join(dir, name))
		if rerr != nil && err == nil {
			err = rerr
		}
		return data
	}
	var ierr error
	inj := func(text []byte, anchor, add string) []byte {
		out, e := inject(text, anchor, add)
		if e != nil && ierr == nil {
			ierr = e
		}
		return out
	}
	rep := func(text []byte, old, repl string) []byte {
		out, e := replace(text, old, repl)
		if e != nil && ierr == nil {
			ierr = e
		}
		return out
	}

	// Inputs that do not parse. go/printer's nodes.go (54 KB) with a map
	// type missing its element type, which gofmt -e reports.
	nodes := rep(read(filepath.Join(runtime.GOROOT(), "src", "go", "printer"), "nodes.go"),
		"func (p *printer) expr1(", "var brokenTable map[string]\n\nfunc (p *printer) expr1(")
	// x/mod's modfile/read.go (24 KB) with a 3-index slice missing its
	// final index, which go vet (go/parser) reports.
	readGo := inj(read(xmod, "modfile/read.go"),
		"func (x *FileSyntax) updateLine(line *Line, tokens ...string) {\n", "\t_ = tokens[1:2:]\n")
	// x/mod's module/module.go (28 KB) with a composite literal missing
	// a comma, which go build (the compiler's parser) reports.
	moduleGo := inj(read(xmod, "module/module.go"),
		"func (e *ModuleError) Error() string {\n", "\tcodes := []int{\n\t\t1\n\t\t2,\n\t}\n\t_ = codes\n")

	// Type errors in real module files, go build of the module.
	const stackAnchor = "func (f Frame) line() int {\n"
	stack := read(errorsDir, "stack.go")
	undefined := inj(stack, stackAnchor, "\t_ = frameHelperGone(f)\n")
	unused := inj(stack, stackAnchor, "\tunusedProbe := 1\n")
	rule := inj(read(xmod, "modfile/rule.go"),
		"func (r *Require) setVersion(v string) {\n", "\tvar width int = v\n\t_ = width\n")

	// Failing tests: a bug injected into each package's code.
	errorsGo := rep(read(errorsDir, "errors.go"), `return w.msg + ": " + w.cause.Error()`, `return w.msg + "; " + w.cause.Error()`)
	ordinals := rep(read(humanize, "ordinals.go"), `suffix = "rd"`, `suffix = "nd"`)
	uuidGo := rep(read(uuid, "uuid.go"), "case (uuid[8] & 0xe0) == 0xe0:", "case (uuid[8] & 0xf0) == 0xe0:")

	large := read(jsonDir, "testdata/large.json")
	if err != nil {
		return nil, err
	}
	if ierr != nil {
		return nil, ierr
	}
	pkgErrors := func(file string, data []byte) *caseModule {
		return &caseModule{src: errorsDir, path: "github.com/pkg/errors", pkg: ".", edits: map[string][]byte{file: data}}
	}
	xmodFile := func(file string, data []byte) *caseModule {
		return &caseModule{src: xmod, pkg: filepath.Dir(file), edits: map[string][]byte{file: data}}
	}
	cases := []peerCase{
		{
			name:   "unparsable: go/printer nodes.go, gofmt",
			files:  map[string][]byte{"nodes.go": nodes},
			script: "gofmt -e nodes.go 2>&1 | grep -q 'expected type'\n",
			notC:   true,
		},
		moduleCase("unparsable: x/mod read.go, go vet", xmodFile("modfile/read.go", readGo), "vet",
			"echo \"$out\" | grep -q 'final index required in 3-index slice'\n"),
		moduleCase("unparsable: x/mod module.go, go build", xmodFile("module/module.go", moduleGo), "build",
			"echo \"$out\" | grep -q 'syntax error: unexpected newline in composite literal'\n"),
		moduleCase("type: pkg/errors stack.go, undefined", pkgErrors("stack.go", undefined), "build",
			"echo \"$out\" | grep -q 'undefined: frameHelperGone'\n"),
		moduleCase("type: pkg/errors stack.go, unused var", pkgErrors("stack.go", unused), "build",
			"echo \"$out\" | grep -q 'declared and not used: unusedProbe'\n"),
		moduleCase("type: the same, no other error", pkgErrors("stack.go", unused), "build",
			"echo \"$out\" | grep -q 'declared and not used: unusedProbe' && test \"$(echo \"$out\" | grep -c '\\.go:')\" = 1\n"),
		moduleCase("type: x/mod rule.go, cannot use", xmodFile("modfile/rule.go", rule), "build",
			"echo \"$out\" | grep -q 'cannot use v (variable of type string) as int value'\n"),
	}
	for _, p := range []struct {
		name        string
		m           *caseModule
		test, check string
	}{
		{"test: pkg/errors TestWrap", pkgErrors("errors.go", errorsGo), "TestWrap", "got: read error; EOF, want read error: EOF"},
		{"test: go-humanize TestOrdinals", &caseModule{src: humanize, pkg: ".", edits: map[string][]byte{"ordinals.go": ordinals}},
			"TestOrdinals", "expected '3rd', but got '3nd'"},
		{"test: google/uuid TestUUID", &caseModule{src: uuid, pkg: ".", edits: map[string][]byte{"uuid.go": uuidGo}},
			"TestUUID", "got 2 expected 4"},
	} {
		c, err := packageCase(p.name, p.m, p.test, p.check)
		if err != nil {
			return nil, err
		}
		cases = append(cases, c)
	}
	return append(cases,
		peerCase{
			name:  "json: fastjson large.json, one value",
			files: map[string][]byte{"large.json": large},
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
		peerCase{
			name:   "c: ring buffer, gcc warning",
			files:  map[string][]byte{"ring.c": []byte(cProgram)},
			script: "gcc -c -Wall -o /dev/null ring.c 2>&1 | grep -q 'warning: division by zero'\n",
		},
	), nil
}

// prepare copies the case's module into dir, writable, with a go.mod
// when it has none and the injected files.
func (m *caseModule) prepare(dir string) error {
	if err := os.CopyFS(dir, os.DirFS(m.src)); err != nil {
		return err
	}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		mode := fs.FileMode(0o644)
		if d.IsDir() {
			mode = 0o755
		}
		return os.Chmod(p, mode)
	})
	if err != nil {
		return err
	}
	if m.path != "" {
		if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module "+m.path+"\n\ngo 1.21\n"), 0o644); err != nil {
			return err
		}
	}
	for name, data := range m.edits {
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(name)), data, 0o644); err != nil {
			return err
		}
	}
	m.dir = dir
	return nil
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

// loadavg is the 1-minute load average.
func loadavg() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	return strings.Fields(string(data))[0]
}

// peers runs every tool on every case and prints the table.
func peers(jobs int, limit time.Duration, only, toolList string) error {
	var tools []string
	for _, t := range strings.Split(toolList, ",") {
		switch t = strings.TrimSpace(t); t {
		case "culprit", "cvise", "creduce":
			tools = append(tools, t)
		default:
			return fmt.Errorf("-tools: unknown tool %q", t)
		}
	}
	have := map[string]bool{"culprit": true}
	if slices.Contains(tools, "cvise") || slices.Contains(tools, "creduce") {
		for t := range ensurePeers() {
			have[t] = true
		}
	}
	cases, err := peerCases()
	if err != nil {
		return err
	}
	tmp, culprit, err := buildCulprit("culprit-peers-")
	if err != nil {
		return err
	}
	if os.Getenv("CULPRIT_BENCH_KEEP") == "" {
		defer os.RemoveAll(tmp)
	} else {
		fmt.Fprintln(os.Stderr, "bench: keeping", tmp)
	}
	fmt.Printf("culprit reduce vs C-Vise and C-Reduce: %s/%s, %d CPUs, %s, %s, %d jobs each, limit %v per run, load %s at the start\n\n",
		runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.Version(), time.Now().Format("2006-01-02"), jobs, limit, loadavg())
	fmt.Println("| input | tool | bytes | gofmt | tests | seconds | bytes/min | tests/cv | time/cv | load | checked |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|")
	for i, c := range cases {
		if !selected(c.name, only) {
			continue
		}
		if c.module != nil {
			if err := c.module.prepare(filepath.Join(tmp, fmt.Sprintf("mod%d", i))); err != nil {
				return fmt.Errorf("%s: %w", c.name, err)
			}
		}
		var results []peerResult
		for _, tool := range tools {
			if !have[tool] {
				continue
			}
			dir := filepath.Join(tmp, fmt.Sprintf("case%d-%s", i, tool))
			res, err := runPeer(tool, culprit, dir, c, jobs, limit)
			if err != nil {
				res = peerResult{tool: tool, gofmt: -1, note: err.Error()}
			}
			res.load = loadavg()
			results = append(results, res)
		}
		var cv *peerResult
		smallest := 0 // the smaller of the peers' sizes
		for k := range results {
			r := &results[k]
			if r.tool == "cvise" {
				cv = r
			}
			if r.tool != "culprit" && r.bytes > 0 && (smallest == 0 || r.bytes < smallest) {
				smallest = r.bytes
			}
		}
		size := 0
		for _, d := range c.files {
			size += len(d)
		}
		for _, r := range results {
			ratio := func(a, b float64) string {
				if b == 0 {
					return "-"
				}
				return fmt.Sprintf("%.2f", a/b)
			}
			gofmt := "-"
			if r.gofmt >= 0 {
				gofmt = strconv.Itoa(r.gofmt)
			}
			row := fmt.Sprintf("| %s (%d B) | %s | %d | %s | %d | %.1f | %s |", c.name, size, r.tool, r.bytes, gofmt, r.tests, r.seconds, ratio(float64(r.bytes), float64(smallest)))
			if cv != nil {
				row += fmt.Sprintf(" %s | %s |", ratio(float64(r.tests), float64(cv.tests)), ratio(r.seconds, cv.seconds))
			} else {
				row += " - | - |"
			}
			row += fmt.Sprintf(" %s | %s |", r.load, r.checked)
			if r.note != "" {
				row += " " + r.note
			}
			fmt.Println(row)
		}
	}
	fmt.Printf("\n(load %s at the end; bytes/min: size over the smaller of C-Vise's and C-Reduce's; tests/cv, time/cv: over C-Vise's)\n", loadavg())
	return nil
}

// selected reports whether the case name contains one of the
// comma-separated substrings of only (every case when only is empty).
func selected(name, only string) bool {
	if only == "" {
		return true
	}
	for _, s := range strings.Split(only, ",") {
		if s = strings.TrimSpace(s); s != "" && strings.Contains(name, s) {
			return true
		}
	}
	return false
}

// runPeer runs one tool on one case in dir and measures it. Tests are
// counted by the script itself, so every tool is counted the same way
// (culprit's count includes its run of the original); in package mode
// culprit runs go test itself and its own count is used.
func runPeer(tool, culprit, dir string, c peerCase, jobs int, limit time.Duration) (peerResult, error) {
	res := peerResult{tool: tool, gofmt: -1}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return res, err
	}
	names := sortedKeys(c.files)
	for _, name := range names {
		if err := os.WriteFile(filepath.Join(dir, name), c.files[name], 0o644); err != nil {
			return res, err
		}
	}
	body := c.script
	if c.module != nil {
		body = "MOD='" + c.module.dir + "'\n" + body
	}
	counter := filepath.Join(dir, "tests.count")
	script := filepath.Join(dir, "interesting.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\necho >> '"+counter+"'\n"+body), 0o755); err != nil {
		return res, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	var cmd *exec.Cmd
	resultDir := dir // where the final files are, under their names
	var stdout strings.Builder
	switch {
	case tool == "culprit" && c.run != "":
		out := filepath.Join(dir, "result")
		resultDir = filepath.Join(out, c.module.pkg)
		cmd = exec.CommandContext(ctx, culprit, "reduce", "-json", "-jobs", fmt.Sprint(jobs), "-run", c.run, "-o", out, ".")
		cmd.Dir = filepath.Join(c.module.dir, c.module.pkg)
	case tool == "culprit":
		// One file: culprit writes NAME.reduced.
		resultDir = filepath.Join(dir, "result")
		if len(names) != 1 {
			return res, errors.New("culprit: a case of several files needs package mode")
		}
		cmd = exec.CommandContext(ctx, culprit, "reduce", "-jobs", fmt.Sprint(jobs), "-test", script, "-o", filepath.Join(resultDir, names[0]), filepath.Join(dir, names[0]))
		cmd.Dir = dir
		if err := os.MkdirAll(resultDir, 0o755); err != nil {
			return res, err
		}
	default:
		args := []string{"--n", fmt.Sprint(jobs)}
		if c.notC {
			args = append(args, "--not-c")
		}
		if tool == "cvise" {
			args = append(args, "--timeout", "60")
		}
		// Both want the test cases in the working directory.
		cmd = exec.CommandContext(ctx, tool, append(append(args, script), names...)...)
		cmd.Dir = dir
	}
	// At the limit, an interrupt: each tool then keeps its best result
	// so far (culprit writes it and says so).
	cleanup := inGroup(cmd)
	cmd.WaitDelay = 20 * time.Second
	var stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	res.seconds = time.Since(start).Seconds()
	cleanup()
	if ctx.Err() != nil {
		res.note = fmt.Sprintf("stopped at the %v limit", limit)
	} else if err != nil {
		res.note = fmt.Sprintf("failed: %v: %s", err, lastLines(stdout.String()+stderr.String(), 2))
	}
	final := map[string][]byte{}
	for _, name := range names {
		data, err := os.ReadFile(filepath.Join(resultDir, name))
		if err == nil {
			final[name] = data
		}
	}
	if len(final) == 0 && res.note == "" {
		return res, fmt.Errorf("%s: no result in %s", tool, resultDir)
	}
	res.gofmt = 0
	for name, data := range final {
		res.bytes += len(data)
		if !strings.HasSuffix(name, ".go") || res.gofmt < 0 {
			res.gofmt = -1
			continue
		}
		if f, err := format.Source(data); err == nil {
			res.gofmt += len(f)
		} else {
			res.gofmt += len(data) // does not parse: as it is
		}
	}
	if counts, err := os.ReadFile(counter); err == nil {
		res.tests = strings.Count(string(counts), "\n")
	}
	if tool == "culprit" && c.run != "" {
		var s summary
		if err := json.Unmarshal([]byte(stdout.String()), &s); err == nil {
			res.tests = s.Tests
		}
	}
	// Re-check the result: the script, on the final files alone.
	check := filepath.Join(dir, "check")
	if err := os.MkdirAll(check, 0o755); err != nil {
		return res, err
	}
	for name, data := range final {
		if err := os.WriteFile(filepath.Join(check, name), data, 0o644); err != nil {
			return res, err
		}
	}
	recheck := exec.Command("sh", script)
	recheck.Dir = check
	res.checked = "yes"
	if recheck.Run() != nil {
		res.checked = "NO"
	}
	if os.Getenv("CULPRIT_BENCH_SHOW") != "" {
		for _, name := range sortedKeys(final) {
			fmt.Fprintf(os.Stderr, "--- %s %s %s:\n%s\n", tool, c.name, name, final[name])
		}
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
