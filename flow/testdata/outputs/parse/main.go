// Command parse prints what an instrumented function returned, in an
// if statement's init.
package main

import (
	"fmt"
	"strconv"
)

func parse(s string) (int, error) {
	n, err := strconv.Atoi(s)
	return n * 2, err
}

func main() {
	if n, err := parse("12"); err == nil {
		fmt.Println(n)
	}
}
