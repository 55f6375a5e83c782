package hazards

import "fmt"

// Examples whose output comment is not the last thing in the body: no
// comment the instrumenter adds may come after it (go test would take
// the last comment as the output, and vet wants the output comment last).

func ExampleSum() {
	n := Sum(1, 2)
	fmt.Println(n)
	// Output: 3
	n++
	_ = n
}

func ExampleSum_trailing() {
	fmt.Println(Sum(2, 2)) // Output: 4
}

func ExampleSum_unordered() {
	for _, x := range []int{1, 2} {
		fmt.Println(Sum(x, x))
	}
	// Unordered output:
	// 4
	// 2
	if Sum(1) != 1 {
		panic("Sum")
	}
}
