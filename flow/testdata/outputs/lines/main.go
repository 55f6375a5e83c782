// Command lines upper-cases its input, line by line, in a "for {" loop
// whose first statement reads.
package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

func main() {
	r := bufio.NewReader(os.Stdin)
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			break
		}
		fmt.Print(strings.ToUpper(line))
	}
}
