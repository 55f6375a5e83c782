// Package examplestest keeps the examples honest. The examples module
// (../../examples) holds the seeds' worked examples, several of which fail
// on purpose, and culprit's documentation and golden tests depend on which
// tests fail. The test in this package runs the examples' tests once with
// go test -json and compares every test's outcome with a table, and checks
// that the example commands crash on their testdata the way culprit reduce
// expects. It also runs culprit reduce on those crash inputs and checks the
// results against the seed's worked example.
//
// The package has no code of its own; it exists for its tests, which skip
// under -short because it builds and runs another module.
package examplestest
