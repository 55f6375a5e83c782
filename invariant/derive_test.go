package invariant

import (
	"flag"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/culprit-go/culprit/trace"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// Builders of values recorded deep, as trace format 4 decodes them.

func ptr(typ string, to trace.Value) trace.Value {
	return trace.Value{Tag: trace.ValRef, Type: typ, Deep: true, Elems: []trace.Value{to}}
}

func strct(typ string, fs ...trace.Field) trace.Value {
	return trace.Value{Tag: trace.ValOther, Type: typ, Deep: true, Fields: append([]trace.Field{}, fs...)}
}

func slice(typ string, n int, elems ...trace.Value) trace.Value {
	return trace.Value{Tag: trace.ValRef, Type: typ, Uint: uint64(n), Deep: true, Elems: elems}
}

func ints(xs []int64) trace.Value {
	var es []trace.Value
	for i, x := range xs {
		if i < 8 {
			es = append(es, iv(x))
		}
	}
	return slice("[]int", len(xs), es...)
}

func errv(msg string) trace.Value {
	m := sv(msg)
	return trace.Value{Tag: trace.ValRef, Type: "*errors.errorString", Deep: true, Err: &m,
		Elems: []trace.Value{strct("errors.errorString", trace.Field{Name: "s", Value: m})}}
}

var nilv = trace.Value{Tag: trace.ValNil}

// deepCalls are functions over structs, pointers, slices and errors, with
// random calls whose mined invariants testdata/deep.golden holds.
func deepCalls() *Calls {
	r := rand.New(rand.NewSource(7))
	account := func(owner string, balance int64) trace.Value {
		return ptr("*m.Account", strct("m.Account", trace.Field{Name: "Owner", Value: sv(owner)}, trace.Field{Name: "balance", Value: iv(balance)}))
	}
	owners := []string{"ann", "bob", "cy", "dee", "eve", "fay"}
	var fs []*Function
	add := func(name string, params, results []string) *Function {
		f := &Function{Name: "m." + name, Params: params, Results: results}
		fs = append(fs, f)
		return f
	}
	pass := func(f *Function, args, results, final []trace.Value) {
		f.Calls = append(f.Calls, Call{Args: args, Results: results, Final: final, Returned: true, Outcome: trace.OutcomePass, Test: "TestM"})
	}
	deposit := add("Account.Deposit", []string{"a", "amount"}, nil)
	balance := add("Account.Balance", []string{"a"}, []string{"result"})
	first := add("First", []string{"s"}, []string{"result"})
	push := add("Push", []string{"s", "x"}, []string{"result"})
	open := add("Open", []string{"name"}, []string{"f", "err"})
	find := add("Find", []string{"n", "key"}, []string{"result"})
	for i := 0; i < 60; i++ {
		o, b, amt := owners[r.Intn(len(owners))], int64(r.Intn(1000)), int64(1+r.Intn(100))
		pass(deposit, []trace.Value{account(o, b), iv(amt)}, nil, []trace.Value{account(o, b+amt), iv(amt)})
		pass(balance, []trace.Value{account(o, b)}, []trace.Value{iv(b)}, nil)
		var xs []int64
		for j := 0; j < 1+r.Intn(12); j++ {
			xs = append(xs, int64(r.Intn(50)-25))
		}
		pass(first, []trace.Value{ints(xs)}, []trace.Value{iv(xs[0])}, nil)
		x := int64(r.Intn(100))
		pass(push, []trace.Value{ints(xs), iv(x)}, []trace.Value{ints(append(append([]int64{}, xs...), x))}, nil)
		name := fmt.Sprintf("/tmp/f%d", r.Intn(1000))
		pass(open, []trace.Value{sv(name)}, []trace.Value{nilv, errv("open " + name + ": no such file or directory")}, nil)
		// A list node, nil at times: n.key facts come from the calls
		// where n is not nil.
		if r.Intn(4) == 0 {
			pass(find, []trace.Value{nilv, iv(x)}, []trace.Value{{Tag: trace.ValFalse}}, nil)
			continue
		}
		k := int64(r.Intn(100))
		node := ptr("*m.Node", strct("m.Node", trace.Field{Name: "key", Value: iv(k)}, trace.Field{Name: "next", Value: nilv}))
		found := trace.Value{Tag: trace.ValFalse}
		if k == x {
			found.Tag = trace.ValTrue
		}
		pass(find, []trace.Value{node, iv(x)}, []trace.Value{found}, nil)
	}
	return &Calls{Functions: fs}
}

// TestDeep mines invariants over derived variables: fields through
// pointers, elements and lengths of slices, error messages, parameters'
// parts at exit against old(...).
func TestDeep(t *testing.T) {
	cs := deepCalls()
	c := Mine(cs, Options{})
	var b strings.Builder
	for _, s := range c.Functions {
		fmt.Fprintf(&b, "== %s (%d calls)\n", s.Name, s.Calls)
		for _, p := range s.Pre {
			fmt.Fprintf(&b, "pre:  %s\n", p)
		}
		for _, p := range s.Post {
			fmt.Fprintf(&b, "post: %s\n", p)
		}
	}
	golden(t, "deep.golden", b.String())
	// Every mined invariant holds on the calls it was mined from.
	r, err := Check(c, cs)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Violations) != 0 || len(r.Errors) != 0 {
		t.Errorf("the mined invariants fail on their own calls: %+v %q", r.Violations, r.Errors)
	}
}

// golden compares got with the sectioned file testdata/name (a section
// a function, opened by "== "), naming the sections that differ, or
// rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update makes it)", err)
	}
	want, have := sections(string(data)), sections(got)
	for head, w := range want {
		if have[head] != w {
			t.Errorf("%s, section %s (go test -update rewrites it):\n--- got\n%s--- want\n%s", path, head, have[head], w)
		}
	}
	for head := range have {
		if _, ok := want[head]; !ok {
			t.Errorf("%s: section %s is new (go test -update adds it)", path, head)
		}
	}
}

// sections splits a golden file at its "== " lines.
func sections(s string) map[string]string {
	out := map[string]string{}
	head := ""
	for _, line := range strings.SplitAfter(s, "\n") {
		if strings.HasPrefix(line, "== ") {
			head = strings.TrimSpace(line)
		}
		out[head] += line
	}
	return out
}
