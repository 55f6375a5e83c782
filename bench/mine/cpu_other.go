//go:build !unix

package main

import "time"

// cpuTime is not known here: the table shows elapsed times only.
func cpuTime() time.Duration { return 0 }
