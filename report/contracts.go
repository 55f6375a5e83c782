package report

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"unicode"

	"github.com/culprit-go/culprit/invariant"
)

// Contracts writes mined contracts as annotated Go signatures: per
// function a comment with its calls and position, its preconditions and
// postconditions as //culprit:pre and //culprit:post lines (the seed's
// @precondition and @postcondition decorators, as Go directives), the
// types seen behind parameters that took several, and the signature with
// the observed types.
func Contracts(w io.Writer, c *invariant.Contracts) error {
	bw := bufio.NewWriter(w)
	if c.Contrast {
		fmt.Fprintf(bw, "// Invariants of the calls made by failing tests that calls made by passing tests violate.\n\n")
	}
	for i, s := range c.Functions {
		if i > 0 {
			fmt.Fprintln(bw)
		}
		pos := ""
		if s.File != "" {
			pos = fmt.Sprintf(", %s:%d", s.File, s.Line)
		}
		what := "calls"
		if c.Contrast {
			what = "failing calls"
		}
		fmt.Fprintf(bw, "// %s: %d %s%s\n", s.Name, s.Calls, what, pos)
		for _, p := range s.Pre {
			fmt.Fprintf(bw, "//culprit:pre %s\n", p)
		}
		for _, p := range s.Post {
			fmt.Fprintf(bw, "//culprit:post %s\n", p)
		}
		for _, v := range append(append([]string(nil), s.Params...), s.Results...) {
			if ts := s.Types[v]; len(ts) > 1 {
				fmt.Fprintf(bw, "// types: %s %s\n", v, typeCounts(ts))
			}
		}
		fmt.Fprintf(bw, "func %s\n", signature(s))
	}
	return bw.Flush()
}

// typeCounts renders "int 3, string 2", most frequent first.
func typeCounts(ts map[string]int) string {
	names := sortedTypes(ts)
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%s %d", n, ts[n])
	}
	return strings.Join(parts, ", ")
}

func sortedTypes(ts map[string]int) []string {
	var names []string
	for n := range ts {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		if ts[names[i]] != ts[names[j]] {
			return ts[names[i]] > ts[names[j]]
		}
		return names[i] < names[j]
	})
	return names
}

// typeOf is a variable's observed type: one type, or a union "int|string"
// ("?" when none was seen).
func typeOf(s *invariant.Spec, v string) string {
	ts := s.Types[v]
	if len(ts) == 0 {
		return "?"
	}
	names := sortedTypes(ts)
	sort.Strings(names)
	return strings.Join(names, "|")
}

// shortName is a function's name without its package path.
func shortName(name string) string {
	if i := strings.LastIndex(name, "/"); i >= 0 {
		name = name[i+1:]
	}
	if i := strings.Index(name, "."); i >= 0 {
		name = name[i+1:]
	}
	return name
}

// signature renders "Name(a int, b int) (result int)".
func signature(s *invariant.Spec) string {
	var ps, rs []string
	for _, p := range s.Params {
		ps = append(ps, p+" "+typeOf(s, p))
	}
	for _, r := range s.Results {
		rs = append(rs, r+" "+typeOf(s, r))
	}
	sig := shortName(s.Name) + "(" + strings.Join(ps, ", ") + ")"
	if len(rs) > 0 {
		sig += " (" + strings.Join(rs, ", ") + ")"
	}
	return sig
}

// ContractsJSON writes the contract file (the schema in docs/mine.md).
func ContractsJSON(w io.Writer, c *invariant.Contracts) error { return c.Write(w) }

