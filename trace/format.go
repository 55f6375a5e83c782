// Package trace specifies culprit's trace format and reads it: it is the
// one way analyses read what an instrumented run recorded.
//
// A trace is a directory (by default .culprit/ at the module root) holding
// one site table, written by the instrumenter before the run, and one
// events file per test binary process, written by the runtime support
// package (culprit's rt, compiled into the program under test):
//
//	DIR/sites                  the site table: every instrumented site
//	DIR/events-<pkg>-<pid>     what one test binary recorded
//
// # Encoding
//
// All integers are unsigned LEB128 varints ("uv") unless said otherwise;
// signed integers are zig-zag encoded first ("sv"); a string is a uv length
// followed by that many bytes of UTF-8. Both files start with an 8-byte
// magic string and a uv version (Version).
//
// # Site table
//
//	+--------------------------------------------------------------+
//	| magic "CPSITES\n" (8 bytes) | uv version                     |
//	+--------------------------------------------------------------+
//	| uv nstrings | nstrings x string      (string table; entry 0 "")|
//	+--------------------------------------------------------------+
//	| uv module-root string index | uv events (EventSet bits)      |
//	+--------------------------------------------------------------+
//	| uv nsites                                                    |
//	| per site: uv kind | uv file | uv line | uv col |             |
//	|           uv endLine | uv endCol | uv func | uv info |        |
//	|           uv declFile | uv declLine | uv declCol             |
//	|           (file, func, info and declFile are string table    |
//	|           indexes)                                           |
//	+--------------------------------------------------------------+
//
// Site IDs are positions in this table, starting at 0. A branch decision
// takes consecutive IDs, one per outcome (an if: true, then false; a
// switch: one per case clause in source order, plus one for "no case"
// when there is no default). Files are absolute paths of the user's
// original files; lines and columns are 1-based, columns count bytes.
// Read and write sites carry the declaring position of the variable they
// name (the root variable of p.f or s[i]), so that shadowed variables of
// one name stay apart; other sites have "" and 0.
//
// # Events file
//
//	+--------------------------------------------------------------+
//	| magic "CPEVENTS" (8 bytes) | uv version | string package     |
//	| uv pid | uv nsites | sv start time (Unix nanoseconds)        |
//	+--------------------------------------------------------------+
//	| records, each a one-byte tag and its fields:                 |
//	|  'T' test start: uv test | uv parent | uv kind | string name |
//	|  'O' test end:   uv test | uv outcome | uv flags | uv nhits | |
//	|                  nhits x uv delta (ascending site IDs, each  |
//	|                  the difference from the previous, from 0)   |
//	|  'Y' type name:  uv type | string name                       |
//	|  'F' fields:     uv type | uv n | n x string (a struct type's |
//	|                  first n field names, after its 'Y' record)  |
//	|  'Z' end:        sv exit status (-1: not known)              |
//	| stream records, each: uv test | uv goroutine | uv site |    |
//	|                  then per tag:                               |
//	|  'E' func entry: uv call site + 1 (0: not known) | values    |
//	|  'X' func exit:  values (the results; then, when the record   |
//	|                  has as many values as the function's results |
//	|                  and parameters, the parameters' final values)|
//	|  'J' func exit while panicking (the function did not return; |
//	|                  format 4): values as 'X'                    |
//	|  'K' step:       (nothing more: a statement starts)          |
//	|  'D' decision:   (nothing more: site is the outcome taken)   |
//	|  'R' read:       value | loc                                 |
//	|  'W' write:      value | loc                                 |
//	|  'C' call:       (nothing more)                              |
//	|  'V' returned:   values (the call's results, at the call)    |
//	|  'P' panic:      value                                       |
//	|  'Q' recover:    value (nil: nothing was recovered)          |
//	|  'G' go:         uv spawn                                    |
//	|  'H' started:    uv spawn (site: the go statement)           |
//	|  'S' send:       uv channel | value                          |
//	|  'U' receive:    uv channel | value                          |
//	| short stream records (test and goroutine of the previous     |
//	| stream record):                                              |
//	|  'k' step:       uv site                                     |
//	|  'd' decision:   uv site                                     |
//	+--------------------------------------------------------------+
//
// Test IDs start at 1 in each events file; test 0 is "no test": code run by
// package initialization, TestMain, or goroutines no test started. A test
// end record carries the set of statement and branch-outcome sites the test
// executed (its spectrum); flags bit 0 (FlagShared) says that other tests
// ran at the same time for part of the test, and the spectrum holds what
// they executed then too. A test that the process left running when it
// died (panic, timeout, os.Exit) gets an end record with OutcomeRunning
// when the runtime could flush at all. Records for one test can appear
// after its end record (goroutines it left behind); readers attribute
// them to the test all the same.
//
// Stream records are in the order the runtime wrote them, which for one
// goroutine is the order they happened. Goroutines are small numbers, in
// order of first appearance in the file. Steps ('K', event kind steps)
// name a statement site as each statement starts, before anything it
// evaluates, so that per goroutine the order of statements is exact; an
// "else if" steps before its condition. Decisions ('D', event kind
// decisions) name the branch-outcome site taken, after the condition was
// evaluated: an if or for condition, each && and || operand, a case or
// select clause entered, a range iteration. Linking:
//   - a call: 'C' at the call site before the arguments are evaluated;
//     the callee's 'E' (when it is instrumented) names that call site; 'V'
//     at the call site after it returns, with the results when the
//     call's value is used (one result, or an assignment of several).
//     Calls whose several results feed another call or a return statement
//     directly are not recorded (their callee's 'E' names no call site).
//   - a deferred call: 'C' at the call site (the deferred call
//     expression) just before the deferred call runs, the callee's 'E'
//     naming it, 'V' after it (deferred builtins are not linked).
//   - a goroutine: 'G' in the parent at the go statement with a spawn
//     number unique in the file; 'H' as the child's first record, with
//     the same spawn number. The child's entry 'E' names the go
//     statement's call site (a call site spanning the call expression;
//     for a function literal the site after the go site). A go statement
//     calling a named function or method known statically is paired
//     with the first entry of that function that no call site claims on
//     a goroutine with no pending calls (so two go statements of one
//     function racing may swap children); a dynamic callee records 'G'
//     alone.
//   - a channel: 'S' and 'U' name the channel by a number unique among
//     live channels of the process (its address may be reused after the
//     channel is collected).
//
// Values are a tag byte and its fields (a record with values has a uv
// count first):
//
//	0 unknown | 1 nil | 2 false | 3 true | 4 int: sv | 5 uint: uv |
//	6 float: 8 bytes IEEE 754, little-endian |
//	7 string: uv full length | string (at most MaxString bytes) |
//	8 reference (non-nil pointer, slice, map, chan, func): uv type | uv len |
//	9 other (struct, array, complex...): uv type |
//	values with their parts (function entries, exits, call results):
//	10 pointer: uv type | value (what it points to) |
//	11 slice: uv type | uv len | uv n | n x value (the first elements) |
//	12 array: uv type | uv len | uv n | n x value |
//	13 struct: uv type | uv n | n x value (the first fields, named by
//	   the type's 'F' record) |
//	14 error: uv full length | string (its message, at most MaxString
//	   bytes) | value (the error itself)
//
// Values of entries ('E'), exits ('X') and call results ('V') are
// recorded with their parts, within bounds: two pointers followed on one
// path, two levels of fields and elements below the value, the first 8
// elements and 16 fields, 64 values in all per value; past a bound a part
// is recorded as 8 or 9. Interface-typed fields record their dynamic
// value. An error's message is read (its Error method called, under
// recover) only when its dynamic type is declared in a package with no
// dot in the first path element other than the traced module's: the
// standard library's errors; the runtime calls no other method of the
// program's types. Reads, writes, panics, recovers and channel values
// are shallow (0 to 9). The reader returns 10 and 11 as ValRef, 12 and
// 13 as ValOther, with Value.Fields and Value.Elems, and 14 as the value
// it wraps with Value.Err.
//
// A location (loc) says which storage a read or write touched; its uv kind
// (LocKind) and fields:
//
//	0 none (a whole variable read by value, a value recorded before it
//	  was assigned) |
//	1 address: uv addr (a variable, a field, *p: the storage's address) |
//	2 element: uv base | uv index | uv size (an element of an array or
//	  slice: base is the address of the indexed operand's element 0, the
//	  element's address base + index*size) |
//	3 map entry: uv map (the map's address) | value key
//
// Addresses identify storage while it is live: the collector may reuse
// them after, and variables on a goroutine's stack move when it grows.
//
// Long strings keep their first MaxString bytes and their full length
// (shown as "abc..."(100 bytes)); slices, maps and channels keep their
// type and length, pointers and functions their type; structs and arrays
// their type only, unless recorded with their parts. Type names are the
// reflect names ("[]main.point").
//
// A file that ends without a 'Z' record was cut short (the process was
// killed, or died before the runtime could flush); the reader returns what
// it holds and reports it as truncated. The round trip between the
// runtime's encoder and this package's decoder is tested in
// roundtrip_test.go.
package trace

