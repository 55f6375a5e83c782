// Package invariant mines likely function specifications from traces and
// checks them: dynamic invariants in the manner of Daikon and of the
// seed's InvariantAnnotator, done for Go.
//
// From the function entry and exit records of a trace (culprit test
// -events func,panics), Collect gathers each function's calls: the
// receiver and argument values at entry, the results at exit, the test
// that made the call and its outcome. Mine instantiates a pattern library
// (Patterns) over every type-compatible combination of the function's
// variables — parameters, results and derived variables such as len(s) —
// and keeps the properties that held in every observed call and whose
// chance of holding by accident is below a confidence limit. Properties
// over the arguments alone are preconditions; those that mention a result
// are postconditions. Implied properties are dropped (x > 0 hides x >= 0
// and x != 0). Contrast mines the invariants of the calls made by failing
// tests that do not hold in the passing ones.
//
// Invariants are Go expressions over the parameter names and the results
// (result, or result0, result1... or the results' Go names); Eval
// evaluates them, and Check evaluates a contract file's invariants over
// the calls of a new trace, reporting every violation: a regression
// oracle that needs no change to the program, since the trace records
// the values the conditions read.
//
// Mining is incremental, as Daikon's is: the first calls of a function
// (maxBuffered, MaxDeepCalls: every call whose values kept their parts)
// are made into rows of cells, one per variable, from which the
// variables and the candidates are instantiated; every later call is
// made into one reused row and checked against the candidates that
// survived only, and what the confidence formulas count (samples,
// distinct tuples up to what the limit needs, ranges) is gathered as
// they hold. Memory grows with the variables and candidates, not with
// the calls, and time per call falls as candidates die. The result is
// that of checking all calls at once (TestStreamed), but for: a
// variable first seen after the buffered calls is left out (the
// collector keeps parts only in those); the distinct tuples of x != 0
// and x != y are counted up to 16,384 (past it their chance looks
// larger, never smaller); a variable without a value in any buffered
// call gets no candidates; and when a numeric variable takes another
// kind only after the buffered calls, leaving 12 numeric variables of
// 13, the x == y + z candidates (instantiated over 12 at most) are not
// made up for.
//
// The package imports the trace package only; it runs on traces recorded
// earlier.
package invariant
