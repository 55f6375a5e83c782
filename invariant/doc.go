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
// Daikon's two savings over the buffered calls are made, both exact:
// the results are those of checking every candidate on every call.
// Equal variables: variables whose cells are the same in every
// buffered call form a class, and a candidate that, its variables
// replaced by the first of their classes, is another candidate is not
// checked on the buffered calls: it would hold, fail and count as that
// one does, whose state it takes when they end (join); it is checked on
// its own after, so a class that later calls split needs nothing
// more. Constants: a variable with one literal value over the
// buffered calls (in enough of them for x == c to be justified) gets
// its unary candidates, while those pairing it with others in a
// pattern that reduce drops beside a constant (x != y, x == y*y,
// x == y + c, the string containments, the ternary arithmetic) are set
// aside; if x == c is not among the justified results at the end (a
// later call changed x), they are checked over every call then
// (undefer). Orderings and equalities, which reduce keeps beside a
// constant, are checked as before.
//
// Repeated calls are checked once, also exact: a fact alive after a row
// held on it, and feeding the same row again changes only what counts
// samples (how many had the fact's variables, how many sat at a range's
// bounds), not the distinct tuples, bounds or constants. So the
// buffered rows are grouped by equality wherever they occur, and each
// later call whose values equal the call before's is counted with its
// row instead of being made into one (repeat.go; TestRepeats). Calls
// repeat much: on toml's trace half of the first rows, and 64% of the
// later calls, equal another.
//
// When the pre- and postconditions are mined together, the
// postconditions' miner does not check its candidates over the
// parameters alone that the preconditions' miner has too (same
// pattern, variables and elements: by position when one miner is a
// view of the other, by name otherwise); it adopts that miner's
// survivors, which reduce needs beside the facts over the results
// (TestAdopt). A value with the shape of the parameter's value in the
// call before puts its cells where that one's derived parts went,
// without naming its parts again (plan.go, TestPlans).
//
// The collector keeps a function's later calls' values side by side in
// blocks (Function.keep), and lets a first call's value equal to the
// call before's share its parts (share), so repeated receivers are held
// once and compared at once. Functions are mined in parallel
// (Options.Workers); each has its own state, so the contracts do not
// depend on the order.
//
// The package imports the trace package only; it runs on traces recorded
// earlier.
package invariant
