package trace

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
)

func TestSitesRoundTrip(t *testing.T) {
	tests := []struct {
		reason string
		sites  Sites
	}{
		{"empty table", Sites{Root: "/m", Events: EventStmt}},
		{"every kind, shared strings", Sites{Root: "/m", Events: AllEvents, Sites: []Site{
			{Kind: KindStmt, File: "/m/a.go", Line: 3, Col: 2, EndLine: 3, EndCol: 9, Func: "m.F"},
			{Kind: KindBranch, File: "/m/a.go", Line: 4, Col: 5, EndLine: 4, EndCol: 10, Func: "m.F", Info: "if true"},
			{Kind: KindBranch, File: "/m/a.go", Line: 4, Col: 5, EndLine: 4, EndCol: 10, Func: "m.F", Info: "if false"},
			{Kind: KindFunc, File: "/m/b.go", Line: 1, Col: 100000, EndLine: 70000, EndCol: 1, Func: "m.T.M", Info: "m.T.M(t, x) (r)"},
			{Kind: KindRead, File: "/m/a.go", Line: 7, Col: 3, EndLine: 7, EndCol: 4, Func: "m.F", Info: "x", DeclFile: "/m/a.go", DeclLine: 5, DeclCol: 2},
		}}},
	}
	for _, tt := range tests {
		var b bytes.Buffer
		if err := WriteSites(&b, &tt.sites); err != nil {
			t.Fatalf("%s: %v", tt.reason, err)
		}
		got, err := ReadSites(&b)
		if err != nil {
			t.Fatalf("%s: %v", tt.reason, err)
		}
		if len(got.Sites) == 0 {
			got.Sites = nil
		}
		if !reflect.DeepEqual(*got, tt.sites) {
			t.Errorf("%s:\n got %+v\nwant %+v", tt.reason, *got, tt.sites)
		}
	}
}

func TestReadEventsTruncated(t *testing.T) {
	file := []byte(EventsMagic + "\x03\x01p\x07\x0a\x00" +
		"T\x01\x00\x00\x05TestA" +
		"O\x01\x01\x00\x02\x03\x02" + // hits 3, 5
		"E\x01\x01\x04\x00\x01\x04\x06" + // enter site 4 from no call site, value int 3
		"X\x01\x01\x04\x01") // cut inside the values
	tests := []struct {
		reason    string
		data      []byte
		truncated bool
		calls     int
	}{
		{"cut inside a record", file, true, 1},
		{"clean end", append(bytes.Clone(file[:len(file)-len("X\x01\x01\x04\x01")]), 'Z', 0), false, 1},
	}
	for _, tt := range tests {
		p, err := ReadEvents(bytes.NewReader(tt.data), nil)
		if err != nil {
			t.Fatalf("%s: %v", tt.reason, err)
		}
		if p.Truncated != tt.truncated || len(p.Events) != tt.calls {
			t.Errorf("%s: truncated %v calls %d, want %v %d", tt.reason, p.Truncated, len(p.Events), tt.truncated, tt.calls)
		}
		if x := p.Test(1); x == nil || x.Name != "TestA" || x.Outcome != OutcomePass || !reflect.DeepEqual(x.Hits, []int{3, 5}) {
			t.Errorf("%s: test 1 = %+v", tt.reason, x)
		}
		if e := p.Events[0]; e.Values[0].Int != 3 || e.From != -1 || e.Tag != TagEnter {
			t.Errorf("%s: entry %+v", tt.reason, e)
		}
	}
}

