// Package mystery holds the seed's first example for reducing inputs: a
// function that rejects some strings, with the condition deliberately
// obscured so that it is not obvious which ones.
//
// Mystery panics with "Invalid input" when its input contains a '(' whose
// first occurrence comes before the first ')'. The seed found the failing
// input V"/+!aF-(V4EOz*+s/Q,7)2@0_ by random fuzzing; delta debugging
// reduces it to (), and maximizing a passing input from it drops only the
// '('. culprit reduce reproduces both, on the function (the library) and on
// the command in cmd/mystery with testdata/crash.txt (the command line).
//
// TestMystery runs inputs from the seed's walk-through of manual reduction:
// the subtests whose inputs still hold "(" before ")" fail, the others
// pass. FuzzMystery passes on its seed corpus, and
//
//	go test -run=NONE -fuzz=FuzzMystery ./mystery
//
// finds a failing input at once, as the seed's fuzzer did. Go writes that
// input to testdata/fuzz/FuzzMystery, where plain go test then runs it as
// a new failing subtest: delete it afterwards, or the examples' expectation
// test reports the unexpected test.
package mystery
