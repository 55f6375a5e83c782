package hazards

// Quote appends key, its group's prefix before it, to buf in quotes, as
// slog's handlers do: the key made by concatenation goes through a helper
// closure, and nothing escapes, so appending to a buffer with room
// allocates nothing. Instrumented, neither the write records of the
// closure variable nor the records made while a test counts allocations
// may change that (slog's TestTextHandlerAlloc failed under -events all).
func Quote(buf, prefix []byte, key string) []byte {
	return quoted(buf, string(prefix)+key)
}

func quoted(buf []byte, s string) []byte {
	char := func(b byte) { buf = append(buf, b) }
	str := func(s string) { buf = append(buf, s...) }
	char('"')
	str(s)
	char('"')
	return buf
}

// Total sums the lengths of the names under each key: recording its
// entry reads the map and the strings through reflect, which allocates.
func Total(m map[string][]string) int {
	n := 0
	for _, names := range m {
		for _, s := range names {
			n += len(s)
		}
	}
	return n
}
