package invariant

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/culprit-go/culprit/trace"
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
			envs := map[string]env{"pre": callEnv(f, call, false), "post": callEnv(f, call, true)}

			for j := range conds {
				cd := &conds[j]
				if cd.kind == "post" && !call.Returned {
					continue
				}
				out.Conditions++
				ok, err := cd.e.holds(envs[cd.kind])
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

// callEnv looks up a call's values by name: parameters and their parts
// at entry, results and theirs; with post, a parameter's part whose
// value at exit was recorded reads at exit, and old(x) at entry. A part
// of a known variable that the call did not record (p.f with p nil) is
// absent, so conditions over it are not applicable.
func callEnv(f *Function, c *Call, post bool) env {
	var at, exit map[string]cell
	return func(name string) (cell, bool) {
		if at == nil {
			at, exit = map[string]cell{}, map[string]cell{}
			for i, p := range f.Params {
				if i < len(c.Args) {
					derived(p, c.Args[i], at)
				}
				if post && i < len(c.Final) {
					derived(p, c.Final[i], exit)
				}
			}
			if post && c.Returned {
				for i, r := range f.Results {
					if i < len(c.Results) {
						derived(r, c.Results[i], exit)
					}
				}
			}
		}
		if x, ok := isOld(name); ok {
			if v, ok := at[x]; ok {
				return v, true
			}
			return cell{}, knownRoot(f, x)
		}
		if v, ok := exit[name]; ok {
			return v, true
		}
		if v, ok := at[name]; ok {
			return v, true
		}
		return cell{}, knownRoot(f, name)
	}
}

// knownRoot reports whether the variable a path starts from (p of
// *p.f[0]) is a parameter or result of f.
func knownRoot(f *Function, path string) bool {
	path = strings.TrimLeft(path, "*(")
	if i := strings.IndexAny(path, ".[()"); i >= 0 {
		path = path[:i]
	}
	for _, p := range f.Params {
		if p == path {
			return true
		}
	}
	for _, r := range f.Results {
		if r == path {
			return true
		}
	}
	return false
}

// values renders a call's values: "x = -1, result = 0".
func values(f *Function, c *Call, results bool) string {
	var parts []string
	for i, p := range f.Params {
		if i < len(c.Args) {
			parts = append(parts, p+" = "+show(c.Args[i]))
		}
	}
	if results {
		for i, r := range f.Results {
			if i < len(c.Results) {
				parts = append(parts, r+" = "+show(c.Results[i]))
			}
		}
	}
	return strings.Join(parts, ", ")
}

// show renders a value for people, with its parts when it has some.
func show(v trace.Value) string {
	if v.Deep || v.Err != nil {
		return v.Full()
	}
	return cellOf(v).String()
}
