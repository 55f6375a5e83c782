package reduce

import (
	"context"
	"errors"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"
)

// Failure describes how a function call failed.
type Failure struct {
	// Kind is "panic", "error" (a non-nil error as the last result) or
	// "goexit" (the function called runtime.Goexit, as t.FailNow does).
	Kind string
	// Type is the dynamic type of the panic value or of the error, as %T
	// prints it: "*errors.errorString", "runtime.boundsError", "string".
	Type string
	// Message is the error's text or the panic value printed with %v.
	Message string
	// Runtime reports a panic raised by the Go runtime (index out of
	// range, nil dereference, ...): its message holds values such as
	// indices and lengths that change as the input shrinks.
	Runtime bool
}

// String returns the failure as "panic: TYPE: MESSAGE".
func (f Failure) String() string {
	if f.Kind == "goexit" {
		return "goexit"
	}
	if f.Message == "" {
		return f.Kind + ": " + f.Type
	}
	return f.Kind + ": " + f.Type + ": " + f.Message
}

var digits = regexp.MustCompile(`[0-9]+`)

// SameFailure is the default failure signature: the same kind, type and
// message. Digits in the messages of runtime errors are ignored, so
// "index out of range [7] with length 7" is the same failure as
// "index out of range [2] with length 2"; other messages must be equal.
func SameFailure(want, got Failure) bool {
	if want.Kind != got.Kind || want.Type != got.Type || want.Runtime != got.Runtime {
		return false
	}
	if want.Runtime {
		return digits.ReplaceAllString(want.Message, "N") == digits.ReplaceAllString(got.Message, "N")
	}
	return want.Message == got.Message
}

// Errors of the call reducer.
var (
	// ErrNotReproduced: calling the function again failed in another way.
	ErrNotReproduced = errors.New("failure not reproduced")
)

// Call reduces the arguments of a failing Go function call: the strings
// (by runes, or bytes when not valid UTF-8), slices and arrays among them.
// An array keeps its length; reducing it sets elements to their zero
// value. Other arguments stay as they are. Configure the exported fields
// before calling Min, Max or Diff.
type Call struct {
	// Name is the function's name as Format prints it; NewCall takes it
	// from the function (without package qualifier).
	Name string
	// Log, if set, receives one line for each call run:
	//	Test #3 mystery("()"): FAIL (panic: *errors.errorString: Invalid input)
	Log io.Writer
	// Timeout bounds each call; zero means no bound. A call that times out
	// is Unresolved, and its goroutine is left running: Go cannot stop it.
	Timeout time.Duration
	// Workers is the number of calls run concurrently (see Config). The
	// function must then be safe for concurrent use. Zero means one.
	Workers int
	// Same decides whether a failure is the original one; nil means
	// SameFailure. Any other failure is Unresolved.
	Same func(want, got Failure) bool
	// Rewrite, if set, shrinks each string argument structurally before
	// Min reduces it rune by rune: it is given the argument's index, its
	// value and a test telling whether another value still fails the same
	// way, and returns the smallest failing value it found (package
	// gosyntax's Rewrite reduces Go source by its syntax tree, package
	// jsontree's reduces JSON). Max and Diff do not use it.
	Rewrite func(ctx context.Context, arg int, s string, fails func(ctx context.Context, s string) bool) (string, error)

	fn       reflect.Value
	params   []reflect.Type // one per parameter; the variadic one is a slice
	variadic bool
	args     []reflect.Value // the original arguments, one per parameter
	orig     []reflect.Value // before Rewrite, if it changed args
	failure  Failure

	mu    sync.Mutex
	cache map[string]Outcome
	stats Stats
}

