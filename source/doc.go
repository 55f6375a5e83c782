// Package source is culprit's model of the program's source files, read
// once per command and shared by everything that reads them: the
// dependence engine (deps), the flow graph, the reports and the web view.
//
// A Set holds the files read so far, by name. A File is one file's text:
// its bytes, its lines (and the same lines with tabs expanded, as the
// code views show them), its syntax, parsed once into the Set's FileSet,
// and the mapping between its positions and lines and columns. A Set
// also knows the package-level variables the Go files of a directory
// declare, the files the trace does not name included.
//
// Names are file paths. Absolute names are read from the operating
// system's file system; relative ones from the Set's fs.FS, or relative
// to the working directory when it has none. A Set is not safe for
// concurrent use: whoever shares one between goroutines serializes its
// use (the web view fills it before it serves).
package source
