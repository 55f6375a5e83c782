package spectrum

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
)

// A Collector records the events of one run of Go code that reports its
// own execution, as the seed's coverage, value and condition collectors
// do for a traced call: the code calls Line at the statements it wants
// covered, Value at assignments and Cond around conditions. Each event
// is placed at the caller's file and line (columns are not known: 0).
// The zero value is ready to use; Builder.Collect hands a new one to each
// run.
type Collector struct {
	events []Event
}

// maxValueText bounds a string value's text, as the trace's values are
// abbreviated.
const maxValueText = 64

// at returns an event of kind k at the caller of the Collector method
// that calls at.
func (c *Collector) at(k Kind, text string) Event {
	_, file, line, ok := runtime.Caller(2)
	if !ok {
		file, line = "?", 0
	}
	return Event{Kind: k, File: file, Line: line, Text: text}
}

// Line records that the caller's line ran (a statement event).
func (c *Collector) Line() {
	c.events = append(c.events, c.at(Stmt, ""))
}

// Value records the value event "name = v" at the caller's line: strings
// quoted and cut after 64 bytes (with their length), other values as fmt's
// %v prints them.
func (c *Collector) Value(name string, v any) {
	c.events = append(c.events, c.at(Value, name+" = "+valueText(v)))
}

// Cond records the outcome of the condition cond at the caller's line (a
// branch event "cond true" or "cond false") and returns b, so that it can
// wrap the condition: if c.Cond("x < y", x < y) { ... }.
func (c *Collector) Cond(cond string, b bool) bool {
	c.events = append(c.events, c.at(Branch, cond+" "+strconv.FormatBool(b)))
	return b
}

// Events returns the events recorded so far, in the order they happened
// (with repetitions).
func (c *Collector) Events() []Event { return c.events }

func valueText(v any) string {
	s, ok := v.(string)
	if !ok {
		return fmt.Sprint(v)
	}
	if len(s) <= maxValueText {
		return strconv.Quote(s)
	}
	return fmt.Sprintf("%s...(%d bytes)", strconv.Quote(s[:maxValueText]), len(s))
}

// Collect runs f with a new Collector as one run named name and adds it:
// the run fails when f returns an error or panics (the panic is recovered
// and becomes the run's Detail, "panic"), and passes otherwise. Event
// files under b.Root are made relative to it.
func (b *Builder) Collect(name string, f func(c *Collector) error) {
	c := &Collector{}
	run := Run{Name: name, Outcome: Pass}
	func() {
		defer func() {
			if r := recover(); r != nil {
				run.Outcome, run.Detail = Fail, "panic"
			}
		}()
		if err := f(c); err != nil {
			run.Outcome = Fail
		}
	}()
	events := c.events
	if b.Root != "" {
		for i := range events {
			if rel, err := filepath.Rel(b.Root, events[i].File); err == nil && !strings.HasPrefix(rel, "..") {
				events[i].File = filepath.ToSlash(rel)
			}
		}
	}
	b.Add(run, events...)
}