// NewCall calls fn with args and records how it fails. Arguments are given
// as to a direct call: a variadic function takes its variadic arguments one
// by one. It returns an error wrapping ErrNotFailing when the call neither
// panics nor returns a non-nil error, and a plain error when fn is not a
// function or the arguments do not match its parameters.
func NewCall(fn any, args ...any) (*Call, error) {
	v := reflect.ValueOf(fn)
	if v.Kind() != reflect.Func || v.IsNil() {
		return nil, fmt.Errorf("reduce: call: %T is not a function", fn)
	}
	t := v.Type()
	c := &Call{Name: funcName(v), fn: v, variadic: t.IsVariadic(), cache: make(map[string]Outcome)}
	for i := 0; i < t.NumIn(); i++ {
		c.params = append(c.params, t.In(i))
	}
	fixed := len(c.params)
	if c.variadic {
		fixed--
	}
	if len(args) < fixed || (!c.variadic && len(args) > fixed) {
		want := strconv.Itoa(fixed)
		if c.variadic {
			want = "at least " + want
		}
		return nil, fmt.Errorf("reduce: call: %s takes %s argument(s), got %d", c.Name, want, len(args))
	}
	arg := func(i int, a any, t reflect.Type) (reflect.Value, error) {
		if a == nil {
			switch t.Kind() {
			case reflect.Chan, reflect.Func, reflect.Interface, reflect.Map, reflect.Pointer, reflect.Slice:
				return reflect.Zero(t), nil
			}
			return reflect.Value{}, fmt.Errorf("reduce: call: %s argument %d: nil is not a %v", c.Name, i+1, t)
		}
		av := reflect.ValueOf(a)
		if !av.Type().AssignableTo(t) {
			return reflect.Value{}, fmt.Errorf("reduce: call: %s argument %d: %v is not assignable to %v", c.Name, i+1, av.Type(), t)
		}
		out := reflect.New(t).Elem()
		out.Set(av)
		return out, nil
	}
	for i := 0; i < fixed; i++ {
		a, err := arg(i, args[i], c.params[i])
		if err != nil {
			return nil, err
		}
		c.args = append(c.args, a)
	}
	if c.variadic {
		st := c.params[fixed]
		rest := reflect.MakeSlice(st, 0, len(args)-fixed)
		for i := fixed; i < len(args); i++ {
			a, err := arg(i, args[i], st.Elem())
			if err != nil {
				return nil, err
			}
			rest = reflect.Append(rest, a)
		}
		c.args = append(c.args, rest)
	}
	f := c.invoke(context.Background(), c.args)
	if f == nil {
		return nil, fmt.Errorf("reduce: call: %s did not fail: %w", c.format(c.args), ErrNotFailing)
	}
	c.failure = *f
	return c, nil
}

// Failure returns the failure observed when NewCall ran the call.
func (c *Call) Failure() Failure { return c.failure }

// Args returns the original arguments.
func (c *Call) Args() []any { return c.unpack(c.original()) }

func (c *Call) original() []reflect.Value {
	if c.orig != nil {
		return c.orig
	}
	return c.args
}

// Stats returns the number of calls run and of outcomes found in the cache
// so far.
func (c *Call) Stats() Stats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stats
}

// Format prints a call of the function with args (as returned by Min, Max,
// Diff or Args) as Go source: mystery("()").
func (c *Call) Format(args []any) string {
	vals, err := c.pack(args)
	if err != nil {
		return c.Name + "(" + err.Error() + ")"
	}
	return c.format(vals)
}

// Min reduces the failing call: it checks that the failure reproduces,
// then minimizes each reducible argument in turn, with the others fixed,
// until none shrinks. The result fails the same way and each reducible
// argument is 1-minimal. On cancellation it returns the smallest failing
// arguments found so far and an error wrapping ctx.Err().
func (c *Call) Min(ctx context.Context) ([]any, error) {
	if err := c.reproduce(ctx); err != nil {
		return nil, err
	}
	if err := c.rewrite(ctx); err != nil {
		return c.unpack(c.args), err
	}
	fail := c.fullSets()
	err := c.turns(ctx, Min, nil, fail)
	return c.unpack(c.build(fail)), err
}

