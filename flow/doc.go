// Package flow draws the dynamic data-flow graph of a run's output: every
// value a program printed, a function returned or a test's failing check
// read, traced back through every intermediate value to the inputs and
// constants it was computed from.
//
// It is a view of the dependence engine (package deps) built for
// execution-level graphs (deps.Options.Versions): each definition of a
// variable is a version of it ("y@0", "y@1", as in SSA form), constants
// are leaves showing their literal, calls into code that is not
// instrumented are nodes of their own ("len(xs)"), and elements read by a
// known index or field are named by it ("xs[3]", "p.name"). Decisions (the
// conditions of if, for, switch and range) are nodes too: what ran under a
// decision depends on it, in else branches as well.
//
// Build picks the outputs, keeps what they depend on and lists, for each
// output, the inputs it depends on. Options fold decisions away (NoCond),
// apply transitive reduction (Reduce: it removes information, an edge
// implied through another path disappears), fold the versions of one
// variable at one site into one node with a count (the default; Unfold
// keeps them apart), and cut the graph down (Depth, Focus).
//
// A long run's graph is bounded by its trace's size: past a budget of
// nodes the engine merges a hot site's later versions into its latest
// (deps.Options.MaxNodes), a variable holding many definitions at once
// is given one version depending on them all, and the walks that list
// the outputs' inputs are bounded together; each says so in a note
// (Graph.Notes), never silently.
//
// The package imports deps and trace only.
package flow
