package invariant

import (
	"math/rand"
	"os"
	"strconv"
	"testing"

	"github.com/culprit-go/culprit/trace"
)

// BenchmarkMineReal measures inference on calls shaped like those of
// real traces (BurntSushi/toml: 251 functions, 527,686 calls, most of
// them methods over a pointer to a large struct): 40 methods of a
// parser whose receiver points to a struct of 16 fields, two of them a
// struct and a slice (48 variables with the lengths), with a string
// and an int and returning an int and an error, called 3000 times
// each; a small hot function of a rune called 200,000 times; a
// function of three ints 50,000 times. As the collector keeps them,
// only the first MaxDeepCalls calls of each function keep the parts of
// their values.
func BenchmarkMineReal(b *testing.B) {
	benchMine(b, realCalls())
}

// BenchmarkMineTrace mines the trace directory named by
// CULPRIT_MINE_TRACE (skipped when unset): a real trace, for profiling.
func BenchmarkMineTrace(b *testing.B) {
	benchMine(b, envTrace(b))
}

// envTrace loads the trace directory named by CULPRIT_MINE_TRACE, and
// skips the test or benchmark when it is unset.
func envTrace(tb testing.TB) *Calls {
	tb.Helper()
	dir := os.Getenv("CULPRIT_MINE_TRACE")
	if dir == "" {
		tb.Skip("CULPRIT_MINE_TRACE not set")
	}
	cs, err := Load(dir, CollectOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	return cs
}

func realCalls() *Calls {
	r := rand.New(rand.NewSource(7))
	var parse []*Function
	for i := 0; i < 40; i++ {
		parse = append(parse, &Function{Name: "m.parser.next" + strconv.Itoa(i), Params: []string{"p", "s", "depth"}, Results: []string{"result", "err"}})
	}
	width := &Function{Name: "m.RuneWidth", Params: []string{"r"}, Results: []string{"result"}}
	clamp := &Function{Name: "m.clamp", Params: []string{"x", "lo", "hi"}, Results: []string{"result"}}
	pass := func(f *Function, args, results []trace.Value) {
		if len(f.Calls) >= MaxDeepCalls {
			args, results = shallow(args), shallow(results)
		}
		f.Calls = append(f.Calls, Call{Args: args, Results: results, Returned: true, Outcome: trace.OutcomePass, Test: "TestParse"})
	}
	for i := 0; i < 40*3000; i++ {
		line, col := int64(1+r.Intn(500)), int64(r.Intn(80))
		n := r.Intn(12)
		toks := make([]int64, n)
		for j := range toks {
			toks[j] = int64(r.Intn(40))
		}
		name := "key" + strconv.Itoa(r.Intn(50))
		mark := strct("m.mark", trace.Field{Name: "index", Value: iv(line * 80)}, trace.Field{Name: "line", Value: iv(line)}, trace.Field{Name: "column", Value: iv(col)})
		var fs []trace.Field
		fs = append(fs, trace.Field{Name: "mark", Value: mark}, trace.Field{Name: "tokens", Value: ints(toks)},
			trace.Field{Name: "name", Value: sv(name)}, trace.Field{Name: "flow", Value: iv(int64(r.Intn(3)))},
			trace.Field{Name: "simple", Value: trace.Value{Tag: trace.ValTrue}}, trace.Field{Name: "indent", Value: iv(int64(r.Intn(8) - 1))},
			trace.Field{Name: "err", Value: nilv})
		for j := len(fs); j < 16; j++ {
			fs = append(fs, trace.Field{Name: "f" + strconv.Itoa(j), Value: iv(int64(r.Intn(100)))})
		}
		p := ptr("*m.parser", strct("m.parser", fs...))
		s := sv(name + ": value")
		result := trace.Value{Tag: trace.ValInt, Int: int64(n)}
		pass(parse[i%len(parse)], []trace.Value{p, s, iv(int64(r.Intn(5)))}, []trace.Value{result, nilv})
	}
	for i := 0; i < 200000; i++ {
		c := int64(r.Intn(0x3000))
		w := int64(1)
		if c >= 0x1100 {
			w = 2
		}
		pass(width, []trace.Value{iv(c)}, []trace.Value{iv(w)})
	}
	for i := 0; i < 50000; i++ {
		lo, hi := int64(r.Intn(100)), int64(100+r.Intn(100))
		x := int64(r.Intn(300))
		pass(clamp, []trace.Value{iv(x), iv(lo), iv(hi)}, []trace.Value{iv(min(max(x, lo), hi))})
	}
	return &Calls{Functions: append([]*Function{clamp, width}, parse...)}
}