// Max maximizes a passing call: starting from the call with every
// reducible argument empty (which must pass), it grows each argument in
// turn, with the others fixed, towards its original value until none
// grows. The result passes and each reducible argument is 1-maximal.
func (c *Call) Max(ctx context.Context) ([]any, error) {
	if err := c.reproduce(ctx); err != nil {
		return nil, err
	}
	full := c.fullSets()
	pass := make([][]int, len(c.args))
	for a := range full {
		if full[a] != nil {
			pass[a] = []int{}
		}
	}
	empty := c.build(pass)
	if out := c.test(ctx, empty); out != Pass {
		return nil, fmt.Errorf("reduce: call: %s: %v: %w", c.format(empty), out, ErrNotPassing)
	}
	err := c.turns(ctx, Max, pass, full)
	return c.unpack(c.build(pass)), err
}

// Diff isolates a minimal failure-inducing difference: a passing call, a
// failing call, and the difference between their arguments (for each
// reducible argument, the elements of the failing value missing from the
// passing one; other arguments as they are). Unlike Min and Max it
// reduces all arguments at once, over the union of their elements, so
// that the passing and the failing call differ by one 1-minimal set of
// elements even when several arguments take part.
func (c *Call) Diff(ctx context.Context) (pass, fail, diff []any, err error) {
	if err := c.reproduce(ctx); err != nil {
		return nil, nil, nil, err
	}
	type unit struct{ arg, i int }
	var units []unit
	full := c.fullSets()
	for a, set := range full {
		for _, i := range set {
			units = append(units, unit{a, i})
		}
	}
	sets := func(us []unit) [][]int {
		s := make([][]int, len(c.args))
		for a := range c.args {
			if full[a] == nil {
				s[a] = nil
			} else {
				s[a] = []int{}
			}
		}
		for _, u := range us {
			s[u.arg] = append(s[u.arg], u.i)
		}
		return s
	}
	test := func(ctx context.Context, us []unit) Outcome { return c.test(ctx, c.build(sets(us))) }
	res, err := DD(ctx, units, test, Diff, Config{Workers: c.Workers})
	if err != nil && !isCancel(err) {
		return nil, nil, nil, fmt.Errorf("reduce: call: %s: %w", c.Name, err)
	}
	return c.unpack(c.build(sets(res.Pass))), c.unpack(c.build(sets(res.Fail))), c.unpack(c.build(sets(res.Diff))), err
}

// Test returns the source of a Go test function that makes the reduced
// call and fails while the failure persists: a regression test to paste
// into the function's package.
func (c *Call) Test(args []any) string {
	vals, err := c.pack(args)
	if err != nil {
		return "// " + err.Error() + "\n"
	}
	call := c.format(vals)
	name := "Test" + upperFirst(c.Name) + "Reduced"
	var b strings.Builder
	fmt.Fprintf(&b, "// %s was written by culprit reduce: the reduced form of\n", name)
	fmt.Fprintf(&b, "// %s,\n", abbreviate(c.format(c.original()), 70))
	fmt.Fprintf(&b, "// which failed with %s.\n", abbreviate(c.failure.String(), 70))
	fmt.Fprintf(&b, "func %s(t *testing.T) {\n", name)
	switch c.failure.Kind {
	case "error":
		lhs := strings.Repeat("_, ", c.fn.Type().NumOut()-1) + "err"
		fmt.Fprintf(&b, "\tif %s := %s; err != nil {\n", lhs, call)
		fmt.Fprintf(&b, "\t\tt.Fatalf(\"%%s returned error: %%v\", %q, err)\n", call)
		fmt.Fprintf(&b, "\t}\n")
	default:
		fmt.Fprintf(&b, "\tdefer func() {\n")
		fmt.Fprintf(&b, "\t\tif r := recover(); r != nil {\n")
		fmt.Fprintf(&b, "\t\t\tt.Fatalf(\"%%s panicked: %%v\", %q, r)\n", call)
		fmt.Fprintf(&b, "\t\t}\n\t}()\n")
		fmt.Fprintf(&b, "\t%s\n", call)
	}
	b.WriteString("}\n")
	return b.String()
}

