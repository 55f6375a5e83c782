// Package middle is the running example of statistical fault localization:
// a function meant to return the median of three integers.
//
// Middle has a defect taken over unchanged from the seed chapter on
// statistical debugging (and reused in the chapters on dependencies and on
// mining specifications): in the branch where y < z and x >= y, it checks
// x < z and then returns y where it should return x. So Middle(2, 1, 3)
// answers 1 instead of 2. Every input with y < x < z takes that branch and
// fails; all other inputs pass.
//
// The tests use the same six inputs as the seed's spectrum table, one
// subtest each: five pass and TestMiddle/2_1_3 fails. Ranking the lines
// those runs cover (culprit rank) puts the faulty return statement first.
package middle
