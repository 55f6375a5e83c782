// Package hazards holds the constructs instrumentation must not change
// the meaning of; hazards_test.go checks each result, so that the test
// passes plain and instrumented alike (cmd/cover's testdata/test.go does
// the same).
package hazards

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
)

var order []string

// Init order: package variables initialize in dependency order.
var (
	initA = initB + 1
	initB = note("B", 1)
)

func note(s string, v int) int { order = append(order, s); return v }

func init() { order = append(order, "init") }

var global = 1

func bump() int { global += 10; return 3 }

// EvalOrder: a variable operand is read after the calls of its
// expression, as the compiler does it.
func EvalOrder() (int, int, int) {
	x := 1
	f := func() int { x = 2; return 3 }
	a := x + f() // x read after f: 5
	global = 1
	b := global + bump() // 14
	y := 1
	p := &y
	g := func() int { *p = 7; return 1 }
	c := y + g() // 8
	return a, b, c
}

// Short keeps short-circuit evaluation.
func Short(calls *int) bool {
	t := func(v bool) bool { *calls++; return v }
	return t(false) && t(true) || t(true) || t(false)
}

// Consts keeps untyped constants untyped.
func Consts() (float64, float64, uint8, string) {
	s := []float64{0, 0}
	s[1] = 1
	ch := make(chan float64, 1)
	ch <- 2
	var u uint8 = 1
	u <<= 3
	const k = 1 << 10
	return s[1], <-ch, u, fmt.Sprint(k / 3.0)
}

type pt struct{ x, y int }

func (p *pt) move(d int) { p.x += d }
func (p pt) sum() int    { return p.x + p.y }

// Addr keeps addressability: &x, x++, m[k] = v, s[i].f = v, methods on
// addressable receivers, slices of arrays.
func Addr() string {
	x := 1
	q := &x
	*q++
	x++
	m := map[string]int{}
	m["a"] = x
	m["a"] += 2
	s := []pt{{1, 2}, {3, 4}}
	s[1].y = 9
	v := pt{1, 1}
	v.move(4)
	arr := [3]int{1, 2, 3}
	sl := arr[1:]
	arr[2] = 30
	f := v.sum // method value: copies v now
	v.x = 100
	return fmt.Sprint(x, m["a"], s, v, sl, f())
}

// Number is a generic constraint.
type Number interface{ ~int | ~float64 }

// Sum is generic.
func Sum[T Number](xs ...T) (total T) {
	for _, x := range xs {
		total += x
	}
	return
}

// Pair is a generic type with a method.
type Pair[K comparable, V any] struct {
	K K
	V V
}

// First returns the key.
func (p Pair[K, V]) First() K { return p.K }

// Multi has several and named results.
func Multi(s string) (n int, up string, err error) {
	defer func() { n *= 2 }() // named results changed after return
	if s == "" {
		return 0, "", errors.New("empty")
	}
	return len(s), strings.ToUpper(s), nil
}

func split(s string) (string, string) {
	a, b, _ := strings.Cut(s, "=")
	return a, b
}

// Tuple assigns several results, and passes them on directly.
func Tuple() string {
	a, b := split("k=v")
	b, a = a, b
	return fmt.Sprint(a, b, join(split("x=y")))
}

func join(a, b string) string { return a + b }

// Rec recovers: recover stays directly in the deferred function.
func Rec(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("recovered: %v", r)
		}
	}()
	f()
	return nil
}

func helperRecover() any { return recover() } // not directly deferred: nil

// NoRec shows recover outside the deferred function returns nil.
func NoRec() (got any, err error) {
	defer func() {
		got = helperRecover()
		err, _ = recover().(error)
	}()
	panic(errors.New("e"))
}

// Goto jumps without jumping over declarations.
func Goto(n int) int {
	i := 0
loop:
	if i < n {
		i++
		goto loop
	}
	return i
}

// Fall falls through.
func Fall(n int) string {
	var b strings.Builder
	switch {
	case n > 1:
		b.WriteString("big ")
		fallthrough
	case n > 0:
		b.WriteString("positive")
	default:
		b.WriteString("other")
	}
	return b.String()
}

// Kind switches on types.
func Kind(v any) string {
	switch x := v.(type) {
	case int, int64:
		return fmt.Sprintf("int %v", x)
	case string:
		return "string " + x
	case nil:
		return "nil"
	case error:
		return "error " + x.Error()
	}
	return "other"
}

