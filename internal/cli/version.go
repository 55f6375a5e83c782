package cli

import (
	"flag"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"
)

// modulePath is the module culprit's packages belong to.
const modulePath = "github.com/culprit-go/culprit"

const versionUsage = `Usage: culprit version

Version prints the version of the culprit module the binary was built
from and, when the build recorded it, the VCS revision: "go install
github.com/culprit-go/culprit/cmd/culprit@latest" and "go tool culprit"
record the module version, a build in a clone (go build, go install)
the commit, its time and whether the work tree had changes. "culprit
-version" prints the same.
`

// runVersion prints the module version and VCS revision of the binary.
func runVersion(e *env, args []string) int {
	fs := flag.NewFlagSet("version", flag.ContinueOnError)
	fs.Usage = func() { fmt.Fprint(fs.Output(), versionUsage) }
	if done, status := parseFlags(e, fs, args); done {
		return status
	}
	if fs.NArg() > 0 {
		errorf(e, "version: unexpected arguments %q", fs.Args())
		return exitUsage
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		fmt.Fprintf(e.stdout, "culprit (unknown version: built without module support) %s\n", runtime.Version())
		return exitOK
	}
	writeVersion(e.stdout, bi)
	return exitOK
}

// writeVersion writes what bi says of culprit's module: its version (and
// replacement), then the VCS revision when the build stamped one.
//
//	culprit v1.2.0 (github.com/culprit-go/culprit) go1.26.0 linux/amd64
//	revision 9c181df0... 2026-11-25T10:59:00Z, modified
//
// The module is the main module of a build in a clone, or one of the
// dependencies when "go tool culprit" builds it in another module.
func writeVersion(w io.Writer, bi *debug.BuildInfo) {
	m := &bi.Main
	if m.Path != modulePath {
		for _, d := range bi.Deps {
			if d.Path == modulePath {
				m = d
				break
			}
		}
	}
	version := m.Version
	if version == "" {
		version = "(unknown)"
	}
	if m.Path != modulePath {
		// Not built as part of culprit's module (a test binary of
		// another module, say): say what was.
		version += " in " + bi.Main.Path
	}
	if r := m.Replace; r != nil {
		version += " => " + r.Path
		if r.Version != "" && r.Version != "(devel)" {
			version += " " + r.Version
		}
	}
	fmt.Fprintf(w, "culprit %s (%s) %s %s/%s\n", version, modulePath, bi.GoVersion, runtime.GOOS, runtime.GOARCH)
	settings := map[string]string{}
	for _, s := range bi.Settings {
		settings[s.Key] = s.Value
	}
	if rev := settings["vcs.revision"]; rev != "" && m == &bi.Main {
		var more []string
		if t := settings["vcs.time"]; t != "" {
			more = append(more, t)
		}
		if settings["vcs.modified"] == "true" {
			more = append(more, "modified")
		}
		fmt.Fprintf(w, "revision %s", rev)
		if len(more) > 0 {
			fmt.Fprintf(w, " %s", strings.Join(more, ", "))
		}
		fmt.Fprintln(w)
	}
}
