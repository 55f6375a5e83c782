package multiarg

import "strings"

// Panic values of StringError and ListError. They never mention the
// arguments, so a panic reads the same however far they are reduced.
const (
	NoSubstrings        = "no substrings"
	InvalidStringLength = "invalid string length"
)

// StringError panics with NoSubstrings if s1 occurs in s2.
func StringError(s1, s2 string) {
	if strings.Contains(s2, s1) {
		panic(NoSubstrings)
	}
}

// ListError panics with InvalidStringLength unless
// len(l1) < len(l2) < maxlen.
func ListError(l1, l2 []int, maxlen int) {
	if !(len(l1) < len(l2) && len(l2) < maxlen) {
		panic(InvalidStringLength)
	}
}
