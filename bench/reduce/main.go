// Command reduce benchmarks "culprit reduce": for a few inputs and
// oracles it runs the reduction with --jobs 1 and --jobs 2 and prints the
// size reached, the tests run and the time taken, and the speedup.
//
// Run it from the repository root:
//
//	go run ./bench/reduce [-runs N] [-jobs 1,2]
//
// With -peers it compares culprit with C-Vise and C-Reduce instead
// (installed from Debian packages when missing) on 12 real inputs, each
// reduced by the three tools with the same interestingness script, which
// also counts the tests: Go files that do not parse (gofmt, go vet and go
// build syntax errors), real module files with a type error (go build of
// the module), real packages with a failing test (culprit's package mode,
// the peers get the package's files and a script that runs go test -run),
// fastjson's large.json with an oracle on one value, and a C file with a
// gcc warning. Each result is re-checked by the script at the end:
//
//	go run ./bench/reduce -peers [-peer-jobs 2] [-limit 10m] [-only SUBSTRING] [-tools culprit,cvise,creduce]
//
// It builds culprit into a temporary directory and uses its own binary,
// re-executed, as the oracles: "mystery" (the seed's: fails when a '('
// precedes a ')'), "json" (a parser that panics on a null "crash" key) and
// their slow variants, which sleep 50ms per test as a compiler or a test
// suite would, so that running candidates in parallel matters.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"
)

// oracleEnv makes this program act as an oracle named by its value.
const oracleEnv = "CULPRIT_BENCH_ORACLE"

func main() {
	if name := os.Getenv(oracleEnv); name != "" {
		oracle(name, os.Args[1])
		return
	}
	runs := flag.Int("runs", 1, "time each reduction `N` times and keep the fastest")
	jobsList := flag.String("jobs", "1,2", "comma-separated `list` of --jobs values to compare")
	peersMode := flag.Bool("peers", false, "compare culprit with C-Vise and C-Reduce on real inputs instead")
	peerJobs := flag.Int("peer-jobs", 2, "parallel tests of each tool in -peers mode")
	limit := flag.Duration("limit", 10*time.Minute, "stop a tool after `DURATION` in -peers mode")
	only := flag.String("only", "", "in -peers mode, run only the inputs whose name contains one of the comma-separated `SUBSTRINGS` (unparsable, type, test, json, c:, or a file name such as rule.go)")
	tools := flag.String("tools", "culprit,cvise,creduce", "in -peers mode, the comma-separated `list` of tools to run")
	flag.Parse()
	if *peersMode {
		if err := peers(*peerJobs, *limit, *only, *tools); err != nil {
			fmt.Fprintln(os.Stderr, "bench:", err)
			os.Exit(1)
		}
		return
	}
	if err := bench(*runs, *jobsList); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

// oracle runs the named oracle on the file or directory at path.
func oracle(name, path string) {
	text := readAll(path)
	if strings.HasPrefix(name, "slow-") {
		time.Sleep(50 * time.Millisecond)
		name = strings.TrimPrefix(name, "slow-")
	}
	switch name {
	case "mystery":
		x, y := strings.Index(text, "("), strings.Index(text, ")")
		if x >= 0 && y >= 0 && x < y {
			panic("Invalid input")
		}
	case "json":
		var v any
		if err := json.Unmarshal([]byte(text), &v); err != nil {
			fmt.Fprintln(os.Stderr, "syntax error:", err)
			os.Exit(1)
		}
		walk(v)
	}
}

// walk panics on an object whose "crash" key is null.
func walk(v any) {
	switch v := v.(type) {
	case map[string]any:
		if c, ok := v["crash"]; ok && c == nil {
			panic("nil crash value")
		}
		for _, w := range v {
			walk(w)
		}
	case []any:
		for _, w := range v {
			walk(w)
		}
	}
}

func readAll(path string) string {
	var b strings.Builder
	filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			data, _ := os.ReadFile(p)
			b.Write(data)
		}
		return nil
	})
	return b.String()
}

// A benchCase is one input and the oracle it is reduced against.
type benchCase struct {
	name   string
	oracle string
	input  string            // for a file input
	files  map[string]string // for a directory input
}

func cases(rng *rand.Rand) []benchCase {
	return []benchCase{
		{name: "seed mystery", oracle: "mystery", input: `V"/+!aF-(V4EOz*+s/Q,7)2@0_`},
		{name: "text 4KB", oracle: "mystery", input: text(rng, 4096)},
		{name: "json 8KB", oracle: "json", input: jsonDoc(rng, 8192)},
		{name: "slow text 1KB", oracle: "slow-mystery", input: text(rng, 1024)},
		{name: "slow json 512B", oracle: "slow-json", input: jsonDoc(rng, 512)},
		{name: "slow dir 8 files", oracle: "slow-mystery", files: tree(rng, 8, 128)},
	}
}

// text is random lines of words and punctuation with one '(' early and
// one ')' late.
func text(rng *rand.Rand, n int) string {
	const chars = "abcdefghijklmnopqrstuvwxyz0123456789 ,.;:+-*/=<>"
	b := make([]byte, n)
	for i := range b {
		b[i] = chars[rng.Intn(len(chars))]
		if rng.Intn(40) == 0 {
			b[i] = '\n'
		}
	}
	b[n/7] = '('
	b[n-n/5] = ')'
	return string(b)
}

