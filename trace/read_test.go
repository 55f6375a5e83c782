package trace

import (
	"bytes"
	"reflect"
	"testing"
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
	file := []byte(EventsMagic + "\x02\x01p\x07\x0a\x00" +
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

func TestParseEvents(t *testing.T) {
	tests := []struct {
		in      string
		want    EventSet
		wantErr bool
	}{
		{"stmt", EventStmt, false},
		{"stmt,branch", EventStmt | EventBranch, false},
		{"reads,writes,calls,panics,goroutines,chans", StreamEvents &^ EventFunc, false},
		{"all", AllEvents, false},
		{"stmt,bogus", 0, true},
	}
	for _, tt := range tests {
		got, err := ParseEvents(tt.in)
		if got != tt.want || (err != nil) != tt.wantErr {
			t.Errorf("ParseEvents(%q) = %v, %v", tt.in, got, err)
		}
	}
}
