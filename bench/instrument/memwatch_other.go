//go:build unix && !linux

package main

// watchMemory watches nothing where /proc is not there.
func watchMemory(root int, limit int64, over func(kib int64)) (stop func()) { return func() {} }