// TestReadEventsShort reads the short forms of steps and decisions (the
// test and goroutine of the previous stream record) and locations.
func TestReadEventsShort(t *testing.T) {
	file := []byte(EventsMagic + "\x03\x01p\x07\x0a\x00" +
		"K\x01\x02\x03" + // step, test 1, goroutine 2, site 3
		"k\x04" + // step at site 4, same test and goroutine
		"D\x02\x05\x06" + // decision, test 2, goroutine 5, site 6
		"d\x07" +
		"W\x02\x05\x08\x04\x02\x02\x90\x01\x03\x08" + // write int 1 at element 3 of 0x90, size 8
		"R\x02\x05\x08\x04\x02\x03\x90\x01\x07\x01\x01k" + // read int 1 at key "k" of map 0x90
		"Z\x00")
	p, err := ReadEvents(bytes.NewReader(file), nil)
	if err != nil {
		t.Fatal(err)
	}
	type rec struct {
		Tag               byte
		Test, G, Site     int
		Kind              LocKind
		Addr, Base, Index int64
		Key               string
	}
	var got []rec
	for _, e := range p.Events {
		got = append(got, rec{e.Tag, e.Test, e.Goroutine, e.Site, e.Loc.Kind, int64(e.Loc.Addr), int64(e.Loc.Base), e.Loc.Index, e.Loc.Key.String()})
	}
	want := []rec{
		{TagStep, 1, 2, 3, 0, 0, 0, 0, "?"},
		{TagStep, 1, 2, 4, 0, 0, 0, 0, "?"},
		{TagDecision, 2, 5, 6, 0, 0, 0, 0, "?"},
		{TagDecision, 2, 5, 7, 0, 0, 0, 0, "?"},
		{TagWrite, 2, 5, 8, LocElem, 0x90 + 24, 0x90, 3, "?"},
		{TagRead, 2, 5, 8, LocKey, 0, 0x90, 0, `"k"`},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("records:\n got %+v\nwant %+v", got, want)
	}
	old := []byte(EventsMagic + "\x02\x01p\x07\x0a\x00Z\x00")
	if _, err := ReadEvents(bytes.NewReader(old), nil); err == nil || !strings.Contains(err.Error(), "version 2") {
		t.Errorf("a version 2 file: err = %v, want a version error", err)
	}
}

func TestParseEvents(t *testing.T) {
	tests := []struct {
		in      string
		want    EventSet
		wantErr bool
	}{
		{"stmt", EventStmt, false},
		{"stmt,branch", EventStmt | EventBranch, false},
		{"reads,writes,calls,panics,goroutines,chans,steps,decisions", StreamEvents &^ EventFunc, false},
		{"all", AllEvents, false},
		{"steps,decisions", EventStep | EventDecision, false},
		{"stmt,bogus", 0, true},
	}
	for _, tt := range tests {
		got, err := ParseEvents(tt.in)
		if got != tt.want || (err != nil) != tt.wantErr {
			t.Errorf("ParseEvents(%q) = %v, %v", tt.in, got, err)
		}
	}
}

// TestReadDeepValues decodes format 4's values with parts, the field
// names of struct types and exits by panic, and refuses values nested
// past any the runtime writes.
func TestReadDeepValues(t *testing.T) {
	head := EventsMagic + "\x04\x01p\x07\x0a\x00"
	types := "Y\x01\x04*m.T" + "Y\x02\x03m.T" + "F\x02\x02\x01a\x01b" + "Y\x03\x05[]int" + "Y\x04\x13*errors.errorString"
	// enter site 4: &m.T{a: 1, b: []int{2, 3, ...}(len 9)}, an error.
	ptr := "\x0a\x01" + "\x0d\x02\x02" + "\x04\x02" + "\x0b\x03\x09\x02\x04\x04\x04\x06"
	err := "\x0e\x04\x04boom" + "\x08\x04\x00"
	enter := "E\x01\x01\x04\x00\x02" + ptr + err
	exit := "J\x01\x01\x04\x00"
	tests := []struct {
		reason string
		data   string
		want   []string // the entry's values in full, then the exit's tag and panicking
		err    string
	}{
		{"pointer to struct, slice, error", head + types + enter + exit + "Z\x00",
			[]string{"&m.T{a: 1, b: []int{2, 3, ...}(len 9)}", `error("boom")`, "exit panicking"}, ""},
		{"nested too deep", head + "E\x01\x01\x04\x00\x01" + strings.Repeat("\x0a\x00", 20) + "\x01Z\x00", nil, "nested"},
		{"too many parts", head + "E\x01\x01\x04\x00\x01\x0b\x00\x00\xff\xff\x03Z\x00", nil, "parts"},
	}
	for _, tt := range tests {
		p, err := ReadEvents(strings.NewReader(tt.data), nil)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: error %v, want one saying %q", tt.reason, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tt.reason, err)
		}
		var got []string
		for _, v := range p.Events[0].Values {
			got = append(got, v.Full())
		}
		if x := p.Events[1]; x.Exit() && x.Panicking {
			got = append(got, "exit panicking")
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s:\n got %q\nwant %q", tt.reason, got, tt.want)
		}
		if v := p.Events[0].Values[0]; v.Tag != ValRef || v.Type != "*m.T" || v.String() != "*m.T(len 0)" {
			t.Errorf("%s: a deep pointer reads as %+v, not as format 3's reference", tt.reason, v)
		}
	}
}

