//go:build !unix

package main

import "time"

// cpuTime is not known here: the table shows elapsed times only.
func cpuTime() time.Duration { return 0 }

// watchPeak is not known here.
func watchPeak(int) func() int64 { return func() int64 { return 0 } }
