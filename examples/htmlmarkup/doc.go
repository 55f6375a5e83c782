// Package htmlmarkup strips HTML tags from text: the seeds' ongoing example
// of a subtle defect, remove_html_markup.
//
// The function tracks whether it is inside a tag and whether it is inside a
// quoted attribute value, so that a '>' within quotes does not end the tag.
// Its defect is an operator-precedence slip in the quote test, which reads
//
//	c == '"' || c == '\'' && tag
//
// where the two character tests were meant to be grouped in parentheses
// before "&& tag". Because && binds tighter than ||, a double quote toggles
// the quote state even outside tags. The quote characters themselves are
// then dropped from the output, and while the spurious quote state lasts,
// '<' and '>' are copied into the output as text instead of being treated
// as markup.
//
// The version here is the one from the seeds' chapter on assertions, which
// the chapters on statistical debugging and on reducing inputs start from:
// it ends with a postcondition that the output contains no '<' or '>', and
// panics when that does not hold. So an input such as "foo" (with the
// quotes) returns foo without them, a wrong result, while "x > y" trips the
// postcondition. Inputs without double quotes in the text work, including
// quoted attribute values inside tags.
//
// The tests use the seeds' inputs: the three quoted-text subtests of
// TestRemoveHTMLMarkup fail, the others pass. The command in cmd/htmlmarkup
// runs the function on a file; testdata/crash.html is a page that makes it
// panic, the starting point for culprit reduce.
package htmlmarkup
