package invariant

import (
	"math/rand"
	"reflect"
	"strings"
	"testing"

	"github.com/culprit-go/culprit/trace"
)

func iv(n int64) trace.Value   { return trace.Value{Tag: trace.ValInt, Int: n} }
func fv(f float64) trace.Value { return trace.Value{Tag: trace.ValFloat, Float: f} }
func sv(s string) trace.Value  { return trace.Value{Tag: trace.ValString, Str: s, Len: len(s)} }

// fn builds a function with passing calls of args -> results.
func fn(params, results []string, calls ...[2][]trace.Value) *Calls {
	f := &Function{Name: "m.F", Params: params, Results: results}
	for _, c := range calls {
		f.Calls = append(f.Calls, Call{Args: c[0], Results: c[1], Returned: true, Outcome: trace.OutcomePass, Test: "TestF"})
	}
	return &Calls{Functions: []*Function{f}}
}

func call(args []trace.Value, results ...trace.Value) [2][]trace.Value {
	return [2][]trace.Value{args, results}
}

func TestMine(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	var sum2, one, roots, lists, ne3 [][2][]trace.Value
	for i := 0; i < 100; i++ {
		a, b := int64(r.Intn(20)-10), int64(r.Intn(20)-10)
		sum2 = append(sum2, call([]trace.Value{iv(a), iv(b)}, iv(a+b)))
	}
	one = append(one, call([]trace.Value{iv(2), iv(2)}, iv(4)))
	for _, x := range []float64{2, 4, 10, 25, 1, 0.01} {
		roots = append(roots, call([]trace.Value{fv(x)}, fv(sqrt(x))))
	}
	for n := 0; n < 8; n++ {
		lists = append(lists, call([]trace.Value{{Tag: trace.ValRef, Type: "[]int", Uint: uint64(n)}}, iv(int64(n))))
	}
	for _, x := range []int64{1, 2, 3} {
		ne3 = append(ne3, call([]trace.Value{iv(x)}))
	}
	tests := []struct {
		name      string
		reason    string
		calls     *Calls
		conf      float64
		pre, post []string
	}{
		{"sum2 random", "100 random calls leave result == a + b and nothing overspecialized",
			fn([]string{"a", "b"}, []string{"result"}, sum2...), 0, []string{}, []string{"result == a + b"}},
		{"sum2 single", "one call overspecializes without the confidence limit (the seed's sum2(2, 2))",
			fn([]string{"a", "b"}, []string{"result"}, one...), 1, []string{"a == 2", "b == 2"}, []string{"result == 4"}},
		{"sum2 single, limit", "the confidence limit hides what one call shows",
			fn([]string{"a", "b"}, []string{"result"}, one...), 0, []string{}, []string{}},
		{"square root, seed's inputs", "six inputs are not enough for x > 0 at 0.01",
			fn([]string{"x"}, []string{"result"}, roots...), 0, []string{}, []string{"approx(result*result, x)"}},
		{"square root, no limit", "x > 0 hides x >= 0 and x != 0",
			fn([]string{"x"}, []string{"result"}, roots...), 1, []string{"x > 0"}, []string{"approx(result*result, x)", "result > 0"}},
		{"list length", "result == len(elems) hides result >= 0",
			fn([]string{"elems"}, []string{"result"}, lists...), 0, []string{"elems != nil"}, []string{"result == len(elems)"}},
		{"x != 0 on three calls", "not reported: too likely by accident",
			fn([]string{"x"}, nil, ne3...), 0, []string{}, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Mine(tt.calls, Options{Confidence: tt.conf})
			if len(c.Functions) != 1 {
				t.Fatalf("%d functions, want 1", len(c.Functions))
			}
			s := c.Functions[0]
			if !reflect.DeepEqual(s.Pre, tt.pre) || !reflect.DeepEqual(s.Post, tt.post) {
				t.Errorf("%s\npre %q, post %q\nwant pre %q, post %q", tt.reason, s.Pre, s.Post, tt.pre, tt.post)
			}
			// Every mined invariant holds, through the expression evaluator,
			// on the calls it was mined from.
			r, err := Check(c, tt.calls)
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Violations) > 0 || len(r.Errors) > 0 || r.Unevaluated > 0 {
				t.Errorf("mined invariants do not evaluate true: %+v", r)
			}
		})
	}
}

