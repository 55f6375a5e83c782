// Package changes finds the failure-inducing change between a version of
// a Go module whose tests pass (GOOD) and one where they fail (BAD): the
// first failing commit between them, when both are git revisions, and
// then, inside that commit's change, a minimal set of its lines that,
// applied to the good side, makes the tests fail the same way.
//
// A version is a git revision of a repository, read with git ls-tree,
// git cat-file and git archive (never git checkout: the user's work tree
// and index are not touched), or a directory. The good side is exported
// to a temporary directory; candidates, the good side with a subset of
// the change applied, reach go test through an -overlay file (files go
// build does not read, test data, are written in a per-worker copy).
//
// The change is cut into units at three levels, coarse to fine: Go
// declarations (a changed declaration or import block moves as one
// unit; go.mod and go.sum are one unit of their own at every level),
// hunks and lines (a deleted line and the line that replaced it are one
// unit). At each level, general delta debugging in its minimal
// difference mode (reduce.DD with reduce.Diff) narrows the difference
// between a passing and a failing subset; the result is the failing
// subset's difference from the passing one, completed by the smallest
// context it needs to fail on the good side (reduce.DD with reduce.Min).
// The failure is learned from BAD as package reduce learns it
// (oracle.Judge with oracle.GoPanic: the failing test, the panic or the
// first file:line: message); a candidate that fails otherwise, or does
// not build, is unresolved. Candidates whose Go code does not parse or
// type-check, as go/parser and go/types tell in-process, are unresolved
// without running go test.
package changes
