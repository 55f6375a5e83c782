package htmlmarkup

import "strings"

// PostconditionViolated is the panic value of RemoveHTMLMarkup when its
// result still contains markup. It never mentions the input, so the panic
// reads the same however much of the input is removed.
const PostconditionViolated = "postcondition violated: output contains '<' or '>'"

// RemoveHTMLMarkup returns s without its HTML tags, keeping the text
// between them. It panics with PostconditionViolated if the result would
// contain '<' or '>'.
//
// It mishandles double quotes outside tags; see the package documentation.
func RemoveHTMLMarkup(s string) string {
	tag := false
	quote := false
	out := ""

	for _, c := range s {
		if c == '<' && !quote {
			tag = true
		} else if c == '>' && !quote {
			tag = false
		} else if c == '"' || c == '\'' && tag { // the defect: parenthesize the ||
			quote = !quote
		} else if !tag {
			out = out + string(c)
		}
	}

	// postcondition
	if strings.ContainsAny(out, "<>") {
		panic(PostconditionViolated)
	}
	return out
}