// rewrite runs the Rewrite hook on each string argument and makes its
// results the arguments Min reduces further.
func (c *Call) rewrite(ctx context.Context) error {
	if c.Rewrite == nil {
		return nil
	}
	for a, v := range c.args {
		if v.Kind() != reflect.String {
			continue
		}
		fails := func(ctx context.Context, s string) bool {
			args := append([]reflect.Value(nil), c.args...)
			nv := reflect.New(v.Type()).Elem()
			nv.SetString(s)
			args[a] = nv
			return c.test(ctx, args) == Fail
		}
		s, err := c.Rewrite(ctx, a, v.String(), fails)
		if err != nil {
			return fmt.Errorf("reduce: call: %s argument %d: %w", c.Name, a+1, err)
		}
		if len(s) < len(v.String()) && fails(ctx, s) {
			if c.orig == nil {
				c.orig = append([]reflect.Value(nil), c.args...)
			}
			nv := reflect.New(v.Type()).Elem()
			nv.SetString(s)
			c.args[a] = nv
		}
	}
	return nil
}

// reproduce runs the original call again (the first test) and checks
// that it fails the same way.
func (c *Call) reproduce(ctx context.Context) error {
	out, f := c.run(ctx, c.args)
	c.mu.Lock()
	c.cache[c.format(c.args)] = out
	c.mu.Unlock()
	switch out {
	case Fail:
		return nil
	case Pass:
		return fmt.Errorf("reduce: call: when called again, %s did not fail: %w", c.format(c.args), ErrNotFailing)
	}
	what := "timed out"
	if f != nil {
		what = "failed with " + f.String()
	}
	return fmt.Errorf("reduce: call: when called again, %s %s instead of %s: %w",
		c.format(c.args), what, c.failure, ErrNotReproduced)
}

// turns reduces (Min) or grows (Max) the reducible arguments one after
// another until a whole round changes nothing. fail and pass hold, per
// argument, the indices of the original value's elements in the current
// failing and passing values (nil for arguments that are not reducible).
func (c *Call) turns(ctx context.Context, mode Mode, pass, fail [][]int) error {
	var pending []int
	all := func(except int) []int {
		var ps []int
		for a := range c.args {
			if fail[a] != nil && a != except {
				ps = append(ps, a)
			}
		}
		return ps
	}
	pending = all(-1)
	for len(pending) > 0 {
		a := pending[0]
		pending = pending[1:]
		if len(fail[a]) == 0 {
			continue
		}
		state := fail
		if mode == Max {
			state = pass
		}
		test := func(ctx context.Context, cand []int) Outcome {
			sets := append([][]int(nil), state...)
			sets[a] = cand
			return c.test(ctx, c.build(sets))
		}
		cfg := Config{Workers: c.Workers}
		if mode == Max {
			cfg.Pass = positions(fail[a], pass[a])
		}
		res, err := DD(ctx, fail[a], test, mode, cfg)
		if err != nil && !isCancel(err) {
			return fmt.Errorf("reduce: call: %s argument %d: %w", c.Name, a+1, err)
		}
		changed := false
		if mode == Min && len(res.Fail) < len(fail[a]) {
			fail[a], changed = res.Fail, true
		}
		if mode == Max && len(res.Pass) > len(pass[a]) {
			pass[a], changed = res.Pass, true
		}
		if err != nil {
			return err
		}
		if changed {
			pending = all(a)
		}
	}
	return nil
}

