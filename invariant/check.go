package invariant

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Violation is a condition of a contract that some calls violated.
type Violation struct {
	Function string          `json:"function"`
	File     string          `json:"file,omitempty"`
	Line     int             `json:"line,omitempty"`
	Kind     string          `json:"kind"` // "pre" or "post"
	Cond     string          `json:"condition"`
	Count    int             `json:"count"` // violating calls
	Calls    []ViolatingCall `json:"calls"` // the first MaxExamples of them
}

// ViolatingCall is one call that violated a condition.
type ViolatingCall struct {
	Values  string `json:"values"` // "x = -1, result = 0"
	Test    string `json:"test,omitempty"`
	Outcome string `json:"outcome,omitempty"`
	Site    string `json:"site,omitempty"` // where the call was made, when the trace links it
}

// MaxExamples is how many violating calls a Violation keeps.
const MaxExamples = 3

// Checked is the result of checking contracts against a trace.
type Checked struct {
	Violations  []*Violation `json:"violations"`
	Functions   int          `json:"functions"`   // contract functions that were called
	Calls       int          `json:"calls"`       // calls checked
	Conditions  int          `json:"conditions"`  // condition evaluations
	Unevaluated int          `json:"unevaluated"` // evaluations whose values did not fit the condition
	NotCalled   []string     `json:"not_called,omitempty"`
	Errors      []string     `json:"errors,omitempty"` // conditions naming variables the function lacks
}

// Check evaluates the contracts' pre- and postconditions on every call
// of cs: preconditions on the values at entry, postconditions on those
// and the results of calls that returned. Conditions that cannot be
// evaluated on a call's values (a string compared with a number, a
// string the trace kept in part) are counted in Unevaluated, not
// reported as violations.
func Check(c *Contracts, cs *Calls) (*Checked, error) {
	out := &Checked{Violations: []*Violation{}}
	errSeen := map[string]bool{}
	for _, s := range c.Functions {
		f := cs.Function(s.Name)
		if f == nil {
			out.NotCalled = append(out.NotCalled, s.Name)
			continue
		}
		out.Functions++
		type cond struct {
			kind string
			e    *Expr
			v    *Violation
		}
		var conds []cond
		for _, list := range []struct {
			kind string
			srcs []string
		}{{"pre", s.Pre}, {"post", s.Post}} {
			for _, src := range list.srcs {
				e, err := Parse(src)
				if err != nil {
					return nil, fmt.Errorf("check %s: %w", s.Name, err)
				}
				conds = append(conds, cond{list.kind, e, nil})
			}
		}
		for i := range f.Calls {
			call := &f.Calls[i]
			out.Calls++
			lookup := callEnv(f, call)
			for j := range conds {
				cd := &conds[j]
				if cd.kind == "post" && !call.Returned {
					continue
				}
				out.Conditions++
				ok, err := cd.e.holds(lookup)
				if err != nil {
					if !errors.Is(err, ErrNotApplicable) {
						msg := fmt.Sprintf("%s: %s: %v", s.Name, cd.e.src, err)
						if !errSeen[msg] {
							errSeen[msg] = true
							out.Errors = append(out.Errors, msg)
						}
					}
					out.Unevaluated++
					continue
				}
				if ok {
					continue
				}
				if cd.v == nil {
					cd.v = &Violation{Function: s.Name, File: f.File, Line: f.Line, Kind: cd.kind, Cond: cd.e.src}
					out.Violations = append(out.Violations, cd.v)
				}
				cd.v.Count++
				if len(cd.v.Calls) < MaxExamples {
					vc := ViolatingCall{Values: values(f, call, cd.kind == "post"), Test: call.Test, Site: call.Site}
					if call.Test != "" {
						vc.Outcome = call.Outcome.String()
					}
					cd.v.Calls = append(cd.v.Calls, vc)
				}
			}
		}
	}
	sort.SliceStable(out.Violations, func(i, j int) bool { return out.Violations[i].Function < out.Violations[j].Function })
	return out, nil
}

// callEnv looks up a call's values by name.
func callEnv(f *Function, c *Call) env {
	return func(name string) (cell, bool) {
		for i, p := range f.Params {
			if p == name {
				if i < len(c.Args) {
					return cellOf(c.Args[i]), true
				}
				return cell{}, true
			}
		}
		for i, r := range f.Results {
			if r == name {
				if c.Returned && i < len(c.Results) {
					return cellOf(c.Results[i]), true
				}
				return cell{}, true
			}
		}
		return cell{}, false
	}
}

// values renders a call's values: "x = -1, result = 0".
func values(f *Function, c *Call, results bool) string {
	var parts []string
	for i, p := range f.Params {
		if i < len(c.Args) {
			parts = append(parts, p+" = "+cellOf(c.Args[i]).String())
		}
	}
	if results {
		for i, r := range f.Results {
			if i < len(c.Results) {
				parts = append(parts, r+" = "+cellOf(c.Results[i]).String())
			}
		}
	}
	return strings.Join(parts, ", ")
}