// deepFile is an events file with values of every kind, parts nested
// and strings longer than the smallest bufio buffer.
func deepFile() string {
	head := EventsMagic + "\x04\x01p\x07\x0a\x00"
	types := "Y\x01\x04*m.T" + "Y\x02\x03m.T" + "F\x02\x02\x01a\x01b" + "Y\x03\x05[]int" + "Y\x04\x13*errors.errorString" +
		"Y\x05\x14map[string]m.Largest" + "Y\x06\x06[2]m.T" + "Y\x07\x05m.E{}" + "F\x07\x00"
	ptr := "\x0a\x01" + "\x0d\x02\x02" + "\x04\x02" + "\x0b\x03\x09\x02\x04\x04\x04\x06"
	err := "\x0e\x04\x04boom" + "\x08\x04\x00"
	long := "\x07\x8c\x01\x40" + strings.Repeat("x", 64) // 140 bytes, the first 64 kept
	float := "\x06\x00\x00\x00\x00\x00\x00\xf8\x3f"      // 1.5
	array := "\x0c\x06\x02\x02" + "\x0d\x02\x02\x02\x0b\x03\x00\x00" + "\x0d\x07\x00"
	enter := "E\x01\x01\x04\x00\x07" + ptr + err + long + float + array + "\x05\xff\x01" + "\x0e\x04\x04boom" + err
	exit := "X\x01\x01\x04\x02\x07\x03\x03abc\x08\x05\x02"
	read := "R\x01\x01\x05\x07\x03\x03abc\x03\x90\x01" + "\x0d\x02\x01\x07\x01\x01k"
	write := "W\x01\x01\x05\x07\x03\x03abc\x02\x90\x01\x03\x08"
	return head + types + "T\x01\x00\x00\x05TestA" + enter + exit + read + write + "P\x01\x01\x06" + long + "O\x01\x01\x00\x02\x03\x02" + "Z\x00"
}

// TestReadEventsReaders reads the same files, and every prefix of them,
// from readers byte by byte and from bufio.Readers of all sizes (through
// a window on their buffer), and gets the same processes and errors.
func TestReadEventsReaders(t *testing.T) {
	file := deepFile()
	p, err := ReadEvents(strings.NewReader(file), nil)
	if err != nil || len(p.Events) != 5 || p.Truncated {
		t.Fatalf("deep file: %+v, %v", p, err)
	}
	want := []string{`&m.T{a: 1, b: []int{2, 3, ...}(len 9)}`, `error("boom")`, `"` + strings.Repeat("x", 64) + `"...(140 bytes)`, "1.5",
		"[2]m.T{m.T{a: false, b: []int{}}, m.E{}{}}", "255", `error("boom")`}
	var got []string
	for _, v := range p.Events[0].Values {
		got = append(got, v.Full())
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("deep file:\n got %q\nwant %q", got, want)
	}
	if k := p.Events[2].Loc.Key; k.Full() != `m.T{a: "k"}` {
		t.Errorf("map key %s, want m.T{a: \"k\"}", k.Full())
	}
	files := []string{file, EventsMagic + "\x03\x01p\x07\x0a\x00" + "K\x01\x02\x03" + "k\x04" + "D\x02\x05\x06" + "d\x07" + "Z\x00"}
	for _, f := range files {
		for n := 0; n <= len(f); n++ {
			data := f[:n]
			want, wantErr := ReadEvents(strings.NewReader(data), nil)
			readers := map[string]io.Reader{
				"bufio 16":         bufio.NewReaderSize(strings.NewReader(data), 16),
				"bufio 17, halves": bufio.NewReaderSize(iotest.HalfReader(strings.NewReader(data)), 17),
				"bytes one by one": iotest.OneByteReader(strings.NewReader(data)),
				"bufio 4096":       bufio.NewReader(strings.NewReader(data)),
			}
			for name, r := range readers {
				got, err := ReadEvents(r, nil)
				if fmt.Sprint(err) != fmt.Sprint(wantErr) || !reflect.DeepEqual(got, want) {
					t.Errorf("%d bytes from %s:\n got %+v, %v\nwant %+v, %v", n, name, got, err, want, wantErr)
				}
			}
		}
	}
}

