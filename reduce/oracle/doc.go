// Package oracle runs an external command on a candidate input and decides
// whether it fails the same way as the original did.
//
// A [Command] runs a program with the candidate's path in its arguments
// (or, C-Reduce style, in a directory holding the candidate), in its own
// process group, with a timeout that kills the whole group so that no
// grandchild survives. The observed [Run] carries the exit status and the
// captured output.
//
// A [Signature] names a failure: the exit status (a code, a signal, or a
// timeout) and, for Go programs, the first line of the panic or fatal error
// and the function of the first non-runtime stack frame; for a tool that
// fails without a panic (a compiler, vet, gofmt), its first error message
// after a position, normalized ([ParseMessage]). A [Judge] learns a
// signature from a golden run of the original input and classifies later
// runs as FAIL (the same failure), PASS (exit status 0 and not that
// failure) or UNRESOLVED (anything else, such as another failure).
package oracle