// ContractsGo writes the contracts as ordinary Go checks a user can paste
// into the package: per function, a function checking its
// preconditions and one checking its postconditions, returning an error
// that names the violated condition and the values (the seed's verbose
// conditions). Parameters take their observed type; one that took several
// is typed any, and conditions over it are left as comments.
func ContractsGo(w io.Writer, c *invariant.Contracts, pkg string) error {
	var body strings.Builder
	usesStrings, usesApprox := false, false
	var helpers []string // of sum, sorted and all
	for _, s := range c.Functions {
		base := exported(shortName(s.Name))
		for _, k := range []struct {
			kind, what string
			conds      []string
			vars       []string
		}{
			{"Pre", "preconditions", s.Pre, s.Params},
			{"Post", "postconditions", s.Post, append(append([]string(nil), s.Params...), s.Results...)},
		} {
			if len(k.conds) == 0 {
				continue
			}
			typed := map[string]bool{}
			var params, fmtArgs, fmtVerbs []string
			for _, v := range k.vars {
				t := typeOf(s, v)
				if strings.Contains(t, "|") || t == "?" || t == "nil" {
					t = "any"
				} else {
					typed[v] = true
				}
				params = append(params, v+" "+t)
				fmtVerbs = append(fmtVerbs, v+" = %#v")
				fmtArgs = append(fmtArgs, v)
			}
			fmt.Fprintf(&body, "\n// check%s%s checks the %s mined for %s.\n", base, k.kind, k.what, s.Name)
			fmt.Fprintf(&body, "func check%s%s(%s) error {\n", base, k.kind, strings.Join(params, ", "))
			for _, cond := range k.conds {
				e, err := invariant.Parse(cond)
				if err != nil {
					return fmt.Errorf("go checks: %w", err)
				}
				ok := true
				for _, v := range e.Vars() {
					ok = ok && typed[v]
				}
				if !ok {
					fmt.Fprintf(&body, "\t// %s (over a variable of several types)\n", cond)
					continue
				}
				usesStrings = usesStrings || strings.Contains(cond, "strings.")
				usesApprox = usesApprox || strings.Contains(cond, "approx(")
				goCond, used, err := invariant.GoCond(cond)
				if err != nil {
					return fmt.Errorf("go checks: %w", err)
				}
				helpers = append(helpers, used...)
				fmt.Fprintf(&body, "\tif !(%s) {\n", goCond)
				fmt.Fprintf(&body, "\t\treturn fmt.Errorf(%q, %s)\n", s.Name+": "+strings.TrimSuffix(k.what, "s")+" violated: "+cond+" ("+strings.Join(fmtVerbs, ", ")+")", strings.Join(fmtArgs, ", "))
				fmt.Fprintf(&body, "\t}\n")
			}
			fmt.Fprintf(&body, "\treturn nil\n}\n")
		}
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "// Code generated by culprit mine -format go; edit freely.\n\npackage %s\n\nimport (\n\t\"fmt\"\n", pkg)
	if usesApprox {
		fmt.Fprintf(bw, "\t\"math\"\n")
	}
	if usesStrings {
		fmt.Fprintf(bw, "\t\"strings\"\n")
	}
	fmt.Fprintf(bw, ")\n")
	bw.WriteString(body.String())
	if usesApprox {
		fmt.Fprintf(bw, "\n// approx reports whether a and b are equal within a relative 1e-9.\nfunc approx(a, b float64) bool {\n\treturn a == b || math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b))\n}\n")
	}
	if h := invariant.GoHelpers(helpers); h != "" {
		fmt.Fprintf(bw, "\n%s", h)
	}
	return bw.Flush()
}

// exported turns a function name (T.M, F@12) into an identifier part.
func exported(name string) string {
	var b strings.Builder
	up := true
	for _, r := range name {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			up = true
			continue
		}
		if up {
			r = unicode.ToUpper(r)
			up = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Violations writes the result of culprit check for people: each violated
// condition with its function, the calls that violated it (values, test,
// call site), then a summary line.
func Violations(w io.Writer, r *invariant.Checked) error {
	bw := bufio.NewWriter(w)
	for _, v := range r.Violations {
		what := "precondition"
		if v.Kind == "post" {
			what = "postcondition"
		}
		pos := ""
		if v.File != "" {
			pos = fmt.Sprintf(" (%s:%d)", v.File, v.Line)
		}
		fmt.Fprintf(bw, "%s%s: %s violated: %s\n", v.Function, pos, what, v.Cond)
		for _, c := range v.Calls {
			fmt.Fprintf(bw, "    %s", c.Values)
			if c.Test != "" {
				fmt.Fprintf(bw, "  in %s (%s)", c.Test, c.Outcome)
			}
			if c.Site != "" {
				fmt.Fprintf(bw, "  called at %s", c.Site)
			}
			fmt.Fprintln(bw)
		}
		if more := v.Count - len(v.Calls); more > 0 {
			fmt.Fprintf(bw, "    and %d more calls\n", more)
		}
	}
	for _, e := range r.Errors {
		fmt.Fprintf(bw, "error: %s\n", e)
	}
	fmt.Fprintf(bw, "%d violated conditions; %d calls of %d functions checked (%d evaluations, %d not applicable)", len(r.Violations), r.Calls, r.Functions, r.Conditions, r.Unevaluated)
	if len(r.NotCalled) > 0 {
		fmt.Fprintf(bw, "; %d functions of the contracts not called", len(r.NotCalled))
	}
	fmt.Fprintln(bw)
	return bw.Flush()
}

// ViolationsJSON writes the result of culprit check as JSON (schema in
// docs/mine.md).
func ViolationsJSON(w io.Writer, r *invariant.Checked) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		return fmt.Errorf("write violations: %w", err)
	}
	return nil
}
