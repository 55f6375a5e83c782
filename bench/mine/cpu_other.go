//go:build !unix

package main

import (
	"os"
	"time"
)

// cpuTime is not known here: the table shows elapsed times only.
func cpuTime() time.Duration { return 0 }

// peakRSS is not known here.
func peakRSS(*os.ProcessState) int64 { return 0 }
