package spectrum_test

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/culprit-go/culprit/spectrum"
)

// middle is the seed's middle, reporting to c: the statement after
// "else if x < z" returns y where it should return x.
func middle(c *spectrum.Collector, x, y, z int) int {
	c.Value("x", x)
	c.Value("y", y)
	c.Value("z", z)
	c.Line()
	if c.Cond("y < z", y < z) {
		c.Line()
		if c.Cond("x < y", x < y) {
			c.Line()
			return y
		} else if c.Cond("x < z", x < z) {
			c.Line() // faultyLine
			return y
		}
	} else {
		c.Line()
		if c.Cond("x > y", x > y) {
			c.Line()
			return y
		} else if c.Cond("x > z", x > z) {
			c.Line()
			return x
		}
	}
	c.Line()
	return z
}

// faultyLine returns the line of middle marked faultyLine.
func faultyLine(t *testing.T) int {
	_, file, _, _ := runtime.Caller(0)
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(src), "\n") {
		if strings.HasSuffix(l, "c.Line() // faultyLine") {
			return i + 1
		}
	}
	t.Fatal("no faultyLine marker")
	return 0
}

// TestCollect checks Builder.Collect on the seed's middle with its six
// tests, labeled both ways a program can label its own runs: by an error
// and by a panic. The faulty line ranks first with the seed's scores, the
// values only the failing run had are found, and a panic is a failing run.
func TestCollect(t *testing.T) {
	inputs := []struct{ x, y, z, want int }{
		{3, 3, 5, 3}, {1, 2, 3, 2}, {3, 2, 1, 2}, {5, 5, 5, 5}, {5, 3, 4, 4}, {2, 1, 3, 2},
	}
	fault := faultyLine(t)
	for _, tt := range []struct {
		name   string
		check  func(got, want int) error // returns the run's error; may panic
		detail string                    // the failing run's Detail
	}{
		{"error", func(got, want int) error {
			if got != want {
				return errors.New("wrong middle")
			}
			return nil
		}, ""},
		{"panic", func(got, want int) error {
			if got != want {
				panic(fmt.Sprintf("middle = %d, want %d", got, want))
			}
			return nil
		}, "panic"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var b spectrum.Builder
			for _, in := range inputs {
				b.Collect(fmt.Sprint(in.x, in.y, in.z), func(c *spectrum.Collector) error {
					return tt.check(middle(c, in.x, in.y, in.z), in.want)
				})
			}
			s := b.Spectra()
			if s.Failed() != 1 || s.Passed() != 5 {
				t.Fatalf("%d failing and %d passing runs, want 1 and 5", s.Failed(), s.Passed())
			}
			for _, r := range s.Runs {
				if r.Outcome == spectrum.Fail && (r.Name != "2 1 3" || r.Detail != tt.detail) {
					t.Errorf("failing run %q (detail %q), want \"2 1 3\" (detail %q)", r.Name, r.Detail, tt.detail)
				}
			}
			lines := s.Filter(func(e spectrum.Event) bool { return e.Kind == spectrum.Stmt })
			for _, m := range []struct {
				metric spectrum.Metric
				score  string
			}{{spectrum.Tarantula, "0.833"}, {spectrum.Ochiai, "0.707"}} {
				top := spectrum.Rank(lines, m.metric).Entries[0]
				e := lines.Events[top.Event]
				if e.Line != fault || top.Worst != 1 || fmt.Sprintf("%.3f", top.Score) != m.score {
					t.Errorf("%s: first %s (%.3f, ranks %d-%d), want line %d alone with %s", m.metric.Name, e, top.Score, top.Best, top.Worst, fault, m.score)
				}
			}
			var onlyFail []string
			for i, e := range s.Events {
				if spectrum.Discrete(s.Counts(i)) == spectrum.OnlyFail {
					onlyFail = append(onlyFail, e.Kind.String()+" "+e.Text)
				}
			}
			if got, want := strings.Join(onlyFail, ", "), "value x = 2, value y = 1"; got != want {
				t.Errorf("events only the failing run had: %s, want %s", got, want)
			}
		})
	}
}
