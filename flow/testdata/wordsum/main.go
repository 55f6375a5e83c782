// Command wordsum prints, for each line of its standard input, the
// line's number and the sum of the lengths of its words (a nested loop
// whose inner loop runs as many times as the line has words), then how
// many of those sums were even and how many odd, and the longest word.
package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

func main() {
	sc := bufio.NewScanner(os.Stdin)
	even, odd := 0, 0
	longest := ""
	n := 0
	for sc.Scan() {
		line := sc.Text()
		words := strings.Fields(line)
		sum := 0
		for j := 0; j < len(words); j++ {
			w := words[j]
			sum += len(w)
			if len(w) > len(longest) {
				longest = w
			}
		}
		n++
		fmt.Println(n, sum)
		if sum%2 == 0 {
			even++
		} else {
			odd++
		}
	}
	fmt.Println("even", even, "odd", odd, "longest", longest)
}
