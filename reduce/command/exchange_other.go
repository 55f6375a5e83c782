//go:build !linux

package command

import "errors"

// exchange would atomically swap two paths; this system has no such call.
func exchange(a, b string) error { return errors.ErrUnsupported }
