package constructs

import (
	"fmt"
	"testing"
)

func TestMore(t *testing.T) {
	if err := Rec(func() { panic("x") }); err == nil || err.Error() != "recovered: x" {
		t.Errorf("Rec = %v", err)
	}
	if Goto(4) != 4 {
		t.Error("Goto")
	}
	if Kind(3) != "int" || Kind("a") != "string a" || Kind(nil) != "nil" || Kind(2.0) != "other" {
		t.Error("Kind")
	}
	a, b := make(chan int, 1), make(chan int)
	a <- 5
	if Sel(a, b) != 5 {
		t.Error("Sel")
	}
	close(b)
	if Sel(make(chan int), b) != -1 {
		t.Error("Sel closed")
	}
	if MethodValue() != 20 {
		t.Error("MethodValue")
	}
	if s, n, err := Multi("ab"); s != "ab" || n != 2 || err != nil {
		t.Error("Multi")
	}
	if Short(&Counter{1}) != true || Short(nil) != false {
		t.Error("Short")
	}
	if fmt.Sprintf("%T", Short(nil)) != "constructs.MyBool" {
		t.Error("Short type")
	}
	if Consts() != 2 {
		t.Error("Consts")
	}
	if fmt.Sprint(Addr()) != "[3 3 5]" {
		t.Error("Addr", Addr())
	}
}

func ExampleMiddle() {
	fmt.Println(Middle(1, 2, 3))
	// Output: 2
}

func ExampleKind() {
	fmt.Println(Kind(1))
	// Output: string
}
