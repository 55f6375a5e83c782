// Package rewrite reduces texts that have a syntax by editing their trees
// instead of deleting their bytes: hierarchical delta debugging with
// replacements.
//
// A [Syntax] knows one language. For the current text of a file it
// proposes rounds of independent [Edit]s, each a set of byte-range
// replacements (delete a statement; replace an if by its body; replace
// an expression by its type's zero value), largest subtrees first; and it
// checks and normalizes candidates (parse, gofmt, re-indent). [Reduce]
// applies as many edits of each round as it can, by halving (all of
// them, else each half, down to single edits): a candidate applies a
// subset of them, is normalized, and is skipped without running the test
// when it does not parse. Rounds repeat until none makes progress; the
// edits that failed alone wait (see [Memory]) until a last, strict pass
// tests each alone, so the result is 1-minimal with respect to every
// edit of every round. [Config.DD] runs delta debugging (ddmin) over a
// round's edits instead.
//
// Package gosyntax provides the syntax of Go, jsontree that of JSON, and
// brackets a language-agnostic one for bracketed and indented text.
package rewrite
