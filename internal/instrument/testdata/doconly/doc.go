// Package doconly has no code of its own, only this comment and external
// tests (testify's assert/internal/unsafetests): the counters are the
// external test package's, yet the coverage configuration that comes with
// them reaches this package too, which then needs an initializer.
package doconly