// jsonDoc is a random JSON document of about n bytes with one object
// holding "crash": null.
func jsonDoc(rng *rand.Rand, n int) string {
	var b bytes.Buffer
	b.WriteString("{\n")
	for i := 0; b.Len() < n; i++ {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, "  \"k%d\": {\"id\": %d, \"name\": \"item %d\", \"tags\": [\"a\", \"b\", %d]", i, rng.Intn(1000), i, rng.Intn(100))
		if i == 3 {
			b.WriteString(", \"crash\": null")
		}
		b.WriteString("}")
	}
	b.WriteString("\n}\n")
	return b.String()
}

// tree is a directory of k files of about n bytes; one file holds a '('
// and a later one a ')'.
func tree(rng *rand.Rand, k, n int) map[string]string {
	files := map[string]string{}
	for i := 0; i < k; i++ {
		t := []byte(text(rng, n))
		t = bytes.ReplaceAll(bytes.ReplaceAll(t, []byte("("), []byte("x")), []byte(")"), []byte("y"))
		switch i {
		case 2:
			t[n/2] = '('
		case 5:
			t[n/3] = ')'
		}
		files[fmt.Sprintf("d%d/f%d.txt", i%3, i)] = string(t)
	}
	return files
}

// summary is the part of culprit reduce --json the benchmark reads.
type summary struct {
	OriginalBytes int     `json:"original_bytes"`
	FinalBytes    int     `json:"final_bytes"`
	Tests         int     `json:"tests"`
	CacheHits     int     `json:"cache_hits"`
	Seconds       float64 `json:"seconds"`
}

func bench(runs int, jobsList string) error {
	var jobs []int
	for _, f := range strings.Split(jobsList, ",") {
		j, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || j < 1 {
			return fmt.Errorf("bad -jobs %q", jobsList)
		}
		jobs = append(jobs, j)
	}
	tmp, culprit, err := buildCulprit("culprit-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	self, err := os.Executable()
	if err != nil {
		return err
	}
	fmt.Printf("culprit reduce: %s/%s, %d CPUs, %s, best of %d run(s)\n\n", runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.Version(), runs)
	header := fmt.Sprintf("%-18s %-13s %6s %6s", "input", "oracle", "bytes", "final")
	for _, j := range jobs {
		header += fmt.Sprintf(" %9s %7s", fmt.Sprintf("tests j%d", j), fmt.Sprintf("sec j%d", j))
	}
	if len(jobs) > 1 {
		header += fmt.Sprintf(" %8s", "speedup")
	}
	fmt.Println(header)
	rng := rand.New(rand.NewSource(1))
	for i, c := range cases(rng) {
		input := filepath.Join(tmp, fmt.Sprintf("case%d", i), "input")
		if err := write(input, c); err != nil {
			return err
		}
		row := fmt.Sprintf("%-18s %-13s", c.name, c.oracle)
		var secs []float64
		var final = -1
		for _, j := range jobs {
			best := summary{Seconds: -1}
			for r := 0; r < runs; r++ {
				s, err := reduceOnce(culprit, self, input, c.oracle, j)
				if err != nil {
					return fmt.Errorf("%s, --jobs %d: %w", c.name, j, err)
				}
				if best.Seconds < 0 || s.Seconds < best.Seconds {
					best = s
				}
			}
			if final >= 0 && best.FinalBytes != final {
				return fmt.Errorf("%s: --jobs %d reached %d bytes, --jobs %d %d bytes", c.name, jobs[0], final, j, best.FinalBytes)
			}
			final = best.FinalBytes
			if len(secs) == 0 {
				row += fmt.Sprintf(" %6d %6d", best.OriginalBytes, best.FinalBytes)
			}
			row += fmt.Sprintf(" %9d %7.2f", best.Tests, best.Seconds)
			secs = append(secs, best.Seconds)
		}
		if len(secs) > 1 {
			row += fmt.Sprintf(" %7.2fx", secs[0]/secs[len(secs)-1])
		}
		fmt.Println(row)
	}
	return nil
}

// write creates a case's input file or directory.
func write(path string, c benchCase) error {
	if c.files == nil {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		return os.WriteFile(path, []byte(c.input), 0o644)
	}
	names := make([]string, 0, len(c.files))
	for name := range c.files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		p := filepath.Join(path, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(c.files[name]), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// reduceOnce runs culprit reduce --json and decodes its summary.
func reduceOnce(culprit, self, input, oracle string, jobs int) (summary, error) {
	out := input + ".reduced"
	os.RemoveAll(out)
	cmd := exec.Command(culprit, "reduce", "-json", "-jobs", strconv.Itoa(jobs), "-timeout", "20s", input, "--", self, "{}")
	cmd.Env = append(os.Environ(), oracleEnv+"="+oracle)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.Output()
	if err != nil {
		return summary{}, fmt.Errorf("%v: %s", err, stderr.String())
	}
	var s summary
	if err := json.Unmarshal(stdout, &s); err != nil {
		return summary{}, fmt.Errorf("decode summary: %w", err)
	}
	return s, nil
}

// buildCulprit builds culprit into a new temporary directory, which the
// caller removes.
func buildCulprit(prefix string) (tmp, culprit string, err error) {
	tmp, err = os.MkdirTemp("", prefix)
	if err != nil {
		return "", "", err
	}
	culprit = filepath.Join(tmp, "culprit")
	build := exec.Command("go", "build", "-o", culprit, "./cmd/culprit")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		os.RemoveAll(tmp)
		return "", "", fmt.Errorf("build culprit (run from the repository root): %w", err)
	}
	return tmp, culprit, nil
}