// Version is the format version written after each file's magic.
const Version = 4

// Magic strings opening the two kinds of files.
const (
	SitesMagic  = "CPSITES\n"
	EventsMagic = "CPEVENTS"
)

// File names inside a trace directory. OnlyFile, when present, holds
// the name of the one test (with its parents and subtests) whose stream
// events the run recorded: the other tests' activations were muted (a
// slice or flow graph of one test reads no other), their tests' records
// and statement counters kept.
const (
	SitesFile    = "sites"
	EventsPrefix = "events-"
	OnlyFile     = "only"
	// BudgetPrefix names, with an events file's suffix, the file a
	// process writes when its trace reached its event budget (the
	// budget, in decimal, on one line): every site recorded at most its
	// first 100 events from then on, then those numbered by powers of
	// two (Process.Budget).
	BudgetPrefix = "budget-"
)

// MaxString is the number of bytes of a string value a trace keeps.
const MaxString = 64

// Record tags in an events file.
const (
	TagTestStart = 'T'
	TagTestEnd   = 'O'
	TagType      = 'Y'
	TagFields    = 'F'
	TagEnter     = 'E'
	TagExit      = 'X'
	TagExitPanic = 'J' // read as TagExit with Event.Panicking set
	TagRead      = 'R'
	TagWrite     = 'W'
	TagCall      = 'C'
	TagReturn    = 'V'
	TagPanic     = 'P'
	TagRecover   = 'Q'
	TagGo        = 'G'
	TagStarted   = 'H'
	TagSend      = 'S'
	TagRecv      = 'U'
	TagStep      = 'K'
	TagDecision  = 'D'
	TagEnd       = 'Z'

	// Short forms of TagStep and TagDecision: the test and goroutine are
	// those of the previous stream record.
	TagStepShort     = 'k'
	TagDecisionShort = 'd'
)

// FlagShared in a test end record: other tests ran during part of the
// test, and its spectrum holds what they executed then.
const FlagShared = 1

// Value tags.
const (
	ValUnknown = iota
	ValNil
	ValFalse
	ValTrue
	ValInt
	ValUint
	ValFloat
	ValString
	ValRef
	ValOther
)

// Tags of values recorded with their parts (format 4). The reader
// returns them as the Val tags above with Value's Fields, Elems and Err
// set: a pointer or slice as ValRef, an array or struct as ValOther, an
// error as the value it wraps.
const (
	valPointer = 10 + iota
	valSlice
	valArray
	valStruct
	valError
)