// TestReadEventsKept checks that what a reader hands out stays the
// caller's: values kept from a callback are the values read into
// Process.Events, and a slice appended to grows apart.
func TestReadEventsKept(t *testing.T) {
	file := deepFile()
	p, err := ReadEvents(strings.NewReader(file), nil)
	if err != nil {
		t.Fatal(err)
	}
	var kept []Event
	if _, err := ReadEvents(bufio.NewReaderSize(strings.NewReader(file), 16), func(e Event) error { kept = append(kept, e); return nil }); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(kept, p.Events) {
		t.Errorf("kept from the callback:\n%+v\nread:\n%+v", kept, p.Events)
	}
	var check func(where string, vs []Value)
	check = func(where string, vs []Value) {
		if cap(vs) != len(vs) {
			t.Errorf("%s: len %d cap %d: appending would write over other values", where, len(vs), cap(vs))
		}
		for _, v := range vs {
			check(where+" elems", v.Elems)
			if cap(v.Fields) != len(v.Fields) {
				t.Errorf("%s: fields len %d cap %d", where, len(v.Fields), cap(v.Fields))
			}
			for _, f := range v.Fields {
				check(where+" field "+f.Name, []Value{f.Value})
			}
		}
	}
	for _, e := range kept {
		check(string(e.Tag), e.Values)
	}
}

// TestReadSitesLeavesReader checks that reading a site table from a
// bufio.Reader consumes the table and nothing after it.
func TestReadSitesLeavesReader(t *testing.T) {
	var b bytes.Buffer
	sites := Sites{Root: "/m", Events: AllEvents, Sites: []Site{{Kind: KindFunc, File: "/m/a.go", Line: 1, Func: "m.F", Info: "m.F()"}}}
	if err := WriteSites(&b, &sites); err != nil {
		t.Fatal(err)
	}
	b.WriteString("after")
	r := bufio.NewReaderSize(&b, 16)
	if _, err := ReadSites(r); err != nil {
		t.Fatal(err)
	}
	if rest, _ := io.ReadAll(r); string(rest) != "after" {
		t.Errorf("after the table: %q, want %q", rest, "after")
	}
}

// TestReadEventsShallow reads the deep file shallow, from readers of
// every buffer size: the same events as a full read without the values'
// parts, each copied out of the callback (the reader reuses the slices).
func TestReadEventsShallow(t *testing.T) {
	file := deepFile()
	full, err := ReadEvents(strings.NewReader(file), nil)
	if err != nil {
		t.Fatal(err)
	}
	flat := func(vs []Value) []Value {
		if vs == nil {
			return nil
		}
		out := make([]Value, len(vs))
		for i, v := range vs {
			v.Fields, v.Elems, v.Err = nil, nil, nil
			out[i] = v
		}
		return out
	}
	var want []Event
	for _, e := range full.Events {
		e.Values, e.Final = flat(e.Values), flat(e.Final)
		e.Loc.Key = flat([]Value{e.Loc.Key})[0]
		want = append(want, e)
	}
	for _, size := range []int{16, 17, 64, 4096} {
		var got []Event
		_, err := readEvents(bufio.NewReaderSize(strings.NewReader(file), size), readShallow, func(e *Event) error {
			e.Values = append([]Value(nil), e.Values...)
			got = append(got, *e)
			return nil
		})
		if err != nil {
			t.Fatalf("bufio %d: %v", size, err)
		}
		for i := range got {
			if len(got[i].Values) == 0 {
				got[i].Values = nil
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("bufio %d, shallow:\n got %+v\nwant %+v", size, got, want)
		}
	}
}

// TestReadTestsOnly reads the test files, and every prefix of them, for
// their tests only: the process a full read returns, its events left
// out, and the same errors.
func TestReadTestsOnly(t *testing.T) {
	files := []string{deepFile(), EventsMagic + "\x03\x01p\x07\x0a\x00" + "K\x01\x02\x03" + "k\x04" + "D\x02\x05\x06" + "d\x07" + "Z\x00"}
	for _, f := range files {
		for n := 0; n <= len(f); n++ {
			data := f[:n]
			want, wantErr := ReadEvents(strings.NewReader(data), nil)
			if want != nil {
				want.Events = nil
			}
			for _, size := range []int{16, 17, 4096} {
				got, err := ReadTests(bufio.NewReaderSize(strings.NewReader(data), size))
				if fmt.Sprint(err) != fmt.Sprint(wantErr) || !reflect.DeepEqual(got, want) {
					t.Errorf("%d bytes, bufio %d:\n got %+v, %v\nwant %+v, %v", n, size, got, err, want, wantErr)
				}
			}
		}
	}
}