// Closures share captured variables.
func Closures() int {
	n := 0
	inc := func() { n++ }
	get := func() int { return n }
	for i := 0; i < 3; i++ {
		inc()
	}
	var fs []func() int
	for i := range 3 {
		fs = append(fs, func() int { return i })
	}
	return get()*100 + fs[0]() + fs[2]()
}

// Chans sends and receives, with select and range.
func Chans() string {
	ch := make(chan int, 3)
	done := make(chan bool)
	go func(k int) {
		for i := 0; i < k; i++ {
			ch <- i * 10
		}
		close(ch)
		done <- true
	}(3)
	<-done
	var got []int
	for v := range ch {
		got = append(got, v)
	}
	c2 := make(chan string, 1)
	c2 <- "x"
	select {
	case s, ok := <-c2:
		got = append(got, len(s))
		_ = ok
	default:
		got = append(got, -1)
	}
	// A channel reached through a field: its operand is not a variable.
	box := struct{ c chan int }{make(chan int, 1)}
	box.c <- len(got) * 7
	got = append(got, <-box.c)
	// A struct value sent: its read takes its address, inside the send.
	type pair struct{ a, b int }
	pc := make(chan pair, 1)
	p := pair{1, 2}
	pc <- p
	got = append(got, (<-pc).b)
	v, ok := <-ch
	return fmt.Sprint(got, v, ok)
}

// Labels breaks and continues outer loops.
func Labels() int {
	n := 0
outer:
	for i := 0; i < 5; i++ {
		for j := 0; j < 5; j++ {
			if j == 2 {
				continue outer
			}
			if i == 3 {
				break outer
			}
			n++
		}
	}
	return n
}

// Sorted calls back from uninstrumented code.
func Sorted(xs []int) []int {
	sort.Slice(xs, func(i, j int) bool { return xs[i] < xs[j] })
	return xs
}

// NoInline keeps its directive.
//
//go:noinline
func NoInline(x int) int { return x + 1 }

// Order reports the initialization order.
func Order() string { return fmt.Sprint(order, initA) }

// Shadow declares in if and switch headers.
func Shadow(x int) int {
	if x := x * 2; x > 4 {
		return x
	} else if y := x + 1; y > 2 {
		return y
	}
	switch y := x; {
	case y > 0:
		return -y
	}
	return 0
}

func (p pt) id() pt { return p }

// Chain calls methods on values inside && operands; it slices an array
// through a pointer.
func Chain(a, b pt, ok bool) bool {
	var arr [4]byte
	pa := &arr
	copy((*pa)[:], "ab")
	return ok && a.id().sum() == b.id().sum() && pa[1] == 'b'
}

// The constructs format 3 records precisely: elements, entries, fields
// and dereferences read and written (with aliases), header writes,
// deferred and go calls of named functions and method values, sends of
// constants and converted values, in select cases too.

type box struct {
	name string
	xs   []int
	arr  [3]int
	in   pt
}

func (b *box) rename(s string) { b.name = s }

func addTo(p *int, d int) { *p += d }

// Elements reads and writes elements, entries, fields and through
// pointers; the results show that nothing moved.
func Elements() string {
	xs := []int{1, 2, 3}
	ys := xs[1:]
	ys[0] = 20 // xs[1] through an alias
	m := map[string]int{"a": 1}
	m["b"] = m["a"] + xs[1]
	b := &box{name: "b", xs: xs}
	b.xs[2] = b.xs[0] + len(b.name)
	b.arr[1] = b.xs[2]
	b.in.y = b.arr[1] * 2
	v := *b
	v.arr[0] = 9 // a copy
	p := &b.arr[2]
	*p = v.arr[0] + b.in.y
	arr := [2]int{4, 5}
	pa := &arr
	pa[0] = pa[1] + arr[0]
	n := len(io.EOF.Error())
	whole := v.in
	return fmt.Sprint(xs, m["b"], b.name, b.arr, b.in, v.arr[0], *p, arr, n, whole)
}

// Headers assigns in if, switch and for headers.
func Headers(n int) string {
	out := 0
	if got := n * 2; got > 4 {
		out += got
	}
	switch k := n + 1; {
	case k > 2:
		out += k
	}
	for i := 0; i < n; i++ {
		out++
	}
	for j := 1; j < 100; j *= 3 {
		out += j
	}
	var f float64
	for f = 0.5; f < 2; f += 1 {
		out++
	}
	return fmt.Sprint(out)
}