func sqrt(x float64) float64 {
	g := x / 2
	for i := 0; i < 100; i++ {
		g = (g + x/g) / 2
	}
	return g
}

func TestContrast(t *testing.T) {
	c := Contrast(middleCalls(), Options{})
	if got := c.Functions[0].Pre; !reflect.DeepEqual(got, []string{"y < x && x < z"}) {
		t.Errorf("contrast pre = %q, want [y < x && x < z]", got)
	}
}

// middleCalls are random calls of the seed's middle, failing where
// y < x < z.
func middleCalls() *Calls {
	r := rand.New(rand.NewSource(3))
	f := &Function{Name: "m.Middle", Params: []string{"x", "y", "z"}, Results: []string{"result"}}
	for i := 0; i < 300; i++ {
		x, y, z := int64(r.Intn(20)-10), int64(r.Intn(20)-10), int64(r.Intn(20)-10)
		out := trace.OutcomePass
		if y < x && x < z {
			out = trace.OutcomeFail
		}
		f.Calls = append(f.Calls, Call{Args: []trace.Value{iv(x), iv(y), iv(z)}, Results: []trace.Value{iv(y)}, Returned: true, Outcome: out})
	}
	return &Calls{Functions: []*Function{f}}
}

func TestCheck(t *testing.T) {
	cs := fn([]string{"x"}, []string{"result"}, call([]trace.Value{fv(4)}, fv(-2)), call([]trace.Value{sv("s")}, fv(1)))
	c := &Contracts{Version: SchemaVersion, Functions: []*Spec{{Name: "m.F", Pre: []string{"x >= 0"}, Post: []string{"result >= 0", "y > 0"}}, {Name: "m.G"}}}
	r, err := Check(c, cs)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Violations) != 1 || r.Violations[0].Cond != "result >= 0" || r.Violations[0].Calls[0].Values != "x = 4.0, result = -2.0" {
		t.Errorf("violations %+v", r.Violations)
	}
	if r.Unevaluated != 3 || len(r.Errors) != 1 || !strings.Contains(r.Errors[0], "unknown variable y") {
		t.Errorf("unevaluated %d, errors %q", r.Unevaluated, r.Errors)
	}
	if !reflect.DeepEqual(r.NotCalled, []string{"m.G"}) {
		t.Errorf("not called %q", r.NotCalled)
	}
}

func TestExpr(t *testing.T) {
	vals := map[string]cell{"a": intCell(3), "b": intCell(-2), "s": cellOf(sv("hello")), "p": cellOf(trace.Value{Tag: trace.ValNil}), "f": cellOf(fv(1.5))}
	q := trace.Value{Tag: trace.ValRef, Type: "*m.T", Deep: true, Elems: []trace.Value{{Tag: trace.ValOther, Type: "m.T", Deep: true, Fields: []trace.Field{
		{Name: "name", Value: sv("n")},
		{Name: "next", Value: trace.Value{Tag: trace.ValNil}},
		{Name: "kids", Value: trace.Value{Tag: trace.ValRef, Type: "[]int", Uint: 2, Deep: true, Elems: []trace.Value{iv(4), iv(5)}}},
	}}}}
	derived("q", q, vals)
	derived("err", trace.Value{Tag: trace.ValRef, Type: "*errors.errorString", Err: &trace.Value{Tag: trace.ValString, Str: "boom", Len: 4}}, vals)
	lookup := func(n string) (cell, bool) {
		v, ok := vals[n]
		if !ok && strings.HasPrefix(n, "q.") {
			return cell{}, true // a part of q the trace did not keep
		}
		return v, ok
	}
	evalCases(t, lookup, []exprCase{
		{"a > 0 && b < 0", true, false},
		{"a == b + 5", true, false},
		{"a / 2 == 1", true, false},
		{"f * 2 == 3", true, false},
		{"approx(f, 1.5000000000001)", true, false},
		{"len(s) == 5 && s != \"\"", true, false},
		{"strings.HasPrefix(s, \"he\") && !strings.HasSuffix(s, \"x\")", true, false},
		{"p == nil", true, false},
		{"old(a) == a", true, false},
		{"a == 1 || a == 3", true, false},
		{`q.name == "n" && q.next == nil && len(q.kids) == 2 && q.kids[1] == 5`, true, false},
		{`err != nil && err.Error() == "boom"`, true, false},
		{"q.kids[7] == 0", false, true},
		{"s > 0", false, true},
		{"a / (b + 2) == 0", false, true},
	})
	for _, bad := range []string{"x >", "f(x)", "x[i]", "x.M()", "x & y"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) succeeded", bad)
		}
	}
}

