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

// token is a JSON token: its text as a string, or as bytes of a
// decoder's buffer.
type token struct {
	raw []byte
	s   string
}

func (t token) text() (string, []byte) {
	if t.raw != nil {
		return "", t.raw[1 : len(t.raw)-1]
	}
	return t.s, nil
}

// String is small enough to be inlined: the caller converts the bytes,
// and a lookup m[tok.String()] then allocates nothing (the compiler
// reads the string in place). Instrumented, recording its if's outcome
// must not make it too costly to inline (goccy/go-json's
// TestTokenStringAllocations failed under -events branch: the outcome
// was a call wrapping the condition).
func (t token) String() string {
	s, b := t.text()
	if b != nil {
		return string(b)
	} else if s == "" {
		return "<empty>"
	}
	return s
}
