//go:build unix

// Command faults measures culprit's fault finding on real bugs: the
// real-fault corpus (corpus.json beside this file) holds bugs of
// released Go modules, each a buggy release A, the release B that fixed
// it and B's regression test, made as Defects4J makes its bugs. For each
// bug it rebuilds both trees from the module proxy (A with B's test files
// over it), checks that the regression test fails on A and passes on B,
// times the package's plain go test (after a change to one of its
// files, building its tests, then again from the build cache: the
// tables give culprit's times against both), and runs culprit on A as a user
// would, knowing nothing of the fault: culprit rank (the diagnosis,
// culprit's default) and the single-metric rankings of statements, and
// with -analyses slice,flow culprit slice and flow on the failing test.
// It places the fault's lines and function in each ranking (ties as
// ranges; the expected place is the mean of best and worst) and prints
// top-1/3/5/10 and EXAM per ranking, the training and validation sets
// apart.
//
// Usage:
//
//	go run ./bench/faults [-bugs id,id] [-set train|validation|all] [-verify] [-analyses rank,slice,flow] [-warm] [-work DIR] [-markdown] [-json FILE]
//	go run ./bench/faults -work DIR -rescore spectrum=1,slice=0.5,... [-set train]
//
// -warm runs culprit once before the change that makes the plain run
// build the package's tests, untimed: the timed culprit runs then find
// their instrumented builds of the packages the change leaves alone in
// the build cache, as a user finds them who edits a package of a module
// culprit has run on before (without it, every instrumented build is a
// first one, while the plain run's other packages come from the cache).
//
// -rescore ranks again the diagnoses an earlier run kept in its work
// directory with other weights, running nothing: how weights are
// compared on the training set without touching the validation set.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/culprit-go/culprit/bench/internal/proof"
)

func main() {
	_, self, _, _ := runtime.Caller(0)
	corpus := flag.String("corpus", filepath.Join(filepath.Dir(self), "corpus.json"), "the corpus `FILE`")
	bugs := flag.String("bugs", "", "comma-separated bug ids (default: every bug of -set)")
	set := flag.String("set", "all", "bugs of the set: train, validation or all")
	verify := flag.Bool("verify", false, "only check that each bug reproduces: A fails and B passes its regression tests, -repeat times each")
	repeat := flag.Int("repeat", 3, "-verify: runs of each side")
	analyses := flag.String("analyses", "rank", "comma-separated analyses to run on each bug: rank, slice, flow")
	metrics := flag.String("metrics", "ochiai,dstar", "single metrics ranked beside the diagnosis (statements)")
	work := flag.String("work", "", "work directory (default: a temporary one, removed)")
	bin := flag.String("culprit", "", "culprit binary (default: built from this checkout)")
	timeout := flag.Duration("timeout", 10*time.Minute, "time limit of one go test run")
	markdown := flag.Bool("markdown", false, "print the tables as Markdown")
	jsonOut := flag.String("json", "", "also write every bug's result as JSON to `FILE`")
	warm := flag.Bool("warm", false, "run culprit once before the change to the package, untimed, so that the timed runs find the instrumented builds of the packages it leaves alone cached (as the plain run after the change finds the plain ones)")
	rescore := flag.String("rescore", "", "rank again, with `WEIGHTS` (\"default\" or name=value,... over the defaults), the diagnoses kept in -work by an earlier run, running nothing")
	flag.Parse()

	c, err := LoadCorpus(*corpus)
	if err != nil {
		fail(err)
	}
	list, err := c.Select(*bugs, *set)
	if err != nil {
		fail(err)
	}
	dir, cleanup, err := proof.WorkDir(*work, "culprit-faults-")
	if err != nil {
		fail(err)
	}
	defer cleanup()
	b := &bench{work: dir, repeat: max(*repeat, 1), timeout: *timeout, analyses: map[string]bool{}, warm: *warm}
	for _, a := range strings.Split(*analyses, ",") {
		switch a = strings.TrimSpace(a); a {
		case "rank", "slice", "flow":
			b.analyses[a] = true
		case "":
		default:
			fail(fmt.Errorf("-analyses: unknown analysis %q (want rank, slice, flow)", a))
		}
	}
	for _, m := range strings.Split(*metrics, ",") {
		if m = strings.TrimSpace(m); m != "" {
			b.metrics = append(b.metrics, m)
		}
	}
	if b.analyses["rank"] && len(b.metrics) == 0 {
		fail(fmt.Errorf("-metrics: at least one metric (the statement ranking counts the executed lines)"))
	}
	if *rescore != "" {
		w, err := parseWeights(*rescore)
		if err != nil {
			fail(err)
		}
		if *work == "" {
			fail(fmt.Errorf("-rescore: name the -work directory of the earlier run"))
		}
		var results []*result
		for _, bug := range list {
			results = append(results, b.rescore(bug, w))
		}
		b.metrics = nil
		printResults(os.Stdout, results, b, *markdown)
		return
	}
	if !*verify {
		if b.culprit, err = proof.Culprit(dir, *bin); err != nil {
			fail(err)
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var results []*result
	bad := false
	for i, bug := range list {
		start := time.Now()
		r := b.run(ctx, bug, *verify)
		results = append(results, r)
		status := "ok"
		if r.Err != "" {
			status, bad = r.Err, true
		}
		fmt.Fprintf(os.Stderr, "[%d/%d] %s (%s) %.0fs: %s\n", i+1, len(list), bug.ID, bug.Set, time.Since(start).Seconds(), status)
		if ctx.Err() != nil {
			break
		}
	}
	if *verify {
		printVerify(os.Stdout, results, *markdown)
	} else {
		printResults(os.Stdout, results, b, *markdown)
	}
	if *jsonOut != "" {
		data, err := json.MarshalIndent(results, "", "  ")
		if err == nil {
			err = os.WriteFile(*jsonOut, append(data, '\n'), 0o644)
		}
		if err != nil {
			fail(err)
		}
	}
	if bad {
		os.Exit(1)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "faults:", err)
	os.Exit(2)
}
