// Package textdiff compares texts line by line: a shortest edit script
// (Myers's algorithm, anchored on the lines that occur once on each side
// as in the patience diff) and the hunks of a unified diff, three lines
// of context. culprit reduce prints the failure-inducing difference with
// it, culprit changes the change it isolates.
package textdiff
