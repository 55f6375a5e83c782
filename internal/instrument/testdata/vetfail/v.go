package vetfail

import "fmt"

// Hello prints badly.
func Hello(name string) string {
	if name == "" {
		name = "world"
	}
	return fmt.Sprintf("hello %d", name)
}
