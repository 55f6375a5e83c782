package cli_test

import (
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/culprit-go/culprit/internal/cli"
	"github.com/culprit-go/culprit/internal/proctest"
)

var update = flag.Bool("update", false, "rewrite the expected output in testdata/script/*.txtar")

// TestMain registers culprit and the oracle programs the scripts reduce
// against; testscript runs each as a copy of the test binary.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"culprit": func() { os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
		"mystery": func() { mystery(readArg(1)) },
		"picky":   func() { picky(readArg(1)) },
		"jsonish": func() { jsonish(readArg(1)) },
		"hang":    func() { hang(readArg(1)) },
		"flaky":   func() { flaky(readArg(1)) },
		"shout":   func() { shout(readArg(1)) },
		"tree":    func() { mystery(readTree(1)) },
		"gotypes": func() { gotypes(os.Args[1]) },
		"jsonbug": func() { jsonbug(readArg(1)) },
		"divzero": func() { divzero(readArg(1)) },
	})
}

// TestScripts runs testdata/script/*.txtar.
func TestScripts(t *testing.T) {
	// The install scripts build culprit from this checkout with the
	// modules already downloaded, offline.
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	modCache, goCache := "", ""
	if out, err := exec.Command("go", "env", "GOMODCACHE", "GOCACHE").Output(); err == nil {
		if f := strings.Fields(string(out)); len(f) == 2 {
			modCache, goCache = f[0], f[1]
		}
	}
	testscript.Run(t, testscript.Params{
		Dir:           "testdata/script",
		UpdateScripts: *update,
		Setup: func(env *testscript.Env) error {
			// A race-enabled oracle would sleep a second at exit and
			// time out.
			env.Setenv("GORACE", "atexit_sleep_ms=0")
			env.Setenv("CULPRIT_ROOT", root)
			env.Setenv("CULPRIT_MODCACHE", modCache)
			// Every script that runs go shares its build cache, which
			// already holds the standard library compiled; scripts set
			// HOME, which would make a new one each.
			cache := goCache
			if cache == "" || cache == "off" {
				cache = filepath.Join(env.WorkDir, "..", "gocache")
			}
			env.Setenv("GOCACHE", cache)
			return nil
		},
		Cmds: map[string]func(*testscript.TestScript, bool, []string){
			"alive":  alive,
			"trimnl": trimnl,
			"status": status,
		},
	})
}

// readArg reads the file named by the i-th argument, or exits with status
// 3 (a "usage" failure distinct from the oracles' panics).
func readArg(i int) string {
	if len(os.Args) <= i {
		fmt.Fprintln(os.Stderr, "usage: oracle FILE")
		os.Exit(3)
	}
	b, err := os.ReadFile(os.Args[i])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	return string(b)
}

// readTree concatenates the files under the directory named by the i-th
// argument, in lexical order.
func readTree(i int) string {
	var b strings.Builder
	err := filepath.WalkDir(os.Args[i], func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		b.Write(data)
		return err
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	return b.String()
}

// mystery is the seed's mystery function: it fails when a '(' precedes
// a ')'.
func mystery(s string) {
	x, y := strings.Index(s, "("), strings.Index(s, ")")
	if x >= 0 && y >= 0 && x < y {
		panic("Invalid input")
	}
}

// picky fails like mystery, but an input without 'V' that has a ')'
// panics with another message, and a ')' without '(' before it panics
// with the same message from another function. Only the first failure
// is the original's; a reducer must never accept the other two.
func picky(s string) {
	x, y := strings.Index(s, "("), strings.Index(s, ")")
	switch {
	case !strings.Contains(s, "V") && y >= 0:
		panic("no V here")
	case x >= 0 && y >= 0 && x < y:
		pickyParens()
	case y >= 0:
		pickyClose()
	}
}

func pickyParens() { panic("Invalid input") }

func pickyClose() { panic("Invalid input") }

// jsonish parses an array of numbers such as [2, 0, 7] and looks up the
// element its first number points at: it crashes with an index out of
// range when that number is too large, and exits 1 on a syntax error.
func jsonish(s string) {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "[") || !strings.HasSuffix(s, "]") {
		fmt.Fprintln(os.Stderr, "syntax error: want [...]")
		os.Exit(1)
	}
	var arr []int
	if body := strings.TrimSpace(s[1 : len(s)-1]); body != "" {
		for _, f := range strings.Split(body, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || n < 0 {
				fmt.Fprintf(os.Stderr, "syntax error: bad number %q\n", f)
				os.Exit(1)
			}
			arr = append(arr, n)
		}
	}
	if len(arr) > 0 {
		fmt.Println(arr[arr[0]])
	}
}

