// Package spectrum is culprit's statistical fault localization: it turns
// the runs of a test suite into program spectra (which events each test
// executed, and whether it passed or failed), scores every event with a
// suspiciousness metric, and ranks the events, most suspicious first.
//
// A Spectra is a matrix of runs by events. It comes from a trace
// (FromTrace, Load: one run per leaf test, see FromTrace for the rules) or
// from a Builder, for Go code that labels its own runs as passing or
// failing, as the statistical debugger of the seed chapter does
// (Builder.Collect runs a function with a Collector and labels the run by
// its error or panic).
//
// Events are of several kinds (Kind): statements executed, branch
// outcomes, functions entered, values assigned and seen at a function's
// entry and exit ("x = 3"), and predicates at those places ("i < n",
// "result > 0", "err == nil"), in scope as the stream of reads and writes
// shows it (see the collector's activations in values.go). Metrics (Tarantula, Ochiai, DStar...) are declared values
// of type Metric, each with its formula and source; Rank orders events by
// a metric and reports ties as rank ranges. Discrete and continuous
// spectra (Discrete, Hue, Brightness) are the seed's three-color and
// Tarantula views; Tree learns a small decision tree over the events.
//
// The package imports only the trace package: an analysis runs on a trace
// recorded yesterday.
package spectrum
