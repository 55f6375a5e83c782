//go:build !unix

package invariant

import "time"

// cpuTime is not known here: benchmarks report elapsed time only.
func cpuTime() time.Duration { return 0 }