// Steps advances loops by fields, elements, calls and dereferences read
// in their post statements (i op= e, recorded as i = W(i op (e)) with e's
// own reads inside the parentheses).
func Steps(b *box) string {
	out := 0
	for i := 0; i < 10; i += b.arr[1] {
		out++
	}
	for i := 0; i < 10; i += b.in.y {
		out++
	}
	for i := 0; i < 10; i += len(b.xs) + b.arr[0] {
		out++
	}
	step := &b.arr[2]
	for i := 0; i < 10; i += *step {
		out++
	}
	for i := 10; i > 0; i -= b.in.sum() {
		out++
	}
	return fmt.Sprint(out)
}

// Calls defers and starts named functions and method values.
func Calls() (s string) {
	b := &box{}
	n := 1
	defer func() { s += fmt.Sprint(n, b.name) }()
	defer b.rename("deferred")
	defer addTo(&n, 10)
	done := make(chan bool)
	c := &counter{}
	go c.run(3, done)
	<-done
	go signal(done, 5)
	<-done
	return fmt.Sprint(c.n, " ")
}

type counter struct{ n int }

func (c *counter) run(k int, done chan bool) {
	for i := 0; i < k; i++ {
		c.n += i
	}
	done <- true
}

func signal(done chan bool, _ int) { done <- true }

// Sends sends constants and converted values, in select cases too.
func Sends() string {
	fc := make(chan float64, 2)
	fc <- 2
	var x = 3
	ac := make(chan any, 2)
	ac <- x
	select {
	case fc <- 1.5:
	default:
	}
	select {
	case ac <- x:
	default:
	}
	uc := make(chan uint64, 1)
	uc <- 1 << 63 // does not fit an int
	ma := map[any]int{}
	k := 2
	ma[k] = 5 // an int key of an interface-keyed map
	ma[3] = ma[k] + 1
	return fmt.Sprint(<-fc, <-fc, <-ac, <-ac, <-uc, ma[3])
}

// Issue 3's gaps, closed: reads before a call in their statement, comma-ok
// reads, go statements with a dynamic callee, tuple assignments in
// headers.

var later = 0

func bumpLater() int { later++; return 1 }

// Later reads locals, their fields and constant-indexed array elements
// before a call in the same statement: no call can change them. A
// package variable read there is left alone (bumpLater changes it).
func Later() string {
	n := 2
	lp := pt{3, 4}
	larr := [3]int{5, 6, 7}
	sum := n + lp.y + larr[1] + bumpLater()
	later = 10
	g := later + bumpLater() // 12: later is read after the call
	return fmt.Sprint(sum, g, later)
}

// CommaOk reads map entries and asserts types with comma-ok, in
// statements and in headers.
func CommaOk(m map[string]int, x any) string {
	cv, cok := m["a"]
	var dv, dok = m["zz"]
	key := "b"
	if hv, hok := m[key]; hok {
		cv += hv
	}
	s, sok := x.(string)
	switch tv, tok := x.(int); {
	case tok:
		s += fmt.Sprint(tv)
	}
	return fmt.Sprint(cv, cok, dv, dok, s, sok)
}

type runner interface{ run(k int, done chan bool) }

// GoDynamic starts goroutines through a function value, an interface
// method, a method value and a function returned by a call, with
// constant, variadic and untyped arguments.
func GoDynamic() string {
	done := make(chan bool)
	res := make(chan int, 8)
	send := func(v int, _ float64, done chan bool) { res <- v; done <- true }
	go send(1, 2, done) // 2 is a float64
	<-done
	var r runner = &counter{}
	go r.run(4, done)
	<-done
	mv := r.run
	go mv(2, done)
	<-done
	sum := func(done chan bool, xs ...int) {
		t := 0
		for _, x := range xs {
			t += x
		}
		res <- t
		done <- true
	}
	xs := []int{10, 20}
	go sum(done, xs...)
	<-done
	go sum(done, 3, 4)
	<-done
	mk := func(k int) func(chan bool) { return func(d chan bool) { res <- k; d <- true } }
	go mk(9)(done)
	<-done
	type flag bool
	check := func(f flag, done chan bool) { res <- map[flag]int{true: 100, false: 200}[f]; done <- true }
	a, b := 1, 1
	go check(a == b, done) // an untyped comparison taking the parameter's type: left alone
	<-done
	close(res)
	var got []int
	for v := range res {
		got = append(got, v)
	}
	return fmt.Sprint(got, r.(*counter).n)
}

