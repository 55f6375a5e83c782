// Package sum holds the seeds' small arithmetic functions for mining
// specifications: Sum2, Sum3 and PrintSum. They have no defect; they show
// what a specification miner learns from few or varied calls.
//
// Called once as Sum2(2, 2), every call seen satisfies a == b, a > 0 and
// result == a * b, which are accidents of that single call; with more
// varied calls only result == a + b and its rearrangements remain. Sum3 is
// generic, as the seed's duck-typed version is called with both numbers and
// strings: on strings the miner finds that the result starts with a and
// ends with c, and across both kinds no property holds at all. PrintSum
// writes instead of returning, so only preconditions can be mined.
//
// All tests pass. TestSum2Single and TestSum2Varied run the seed's two call
// sets, for culprit mine to compare.
package sum
