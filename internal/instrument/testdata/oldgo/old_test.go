package oldgo

import (
	"fmt"
	"testing"
)

func TestScale(t *testing.T) {
	got := Scale([]int{1, 2, 3}, 2)
	if fmt.Sprint(got) != "[2 4 6]" {
		t.Errorf("Scale = %v", got)
	}
}

func TestCheck(t *testing.T) {
	if err := Check(-1); err == nil || err.Error() != "negative" {
		t.Errorf("Check(-1) = %v", err)
	}
	if err := Check(1); err != nil {
		t.Errorf("Check(1) = %v", err)
	}
}

func TestPipe(t *testing.T) {
	if got := Pipe(4); got != 12 {
		t.Errorf("Pipe(4) = %d", got)
	}
}

// TestSemantics fails if the instrumented copy changed the meaning of
// the module's Go version: loop variables shared (before go1.22) and
// panic(nil) recovering nil (GODEBUG panicnil=1 for a go1.12 module).
func TestSemantics(t *testing.T) {
	if got := Closures(); got != 6 {
		t.Errorf("Closures = %d, want 6 (one i shared by the closures)", got)
	}
	func() {
		defer func() {
			if r := recover(); r != nil {
				t.Errorf("panic(nil) recovered %T, want nil", r)
			}
		}()
		panic(nil)
	}()
	if Twice(3) != 6 {
		t.Error("Twice")
	}
}

func ExampleScale() {
	xs := Scale([]int{1, 2}, 3)
	fmt.Println(xs)
	// Output: [3 6]
	xs = nil
	_ = xs
}
