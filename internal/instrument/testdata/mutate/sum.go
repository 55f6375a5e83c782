package mutate

import "time"

// Sum adds the first n elements.
func Sum(xs []int, n int) int {
	s, m := 0, len(xs)
	for i := 0; i < n && i < m; i++ {
		s = s + xs[i]*1
	}
	return s
}

// Mean is the mean of the first n elements, 0 for none.
func Mean(xs []int, n int) int {
	if n == 0 {
		return 0
	}
	return Sum(xs, n) / n
}

// Total adds the durations of a list up to "end", skipping empty fields
// (the "or" mutated is an "and" vet refuses: mutants build without vet).
func Total(fields []string) (time.Duration, error) {
	var total time.Duration
	for _, f := range fields {
		if f == "" || f == "-" {
			continue
		}
		if f == "end" {
			break
		}
		d, err := time.ParseDuration(f)
		if err != nil {
			return 0, err
		}
		total += d
	}
	return total, nil
}

type pair struct{ key, val string }

// Lookup returns the value of the first pair with the key.
func Lookup(ps []pair, key string) (string, bool) {
	for _, p := range ps {
		if p.key == key {
			v := p.val
			return v, true
		}
	}
	return "", false
}

// Number reads the decimal digits of bs as a number.
func Number(bs []byte) int {
	n := 0
	for _, b := range bs {
		n *= 10
		n += int(b - '0')
	}
	return n
}

// Weighted sums the weights of the ranks listed.
func Weighted(ranks []int, w []int) int {
	sum := 0
	for r := range ranks {
		sum = sum + w[r]
	}
	return sum
}

// Last returns the last field of s, and s without it.
func Last(s []string) (string, []string) {
	n := len(s)
	return s[n-1], s[:n-1]
}

// Sign returns -1 for negative numbers, 1 otherwise.
func Sign(x int) int {
	if x < 0 {
		return -1
	}
	return 1
}

// Class names a number's class: a switch of conditions, then one of
// values.
func Class(x int) string {
	switch {
	case x < 0:
		return "negative"
	case x > 9:
		return "large"
	}
	switch x {
	case 0, 1:
		return "unit"
	case 7:
		return "lucky"
	}
	return "small"
}