// hang fails like mystery, but when the input holds an 'H' and no 'Z' it
// starts a
// grandchild, records its pid in $HANG_PIDS, and hangs.
func hang(s string) {
	if strings.Contains(s, "H") && !strings.Contains(s, "Z") {
		child := exec.Command("sleep", "300")
		if err := child.Start(); err != nil {
			panic(err)
		}
		f, err := os.OpenFile(os.Getenv("HANG_PIDS"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err == nil {
			fmt.Fprintln(f, child.Process.Pid)
			f.Close()
		}
		time.Sleep(time.Hour)
	}
	mystery(s)
}

// flaky fails like mystery on its odd-numbered runs and passes on the
// even ones; it counts runs in the file $FLAKY_COUNT.
func flaky(s string) {
	path := os.Getenv("FLAKY_COUNT")
	b, _ := os.ReadFile(path)
	n, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	n++
	os.WriteFile(path, []byte(strconv.Itoa(n)), 0o644)
	if n%2 == 1 {
		mystery(s)
	}
}

// shout prints "ERROR: <word>" for each word in capitals and always exits
// 0 unless the input holds a '!', when it exits 1 without a word.
func shout(s string) {
	for _, w := range strings.Fields(s) {
		if w == strings.ToUpper(w) && strings.ToLower(w) != w {
			fmt.Println("ERROR:", w)
		}
	}
	if strings.Contains(s, "!") {
		os.Exit(1)
	}
}

// alive is a script command: "alive PIDFILE" succeeds when one of the
// processes listed in PIDFILE (one pid a line) is still running.
func alive(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: alive PIDFILE")
	}
	data := ts.ReadFile(args[0])
	var living []string
	for _, f := range strings.Fields(data) {
		pid, err := strconv.Atoi(f)
		if err != nil {
			ts.Fatalf("bad pid %q", f)
		}
		if proctest.Running(pid) {
			living = append(living, f)
		}
	}
	if neg && len(living) > 0 {
		ts.Fatalf("still running: %s", strings.Join(living, " "))
	}
	if !neg && len(living) == 0 {
		ts.Fatalf("none running")
	}
}

// trimnl is a script command: "trimnl FILE..." removes the final newline
// of each file, since txtar files always end with one.
func trimnl(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: trimnl FILE...")
	}
	for _, name := range args {
		data := strings.TrimSuffix(ts.ReadFile(name), "\n")
		if err := os.WriteFile(ts.MkAbs(name), []byte(data), 0o644); err != nil {
			ts.Fatalf("%v", err)
		}
	}
}

// status is a script command: "status N PROGRAM [ARGS]" runs the program
// and checks that it exits with status N.
func status(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: status N PROGRAM [ARGS]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("bad status %q", args[0])
	}
	err = ts.Exec(args[1], args[2:]...)
	got := 0
	if ee, ok := err.(*exec.ExitError); ok {
		got = ee.ExitCode()
	} else if err != nil {
		ts.Fatalf("%v", err)
	}
	if got != want {
		ts.Fatalf("exit status %d, want %d", got, want)
	}
}
