package rt

import "embed"

// Source holds this package's files; the instrumenter writes them, less
// this file and the tests, into the user's build.
//
//go:embed *.go *.s
var Source embed.FS
