// Package multiarg holds the seed's two functions for reducing calls with
// several arguments. Both panic on purpose, like the seed's assertions, so
// that a call reducer has something to shrink.
//
// StringError panics when its first argument occurs in its second. The
// seed's call StringError("foo", "foobar") reduces argument by argument,
// first s1, then s2, to StringError("", ""), since the empty string occurs
// in every string.
//
// ListError panics unless len(l1) < len(l2) < maxlen. The seed's call with
// ten, three and 5 reduces to two empty slices; maxlen, an int, is not
// reducible and stays 5.
//
// The subtests running the seed's calls fail; the others pass.
package multiarg