func isCancel(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// positions returns the positions in sorted set of the elements of sub.
func positions(set, sub []int) []int {
	var out []int
	j := 0
	for i, x := range set {
		if j < len(sub) && sub[j] == x {
			out = append(out, i)
			j++
		}
	}
	return out
}

// fullSets returns, for each argument, the indices of its reducible
// elements: every rune (or byte) of a string, every element of a slice,
// every nonzero element of an array; nil for other arguments.
func (c *Call) fullSets() [][]int {
	sets := make([][]int, len(c.args))
	for a, v := range c.args {
		switch v.Kind() {
		case reflect.String:
			sets[a] = allIndices(len(stringUnits(v.String())))
		case reflect.Slice:
			sets[a] = allIndices(v.Len())
		case reflect.Array:
			sets[a] = []int{}
			for i := 0; i < v.Len(); i++ {
				if !v.Index(i).IsZero() {
					sets[a] = append(sets[a], i)
				}
			}
		}
	}
	return sets
}

// stringUnits splits a string into runes, or into bytes when it is not
// valid UTF-8.
func stringUnits(s string) []string {
	var units []string
	if utf8.ValidString(s) {
		for _, r := range s {
			units = append(units, string(r))
		}
		return units
	}
	for i := 0; i < len(s); i++ {
		units = append(units, s[i:i+1])
	}
	return units
}

// build returns the arguments whose reducible elements are those in sets.
func (c *Call) build(sets [][]int) []reflect.Value {
	out := make([]reflect.Value, len(c.args))
	for a, v := range c.args {
		set := sets[a]
		if set == nil {
			out[a] = v
			continue
		}
		nv := reflect.New(v.Type()).Elem()
		switch v.Kind() {
		case reflect.String:
			units := stringUnits(v.String())
			var b strings.Builder
			for _, i := range set {
				b.WriteString(units[i])
			}
			nv.SetString(b.String())
		case reflect.Slice:
			s := reflect.MakeSlice(v.Type(), 0, len(set))
			for _, i := range set {
				s = reflect.Append(s, v.Index(i))
			}
			nv.Set(s)
		case reflect.Array:
			for _, i := range set {
				nv.Index(i).Set(v.Index(i))
			}
		}
		out[a] = nv
	}
	return out
}

// test runs the call with args, memoized by the call's source text.
func (c *Call) test(ctx context.Context, args []reflect.Value) Outcome {
	key := c.format(args)
	c.mu.Lock()
	out, ok := c.cache[key]
	if ok {
		c.stats.CacheHits++
	}
	c.mu.Unlock()
	if ok {
		return out
	}
	out, _ = c.run(ctx, args)
	if ctx.Err() == nil {
		c.mu.Lock()
		c.cache[key] = out
		c.mu.Unlock()
	}
	return out
}

// run makes one call, classifies and logs it.
func (c *Call) run(ctx context.Context, args []reflect.Value) (Outcome, *Failure) {
	f := c.invoke(ctx, args)
	var out Outcome
	switch same := c.Same; {
	case f == nil:
		out = Pass
	case f.Kind == "timeout":
		out = Unresolved
	case same == nil && SameFailure(c.failure, *f), same != nil && same(c.failure, *f):
		out = Fail
	default:
		out = Unresolved
	}
	c.mu.Lock()
	c.stats.Tests++
	n := c.stats.Tests
	if c.Log != nil {
		detail := ""
		if f != nil {
			detail = " (" + f.String() + ")"
		}
		fmt.Fprintf(c.Log, "Test #%d %s: %v%s\n", n, c.format(args), out, detail)
	}
	c.mu.Unlock()
	return out, f
}

// invoke calls the function in a goroutine of its own, so that a panic or
// runtime.Goexit cannot escape, and returns its failure or nil.
func (c *Call) invoke(ctx context.Context, args []reflect.Value) *Failure {
	done := make(chan *Failure, 1)
	go func() {
		var failure *Failure
		returned := false
		defer func() {
			if !returned {
				if r := recover(); r != nil {
					failure = panicFailure(r)
				} else {
					failure = &Failure{Kind: "goexit"}
				}
			}
			done <- failure
		}()
		var results []reflect.Value
		if c.variadic {
			results = c.fn.CallSlice(args)
		} else {
			results = c.fn.Call(args)
		}
		returned = true
		if n := len(results); n > 0 {
			last := results[n-1]
			if last.Type() == errorType && !last.IsNil() {
				err := last.Interface().(error)
				failure = &Failure{Kind: "error", Type: fmt.Sprintf("%T", err), Message: err.Error()}
			}
		}
	}()
	if c.Timeout <= 0 {
		return <-done
	}
	timer := time.NewTimer(c.Timeout)
	defer timer.Stop()
	select {
	case f := <-done:
		return f
	case <-timer.C:
		return &Failure{Kind: "timeout", Message: c.Timeout.String()}
	case <-ctx.Done():
		return &Failure{Kind: "timeout", Message: ctx.Err().Error()}
	}
}

var errorType = reflect.TypeFor[error]()

func panicFailure(r any) *Failure {
	f := &Failure{Kind: "panic", Type: fmt.Sprintf("%T", r)}
	switch v := r.(type) {
	case runtime.Error:
		f.Message, f.Runtime = v.Error(), true
	case error:
		f.Message = v.Error()
	default:
		f.Message = fmt.Sprint(v)
	}
	return f
}

// pack turns arguments as a caller writes them into one value per
// parameter.
func (c *Call) pack(args []any) ([]reflect.Value, error) {
	fixed := len(c.params)
	if c.variadic {
		fixed--
	}
	if len(args) < fixed || (!c.variadic && len(args) != fixed) {
		return nil, fmt.Errorf("%d arguments for %d parameters", len(args), len(c.params))
	}
	var out []reflect.Value
	var err error
	value := func(a any, t reflect.Type) reflect.Value {
		v := reflect.New(t).Elem()
		if a == nil {
			return v
		}
		av := reflect.ValueOf(a)
		if !av.Type().AssignableTo(t) {
			err = fmt.Errorf("%v is not assignable to %v", av.Type(), t)
			return v
		}
		v.Set(av)
		return v
	}
	for i := 0; i < fixed; i++ {
		out = append(out, value(args[i], c.params[i]))
	}
	if c.variadic {
		st := c.params[fixed]
		rest := reflect.MakeSlice(st, 0, len(args)-fixed)
		for _, a := range args[fixed:] {
			rest = reflect.Append(rest, value(a, st.Elem()))
		}
		out = append(out, rest)
	}
	return out, err
}

// unpack is the inverse of pack: variadic arguments come out one by one.
func (c *Call) unpack(vals []reflect.Value) []any {
	var out []any
	for i, v := range vals {
		if c.variadic && i == len(vals)-1 {
			for j := 0; j < v.Len(); j++ {
				out = append(out, v.Index(j).Interface())
			}
			continue
		}
		out = append(out, v.Interface())
	}
	return out
}

func (c *Call) format(vals []reflect.Value) string {
	var parts []string
	for i, v := range vals {
		if c.variadic && i == len(vals)-1 {
			for j := 0; j < v.Len(); j++ {
				parts = append(parts, formatValue(v.Index(j)))
			}
			continue
		}
		parts = append(parts, formatValue(v))
	}
	return c.Name + "(" + strings.Join(parts, ", ") + ")"
}

// formatValue prints a value as a Go expression.
func formatValue(v reflect.Value) string {
	if v.Kind() == reflect.Interface {
		if v.IsNil() {
			return "nil"
		}
		v = v.Elem()
	}
	if v.Kind() == reflect.String {
		return strconv.Quote(v.String())
	}
	return fmt.Sprintf("%#v", v.Interface())
}

// funcName returns a function's name without its package path; closures
// are called "fn".
func funcName(v reflect.Value) string {
	f := runtime.FuncForPC(v.Pointer())
	if f == nil {
		return "fn"
	}
	name := f.Name()
	if i := strings.LastIndex(name, "/"); i >= 0 {
		name = name[i+1:]
	}
	if i := strings.Index(name, "."); i >= 0 {
		name = name[i+1:]
	}
	name = strings.TrimSuffix(name, "-fm")
	if i := strings.LastIndex(name, "."); i >= 0 {
		last := name[i+1:]
		if strings.HasPrefix(last, "func") {
			return "fn"
		}
		name = last
	}
	if strings.HasPrefix(name, "func") {
		return "fn"
	}
	return name
}

func upperFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

func abbreviate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-3]) + "..."
}
