package hazards

import (
	"fmt"
	"io"
	"path/filepath"
	"runtime"
)

// Lined stands for code generated from another file: a //line directive
// gives its lines the other file's positions, which runtime.Caller, panics
// and compiler errors report, instrumented or not.
//
//line lined.y:10
func Lined() string {
	x := Sum(1, 1)
	_, file, line, _ := runtime.Caller(0)
	return fmt.Sprintf("%s:%d %d", filepath.Base(file), line, x)
}

// PanicVar panics with another package's variable, whose read is
// recorded inside the panic's record.
func PanicVar() (r any) {
	defer func() { r = recover() }()
	panic(io.EOF)
}
