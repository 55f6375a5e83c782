//go:build !unix

package instrument

import "os/exec"

// ownGroup does nothing where process groups are not available: the
// cancellation kills go test only.
func ownGroup(cmd *exec.Cmd) {}
