package spectrum

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// suite returns spectra of 12 top-level tests, some with subtests, over
// 40 events of three kinds: a fault at event 7 that fails the tests
// executing it with an odd index.
func suite() *Spectra {
	var b Builder
	b.Root = "/m"
	for t := 0; t < 12; t++ {
		for sub := 0; sub < 1+t%3; sub++ {
			name := fmt.Sprintf("Test%d", t)
			if t%3 > 0 {
				name += fmt.Sprintf("/case_%d", sub)
			}
			var evs []Event
			fail := false
			for e := 0; e < 40; e++ {
				if (e*7+t*3+sub)%5 < 2 {
					continue
				}
				kinds := []Kind{Stmt, Branch, Predicate}
				evs = append(evs, Event{Kind: kinds[e%3], File: "a.go", Line: 1 + e, Col: 2, Func: "m.F", Text: map[bool]string{true: "x < y"}[e%3 == 2]})
				fail = fail || (e == 7 && (t+sub)%2 == 1)
			}
			out := Pass
			if fail {
				out = Fail
			}
			b.Add(Run{Package: "m", Name: name, Outcome: out}, evs...)
		}
	}
	s := b.Spectra()
	s.Notes = []string{"a note"}
	return s
}

// TestFileRoundTrip writes spectra and reads them back unchanged.
func TestFileRoundTrip(t *testing.T) {
	s := suite()
	var buf bytes.Buffer
	kinds := KindsOf(Stmt, Branch, Predicate)
	if err := s.Write(&buf, kinds, "1/1"); err != nil {
		t.Fatal(err)
	}
	got, gotKinds, err := Read(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	s.Kinds = kinds
	if gotKinds != kinds || !reflect.DeepEqual(got, s) {
		t.Errorf("round trip changed the spectra (kinds %s)", gotKinds)
	}
	for _, tc := range []struct{ in, want string }{
		{`{"format": "culprit-trace"}`, "not a spectra file"},
		{`{"format": "culprit-spectra", "version": 9}`, "version 9"},
		{`{"format": "culprit-spectra", "version": 1, "kinds": "stmt", "runs": [{"name": "T", "outcome": "pass", "events": [3]}]}`, "out of range"},
		{`{"format": "culprit-spectra", "version": 1, "kinds": "stmt", "events": [{"kind": "line"}]}`, `kind "line"`},
	} {
		if _, _, err := Read(strings.NewReader(tc.in)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Read(%s): %v, want %q", tc.in, err, tc.want)
		}
	}
}

// TestShardsMerged splits the suite's runs by ShardOf into n shards, writes
// and reads each, merges them, and compares the ranking with the
// unsharded one, for every metric.
func TestShardsMerged(t *testing.T) {
	s := suite()
	for _, n := range []int{1, 2, 3, 5} {
		var parts []*Spectra
		total := 0
		for i := 0; i < n; i++ {
			part := s.FilterRuns(func(r Run) bool { return ShardOf(r.Name, n) == i })
			total += len(part.Runs)
			var buf bytes.Buffer
			if err := part.Write(&buf, AllKinds, fmt.Sprintf("%d/%d", i+1, n)); err != nil {
				t.Fatal(err)
			}
			back, _, err := Read(&buf)
			if err != nil {
				t.Fatal(err)
			}
			parts = append(parts, back)
		}
		if total != len(s.Runs) {
			t.Fatalf("%d shards hold %d runs, want %d: each test in exactly one", n, total, len(s.Runs))
		}
		merged := Merge(parts...)
		if !reflect.DeepEqual(merged.Events, s.Events) {
			t.Fatalf("%d shards: merged events differ", n)
		}
		for _, m := range Metrics(2) {
			a, b := Rank(s, m), Rank(merged, m)
			for i := range a.Entries {
				x, y := a.Entries[i], b.Entries[i]
				if x.Event != y.Event || x.Counts != y.Counts || !same(x.Score, y.Score) || x.Best != y.Best || x.Worst != y.Worst {
					t.Errorf("%d shards, %s, entry %d: %+v, unsharded %+v", n, m.Name, i, y, x)
					break
				}
			}
		}
	}
}

// TestShardOf checks that subtests go with their test and shards are
// spread.
func TestShardOf(t *testing.T) {
	if ShardOf("TestA/x", 7) != ShardOf("TestA", 7) || ShardOf("TestA/x/y", 7) != ShardOf("TestA/z", 7) {
		t.Error("subtests left their test's shard")
	}
	counts := make([]int, 4)
	for i := 0; i < 400; i++ {
		counts[ShardOf(fmt.Sprintf("Test%d", i), 4)]++
	}
	for i, c := range counts {
		if c < 70 {
			t.Errorf("shard %d of 4 holds %d of 400 tests", i+1, c)
		}
	}
	for _, tc := range []struct {
		in   string
		i, n int
		ok   bool
	}{{"1/2", 0, 2, true}, {"2/2", 1, 2, true}, {"0/2", 0, 0, false}, {"3/2", 0, 0, false}, {"1/0", 0, 0, false}, {"a/b", 0, 0, false}, {"1/2x", 0, 0, false}} {
		i, n, err := ParseShard(tc.in)
		if (err == nil) != tc.ok || i != tc.i || n != tc.n {
			t.Errorf("ParseShard(%q) = %d, %d, %v", tc.in, i, n, err)
		}
	}
}