// TupleHeaders assigns tuples in if, switch and for headers.
func TupleHeaders(n int) string {
	out := 0
	if q, rem := n/3, n%3; rem == 0 {
		out += q
	} else if p, err := split2(n); err == nil {
		out += p
	}
	switch a, b := split2(n); {
	case b != nil:
		out = -1
	default:
		out += a
	}
	for i, j := 0, n; i < j; i, j = i+1, j-1 {
		out += j - i
	}
	x, y := 1, 2
	for x, y = y, x; x < 5; x, y = x+y, x { // a swap: only y's write is recorded
		out++
	}
	return fmt.Sprint(out, x, y)
}

func split2(n int) (int, error) {
	if n < 0 {
		return 0, errors.New("negative")
	}
	return n * 10, nil
}

type holder struct {
	m  map[string]int
	fn func(int, chan bool)
}

type starter interface{ start(chan int) }

type seven struct{}

func (seven) start(c chan int) { c <- 7 }

// goGeneric starts a method of a type parameter.
func goGeneric[S starter](s S) int {
	c := make(chan int)
	go s.start(c)
	return <-c
}

// Edges: labels on headers moved out or kept, a field's map read with
// comma-ok, go statements through a field, a parenthesized literal and a
// type parameter's method.
func Edges(n int) string {
	h := holder{m: map[string]int{"k": 4}}
	out := 0
	if v, ok := h.m["k"]; ok {
		out += v
	}
	tries := 0
again:
	if a, b := split2(n - tries); b == nil && a < 10 {
		tries++
		goto again
	}
sw:
	switch a, b := n, tries; {
	case a > 100:
		break sw
	default:
		out += a + b
	}
	done := make(chan bool)
	h.fn = func(k int, d chan bool) { out += k; d <- true }
	go h.fn(5, done)
	<-done
	go (func(k int) { out += k; done <- true })(6)
	<-done
	out += goGeneric(seven{})
	return fmt.Sprint(out, tries)
}

// Sign ends in an if-else chain that returns on every branch, with no
// return after it (a terminating statement): what records the branches'
// outcomes (an "else if" made a block, counters first in each block)
// must keep it one.
func Sign(n int) string {
	if n < 0 {
		return "-"
	} else if n == 0 {
		return "0"
	} else if q, r := n/2, n%2; r == 0 {
		return fmt.Sprint("even ", q)
	} else {
		return "odd"
	}
}

// Functions named _ are never called, and a package may declare several:
// none gets a plain function (two would collide).
func _() { _ = Sum(1, 2) }

func _() { _ = Sum(3) }

// PlainCalls calls functions whose plain functions (compiled without
// inlining) must name what their declarations leave unnamed or blank, and
// pass a variadic parameter and type parameters on; its calls past the
// first ten thousand are muted and call them.
func PlainCalls() int {
	var u unnamedRecv
	return blankParam(1, 2) + unnamedParams(3, "x") + u.get(4) + countGen("a", "b") + countGen[string]()
}

func blankParam(_, b int) int { return b }

func unnamedParams(int, string) int { return 1 }

type unnamedRecv struct{}

func (unnamedRecv) get(x int) int { return x }

func countGen[S ~string](xs ...S) int {
	n := 0
	for range xs {
		n++
	}
	return n
}

// Redeclared assigns its result err with := beside a new variable and
// returns bare: a copy of its body in a block of its own would declare a
// second err there, and return without it (or not compile).
func Redeclared(s string) (n int, err error) {
	m, err := parseDigit(s)
	if fmt.Sprint(m) != strings.TrimSpace(fmt.Sprint(m)) {
		panic(m)
	}
	n = m
	return
}

func parseDigit(s string) (int, error) {
	if len(s) != 1 || s[0] < '0' || s[0] > '9' {
		return 0, errNotDigit
	}
	return int(s[0] - '0'), nil
}

var errNotDigit = errors.New("not a digit")

// LocalKey returns a value of a type declared in its body, as a context
// key would be made: every call's is of the same type, so they compare
// equal (two copies of the body would declare two types).
func LocalKey(s string) interface{} {
	type key struct{ s string }
	if fmt.Sprint(s) != strings.TrimSpace(fmt.Sprint(s)) {
		panic(s)
	}
	return key{s}
}
