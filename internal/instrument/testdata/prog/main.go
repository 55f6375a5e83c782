// Command prog counts the words of its standard input, prefixed by its
// arguments; its first argument chooses how it ends.
package main

import (
	"bufio"
	"example.com/prog/words"
	"fmt"
	"os"
)

func main() {
	mode := ""
	if len(os.Args) > 1 {
		mode = os.Args[1]
	}
	total := 0
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		total += words.Count(sc.Text())
	}
	fmt.Println(mode, total)
	fmt.Fprintln(os.Stderr, "to stderr")
	done := make(chan bool)
	go func() { done <- total > 0 }()
	<-done
	switch mode {
	case "exit":
		os.Exit(3)
	case "panic":
		panic("boom")
	}
}
