// Command scan prints values written by code that is not instrumented,
// through pointers: fmt.Sscan, json.Unmarshal and fmt.Scan from
// standard input.
package main

import (
	"encoding/json"
	"fmt"
)

type config struct{ N int }

func main() {
	var n int
	fmt.Sscan("42", &n)
	fmt.Println(n)
	var v config
	if err := json.Unmarshal([]byte(`{"N": 7}`), &v); err != nil {
		return
	}
	fmt.Println(v.N)
	var x int
	fmt.Scan(&x)
	fmt.Println(x + 1)
}
