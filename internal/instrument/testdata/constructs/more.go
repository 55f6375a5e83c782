package constructs

import (
	"errors"
	"fmt"
)

// Rec recovers a panic into an error: recover stays in the deferred func.
func Rec(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("recovered: %v", r)
		}
	}()
	f()
	return nil
}

// Goto jumps over no declarations.
func Goto(n int) int {
	i := 0
loop:
	if i < n {
		i++
		goto loop
	}
	return i
}

// Kind uses a type switch.
func Kind(v any) string {
	switch x := v.(type) {
	case int:
		return "int"
	case string:
		return "string " + x
	case nil:
		return "nil"
	}
	return "other"
}

// Sel selects.
func Sel(a, b chan int) int {
	select {
	case v := <-a:
		return v
	case v, ok := <-b:
		if !ok {
			return -1
		}
		return v
	}
}

type Counter struct{ n int }

func (c *Counter) Inc() int { c.n++; return c.n }

// MethodValue uses a method value and closures over captured variables.
func MethodValue() int {
	c := &Counter{}
	f := c.Inc
	g := func() int { return f() * 10 }
	f()
	return g()
}

// Multi has several results.
func Multi(s string) (string, int, error) {
	if s == "" {
		return "", 0, errors.New("empty")
	}
	return s, len(s), nil
}

// Short keeps short-circuit evaluation and types of untyped booleans.
func Short(p *Counter) MyBool {
	var b MyBool = p != nil && p.n > 0
	x := p == nil || p.n == 0
	return b && MyBool(!x)
}

const debug = false

func Consts() int {
	if debug && true {
		return 1
	}
	return 2
}

func Addr() []int {
	s := []struct{ v int }{{1}, {2}}
	m := map[string]int{}
	for i := range s {
		s[i].v++
		m["k"] += s[i].v
	}
	p := &s[0].v
	*p++
	return []int{s[0].v, s[1].v, m["k"]}
}
