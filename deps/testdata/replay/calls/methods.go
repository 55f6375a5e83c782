package calls

import (
	"strings"
	"sync/atomic"
)

// Builder writes its parts into a strings.Builder, whose methods are not
// instrumented: what String returns depends on every part written.
func Builder(a, b string) int {
	var sb strings.Builder
	sb.WriteString(a)
	sb.WriteString(b)
	s := sb.String()
	return len(s)
}

// Counter adds to an atomic counter through its method.
func Counter(n int32) int {
	var c atomic.Int32
	c.Add(n)
	v := c.Load()
	return int(v)
}

// Scaled reads package-level variables declared in another file.
func Scaled(x int, k string) int {
	return x*factor + names[k]
}
