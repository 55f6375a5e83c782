// Package deps is culprit's dependence engine: it replays the events of
// one test's run (reads, writes, calls, returns, panics, channel
// operations) over the structure of the program's source (statements,
// control flow, assignments, call arguments) and builds the run's dynamic
// dependence graph, from which backward and forward slices are taken.
//
// A node is a variable or pseudo-variable at a site: "x" defined by the
// assignment at middle.go:8:3, "<test>" the condition at middle.go:9:6,
// "<Middle() return value>" the return statement at middle.go:12:4,
// "<t.Errorf()>" the call statement that reported a failure. Nodes are
// summed over the executions of their site (the summary graph: its size is
// bounded by the program, not by the run).
//
// Data dependencies link each read to the definitions it saw: for local
// variables, those of the frame that owns the variable (closures see
// their enclosing function's latest frame); for package variables, the
// latest definitions anywhere. Writes through fields, elements and
// pointers ("p.f", "s[i]") add to what a later read of their root
// variable sees, without replacing it. Copies keep their parts apart: a
// struct or array copied (q := p) takes the fields and elements written
// through p to q's, and append (ys := append(xs, c)) keeps, per element
// of ys, the element of xs it copied or the argument it added
// (elems.go). Arguments flow to parameters
// (receivers included, variadic arguments to the last parameter), return
// statements to the call's value, sent values to the receive that took
// them, a panic's value to the recover that stopped it. Calls into code
// that is not instrumented make their value depend on all their operands;
// the builtin copy also adds to what its destination holds, and such a
// call's arguments &x and pointers, slices and maps are possible writes
// of what they point to, depending on the call (writes.go).
//
// Control dependencies come from the post-dominators of each function's
// control-flow graph, built from the source: if/else chains, loops,
// switch and type switch cases, select, break, continue, goto,
// fallthrough, early returns and calls that end the function (panic,
// t.Fatal, os.Exit); "for {" is given a way out, so that what a break
// guards depends on its condition. The dynamic instance that governs a
// unit is the latest execution, in the same frame, of one of its static
// controllers (none in a loop's first iteration for a controller that
// only decides whether the loop goes on).
// In the summary graph, what a statement read may also depend on what
// did not happen (relevant slicing): a read of a variable that an if's
// branch not taken would have assigned depends on the if (noted in the
// frame holding the variable); a recover that returns nil depends on the
// ifs whose branch not taken panics (avoided.go); a call given
// references defines the caller's variables it was given with its
// effects, "<F() writes>" (effects.go); a read of an element depends on
// the latest writes to other elements of its collection whose index was
// computed (address.go).
// The && and || operators decide too: when a left operand's outcome lets
// the right operand run, the node "<&&>" or "<||>" at the operator (it
// reads what the left operand read) controls what the statement defines
// and the parameters of the calls the right operand makes; nested in a
// right operand, it is controlled by the outer operator's node.
//
// The replay is a core (the builder: frames, units, control dependence,
// reads and writes resolved to storage and to the definitions they see)
// with two views on it, behind the interface view (view.go): the
// summary view makes the graph above, a node per site; the versioned
// view (Options.Versions, versions.go, versions_elems.go, versioned.go
// and budget.go) a node per definition, for culprit flow, bounded by the
// trace's size.
// The core asks its view at each point where the two differ and holds
// no state of either.
//
// The engine imports trace and the standard library only; it reads the
// source files the trace names (a trace recorded yesterday can be sliced
// as long as its files have not changed).
package deps
