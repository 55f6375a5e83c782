package cli

import (
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

// TestWriteVersion covers the ways culprit is built: in a clone (the main
// module, with VCS stamps), by go install ...@version (a version, no VCS),
// by go tool in another module (a dependency, maybe replaced).
func TestWriteVersion(t *testing.T) {
	platform := " go1.26.0 " + runtime.GOOS + "/" + runtime.GOARCH + "\n"
	vcs := []debug.BuildSetting{{Key: "vcs.revision", Value: "9c181dfb36c2"}, {Key: "vcs.time", Value: "2026-11-22T23:57:17Z"}, {Key: "vcs.modified", Value: "true"}}
	for _, c := range []struct {
		name, reason string
		bi           debug.BuildInfo
		want         string
	}{
		{"clone", "go build in a clone stamps a pseudo-version and the commit",
			debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: modulePath, Version: "v0.0.0-20261122235717-9c181dfb36c2"}, Settings: vcs},
			"culprit v0.0.0-20261122235717-9c181dfb36c2 (github.com/culprit-go/culprit)" + platform + "revision 9c181dfb36c2 2026-11-22T23:57:17Z, modified\n"},
		{"install", "go install ...@v1.2.0: a version, no VCS",
			debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: modulePath, Version: "v1.2.0"}},
			"culprit v1.2.0 (github.com/culprit-go/culprit)" + platform},
		{"tool", "go tool culprit: culprit is a dependency; the main module's VCS stamps are not culprit's",
			debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "example.com/user"}, Settings: vcs,
				Deps: []*debug.Module{{Path: "golang.org/x/tools", Version: "v0.52.0"}, {Path: modulePath, Version: "v1.2.0"}}},
			"culprit v1.2.0 (github.com/culprit-go/culprit)" + platform},
		{"replaced", "a replacement by a directory says where",
			debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "example.com/user"},
				Deps: []*debug.Module{{Path: modulePath, Version: "v0.0.0-00010101000000-000000000000", Replace: &debug.Module{Path: "../culprit", Version: "(devel)"}}}},
			"culprit v0.0.0-00010101000000-000000000000 => ../culprit (github.com/culprit-go/culprit)" + platform},
		{"elsewhere", "built into another module's binary without culprit's module",
			debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "example.com/other", Version: "(devel)"}},
			"culprit (devel) in example.com/other (github.com/culprit-go/culprit)" + platform},
	} {
		var b strings.Builder
		writeVersion(&b, &c.bi)
		if b.String() != c.want {
			t.Errorf("%s (%s):\n got %q\nwant %q", c.name, c.reason, b.String(), c.want)
		}
	}
}