// exprCase is an expression, its value, and whether evaluating it
// fails (not applicable, or an unknown name).
type exprCase struct {
	src  string
	want bool
	err  bool
}

// evalCases evaluates each case over lookup.
func evalCases(t *testing.T, lookup env, cases []exprCase) {
	t.Helper()
	for _, tt := range cases {
		e, err := Parse(tt.src)
		if err != nil {
			t.Fatal(err)
		}
		got, err := e.holds(lookup)
		if (err != nil) != tt.err || got != tt.want {
			t.Errorf("%s = %v, %v; want %v (error %v)", tt.src, got, err, tt.want, tt.err)
		}
	}
}

func TestProps(t *testing.T) {
	var calls [][2][]trace.Value
	for i := int64(1); i <= 20; i++ {
		calls = append(calls, call([]trace.Value{iv(i)}, iv(2*i+1)))
	}
	p, err := Parse("X == 2*Y + 1")
	if err != nil {
		t.Fatal(err)
	}
	c := Mine(fn([]string{"n"}, []string{"result"}, calls...), Options{Props: []*Expr{p}})
	if got := strings.Join(c.Functions[0].Post, "; "); !strings.Contains(got, "result == 2*n+1") {
		t.Errorf("post %s: want the user property result == 2*n + 1", got)
	}
}

// BenchmarkMine measures inference speed in call records (entries and
// exits) per second: per second of elapsed time, and per second of the
// process's CPU time, which a shared machine does not distort.
func BenchmarkMine(b *testing.B) {
	r := rand.New(rand.NewSource(1))
	f := &Function{Name: "m.Sum2", Params: []string{"a", "b"}, Results: []string{"result"}}
	for i := 0; i < 100000; i++ {
		a, c := int64(r.Intn(2000)-1000), int64(r.Intn(2000)-1000)
		f.Calls = append(f.Calls, Call{Args: []trace.Value{iv(a), iv(c)}, Results: []trace.Value{iv(a + c)}, Returned: true, Outcome: trace.OutcomePass})
	}
	benchMine(b, &Calls{Functions: []*Function{f}})
}

// BenchmarkMineDeep measures inference over values recorded with their
// parts: a pointer to a struct with a slice field, and an error.
func BenchmarkMineDeep(b *testing.B) {
	r := rand.New(rand.NewSource(1))
	f := &Function{Name: "m.Get", Params: []string{"s", "i"}, Results: []string{"result", "err"}}
	for n := 0; n < 20000; n++ {
		xs := make([]int64, 1+r.Intn(10))
		for j := range xs {
			xs[j] = int64(r.Intn(100))
		}
		i := int64(r.Intn(len(xs)))
		s := ptr("*m.S", strct("m.S", trace.Field{Name: "name", Value: sv("s")}, trace.Field{Name: "items", Value: ints(xs)}))
		f.Calls = append(f.Calls, Call{Args: []trace.Value{s, iv(i)}, Results: []trace.Value{iv(xs[i]), nilv}, Returned: true, Outcome: trace.OutcomePass})
	}
	benchMine(b, &Calls{Functions: []*Function{f}})
}

func benchMine(b *testing.B, cs *Calls) {
	records := 0
	for _, f := range cs.Functions {
		records += 2 * len(f.Calls)
	}
	cpu0 := cpuTime()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Mine(cs, Options{})
	}
	b.StopTimer()
	b.ReportMetric(float64(records*b.N)/b.Elapsed().Seconds(), "records/s")
	if cpu := cpuTime() - cpu0; cpu > 0 {
		b.ReportMetric(float64(records*b.N)/cpu.Seconds(), "records/cpu-s")
	}
}
