package calls

// A file of declarations alone, which the trace never names: a read of
// factor finds no definition in the run (it was initialized before the
// test began) and depends on its declaration.
var factor = 3

var names = map[string]int{
	"a": 1,
	"b": 2,
}
