// Package command reduces a failure-inducing file or directory against an
// external command: the engine behind "culprit reduce".
//
// An [Input] is a file or a directory tree read into memory. Its content
// is cut into units by [Level]s, coarse to fine (whole files, lines,
// tokens, bytes), and delta debugging (package reduce) searches for the
// smallest subset of units that still makes the command fail the same way
// (package oracle decides what "the same way" means). Levels repeat until
// a whole sweep changes nothing.
//
// Every unit is a set of byte ranges of the original files, so a subset
// found at one level maps exactly onto the units of the next: this is what
// lets maximizing a passing input and isolating a failure-inducing
// difference continue from level to level.
//
// A [Reducer] never modifies the original; it writes each improvement
// atomically to its result paths, so an interrupted reduction leaves the
// best input found so far on disk.
package command
