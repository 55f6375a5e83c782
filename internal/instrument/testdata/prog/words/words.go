// Package words counts words: a package of the program's module, which
// culprit instruments with the program.
package words

import "strings"

// Count returns the number of words of line.
func Count(line string) int {
	n := 0
	for _, w := range strings.Fields(line) {
		if w != "" {
			n++
		}
	}
	return n
}
