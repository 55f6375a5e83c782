// Package deps holds the seeds' small functions for showing data and
// control dependencies, the material of culprit slice and culprit flow.
// None has a defect and all tests pass.
//
// From the seed chapter on tracking failure origins:
//
//   - Demo doubles z while x <= z <= 64: the returned z depends on itself
//     through the loop and is control dependent on the loop test.
//   - AddTo, MulWith and AddThenMultiply pass values through parameters and
//     return values of nested calls, and Fun2 calls Fun1 for the simplest
//     such chain.
//   - CheckPassword reads a password and compares its MD5 digest with a
//     stored one: a slice shows that the password flows only into the
//     digest, never anywhere in the clear.
//
// From the seed thesis on dynamic data-flow graphs:
//
//   - Max picks the larger of two values with two conditional branches.
//   - Func ignores its third argument for its result, so the result of
//     Func(3, 4, 5) depends on 3 and 4 but not on 5.
package deps
