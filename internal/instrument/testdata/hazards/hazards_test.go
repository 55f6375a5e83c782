package hazards

import (
	"fmt"
	"testing"
)

// check compares a result with what the code means.
func check(t *testing.T, what string, got, want any) {
	t.Helper()
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

func TestHazards(t *testing.T) {
	a, b, c := EvalOrder()
	check(t, "EvalOrder", fmt.Sprint(a, b, c), "5 14 8")
	check(t, "SharedWrites", SharedWrites(), 1200)
	check(t, "LitName", LitName(nil), "example.com/hazards.LitName.func1")
	calls := 0
	check(t, "Short", Short(&calls), true)
	check(t, "Short calls", calls, 2)
	f1, f2, u, k := Consts()
	check(t, "Consts", fmt.Sprintf("%T %v %T %v %v %v", f1, f1, f2, f2, u, k), "float64 1 float64 2 8 341.3333333333333")
	check(t, "Addr", Addr(), "3 5 [{1 2} {3 9}] {100 1} [2 30] 6")
	check(t, "Sum", Sum(1, 2, 3), 6)
	check(t, "Sum float", Sum(1.5, 2), 3.5)
	check(t, "Pair", Pair[string, int]{"k", 1}.First(), "k")
	n, up, err := Multi("ab")
	check(t, "Multi", fmt.Sprint(n, up, err), "4AB<nil>")
	_, _, err = Multi("")
	check(t, "Multi err", err, "empty")
	check(t, "Tuple", Tuple(), "vkxy")
	check(t, "Rec", Rec(func() { panic("x") }), "recovered: x")
	check(t, "Rec none", Rec(func() {}), nil)
	got, err := NoRec()
	check(t, "NoRec", fmt.Sprint(got, err), "<nil> e")
	check(t, "Goto", Goto(4), 4)
	check(t, "Fall", Fall(2)+"/"+Fall(1)+"/"+Fall(0), "big positive/positive/other")
	check(t, "Kind", Kind(3)+","+Kind(int64(4))+","+Kind("a")+","+Kind(nil)+","+Kind(fmt.Errorf("e"))+","+Kind(2.5), "int 3,int 4,string a,nil,error e,other")
	check(t, "Closures", Closures(), 302)
	check(t, "Chans", Chans(), "[0 10 20 1 28 2] 0 false")
	check(t, "Labels", Labels(), 6)
	check(t, "Sorted", Sorted([]int{3, 1, 2}), []int{1, 2, 3})
	check(t, "NoInline", NoInline(1), 2)
	check(t, "Order", Order(), "[B init] 2")
	check(t, "Shadow", fmt.Sprint(Shadow(3), Shadow(2), Shadow(1), Shadow(0)), "6 5 3 0")
	check(t, "Tagged", Tagged(), true)
	check(t, "Chain", Chain(pt{1, 2}, pt{2, 1}, true), true)
	check(t, "Elements", Elements(), "[1 20 2] 21b[0 2 13] {0 4} 9 13 [9 5] 3 {0 4}")
	check(t, "Headers", Headers(3)+Headers(1), "136"+"124")
	check(t, "Sign", Sign(-2)+" "+Sign(0)+" "+Sign(4)+" "+Sign(3), "- 0 even 2 odd")
	check(t, "Steps", Steps(&box{xs: []int{1, 2}, arr: [3]int{1, 2, 5}, in: pt{x: 2, y: 3}}), "17")
	check(t, "Calls", Calls(), "3 11deferred")
	check(t, "Sends", Sends(), "2 1.5 3 3 9223372036854775808 6")
	check(t, "Later", Later(), "13 12 11")
	check(t, "Edges", Edges(0)+" "+Edges(-1), "23 1 21 0")
	check(t, "CommaOk", CommaOk(map[string]int{"a": 1, "b": 2}, "s"), "3 true 0 falsestrue")
	check(t, "CommaOk int", CommaOk(map[string]int{}, 5), "0 false 0 false5false")
	check(t, "GoDynamic", GoDynamic(), "[1 30 7 9 100] 7")
	check(t, "Lined", Lined(), "lined.y:12 2")
	check(t, "PanicVar", PanicVar(), "EOF")
	check(t, "TupleHeaders", TupleHeaders(3)+" "+TupleHeaders(4)+" "+TupleHeaders(-1), "37 5 3 88 5 3 1 5 3")
}

func TestParallel(t *testing.T) {
	for _, n := range []int{1, 2} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			t.Parallel()
			check(t, "Goto", Goto(n), n)
		})
	}
}

func FuzzGoto(f *testing.F) {
	f.Add(3)
	f.Add(5)
	f.Fuzz(func(t *testing.T, n int) {
		if n < 0 || n > 100 {
			t.Skip()
		}
		check(t, "Goto", Goto(n), n)
	})
}

// TestPlainCalls calls PlainCalls past the calls the instrumentation
// samples.
func TestPlainCalls(t *testing.T) {
	for i := 0; i < 20000; i++ {
		if got := PlainCalls(); got != 9 {
			t.Fatalf("call %d: PlainCalls() = %d, want 9", i, got)
		}
	}
}

// TestRedeclared calls Redeclared past the calls the instrumentation
// samples.
func TestRedeclared(t *testing.T) {
	for i := 0; i < 20000; i++ {
		if n, err := Redeclared("x"); n != 0 || err == nil {
			t.Fatalf("call %d: Redeclared(%q) = %d, %v, want an error", i, "x", n, err)
		}
		if n, err := Redeclared("7"); n != 7 || err != nil {
			t.Fatalf("call %d: Redeclared(%q) = %d, %v, want 7", i, "7", n, err)
		}
	}
}

// TestLocalKey calls LocalKey past the calls the instrumentation
// samples: its values stay equal.
func TestLocalKey(t *testing.T) {
	first := LocalKey("k")
	for i := 0; i < 20000; i++ {
		if k := LocalKey("k"); k != first {
			t.Fatalf("call %d: LocalKey(%q) = %#v, not equal to the first call's %#v", i, "k", k, first)
		}
	}
}
