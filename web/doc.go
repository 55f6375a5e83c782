// Package web is culprit's local view of one trace, served over HTTP as
// go tool pprof -http serves a profile: the ranking of suspicious lines
// (the diagnosis, each line with its evidence, where one is given; the
// single metric's ranking of statements), the source colored with
// Tarantula's continuous spectrum, the backward and forward slices of any
// executed line with their data and control dependencies as links, graphs
// of slices and of flow output drawn by Graphviz's dot on the server, each
// function's mined invariants and observed types beside its source, and a
// guided path through the statements left to inspect.
//
// Load reads a trace directory once and runs the analyses (spectrum,
// deps, invariant, flow); the diagnosis, which runs tests and mutants,
// comes in made, as data (Options.Diagnosis). The Server Load returns is
// immutable, so its Handler serves any number of requests concurrently.
// Routes are declared in one table (Server.routes); templates and assets
// are embedded with go:embed and nothing is fetched from the network.
// Listen binds loopback addresses only unless told otherwise: traces hold
// the values a program computed, which may be secrets.
//
// The guided path keeps what the user marked "looks right" in the
// browser's local storage (assets/view.js): the server holds no session.
package web
