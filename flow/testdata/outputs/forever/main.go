// Command forever prints from inside a "for {" loop left by a break.
package main

import (
	"fmt"
	"strconv"
)

func main() {
	for {
		v, err := strconv.Atoi("3")
		if err != nil || v > 2 {
			fmt.Println(v)
			break
		}
	}
}
