// Package crash panics at run time, unrecovered: its test dies of it.
package crash

// Attr returns the character after the optional flag; the flag's i++
// is not checked against the end (cascadia v1.3.0's parseAttributeSelector).
func Attr(s string) (byte, error) {
	i := 0
	if s[i] == 'i' {
		i++
	}
	c := s[i]
	return c, nil
}
