// Command sum prints a weighted count (issue 18): the printed 5 comes
// through sum and the elements weights[0], weights[2], counts[0..2].
package main

import "fmt"

func main() {
	weights := []float64{0.5, 2.25, 1.5}
	counts := []int{4, 0, 2}
	sum := 0.0
	for j := range weights {
		if counts[j] != 0 {
			sum += weights[j] * float64(counts[j])
		}
	}
	fmt.Println(sum)
}
