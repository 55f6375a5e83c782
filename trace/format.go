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
//	|           uv endLine | uv endCol | uv func | uv info         |
//	|           (file, func and info are string table indexes)     |
//	+--------------------------------------------------------------+
//
// Site IDs are positions in this table, starting at 0. A branch decision
// takes consecutive IDs, one per outcome (an if: true, then false; a
// switch: one per case clause in source order, plus one for "no case"
// when there is no default). Files are absolute paths of the user's
// original files; lines and columns are 1-based, columns count bytes.
//
// # Events file
//
//	+--------------------------------------------------------------+
//	| magic "CPEVENTS" (8 bytes) | uv version | string package     |
//	| uv pid | uv nsites | sv start time (Unix nanoseconds)        |
//	+--------------------------------------------------------------+
//	| records, each a one-byte tag and its fields:                 |
//	|  'T' test start: uv test | uv parent | uv kind | string name |
//	|  'O' test end:   uv test | uv outcome | uv nhits |           |
//	|                  nhits x uv delta (ascending site IDs, each  |
//	|                  the difference from the previous, from 0)   |
//	|  'Y' type name:  uv type | string name                       |
//	|  'E' func entry: uv test | uv goroutine | uv site | values   |
//	|  'X' func exit:  uv test | uv goroutine | uv site | values   |
//	|  'Z' end:        sv exit status (-1: not known)              |
//	+--------------------------------------------------------------+
//
// Test IDs start at 1 in each events file; test 0 is "no test": code run by
// package initialization, TestMain, or goroutines no test started. A test
// end record carries the set of statement and branch-outcome sites the test
// executed (its spectrum); a test that the process left running when it
// died (panic, timeout, os.Exit) gets an end record with OutcomeRunning
// when the runtime could flush at all. Records for one test can appear
// after its end record (goroutines it left behind); readers attribute
// them to the test all the same.
//
// Values are a uv count followed by that many values, each a tag byte:
//
//	0 unknown | 1 nil | 2 false | 3 true | 4 int: sv | 5 uint: uv |
//	6 float: 8 bytes IEEE 754, little-endian |
//	7 string: uv full length | string (at most MaxString bytes) |
//	8 reference (non-nil pointer, slice, map, chan, func): uv type | uv len |
//	9 other (struct, array, complex...): uv type
//
// A file that ends without a 'Z' record was cut short (the process was
// killed, or died before the runtime could flush); the reader returns what
// it holds and reports it as truncated. The round trip between the
// runtime's encoder and this package's decoder is tested in
// roundtrip_test.go.
package trace

// Version is the format version written after each file's magic.
const Version = 1

// Magic strings opening the two kinds of files.
const (
	SitesMagic  = "CPSITES\n"
	EventsMagic = "CPEVENTS"
)

// File names inside a trace directory.
const (
	SitesFile    = "sites"
	EventsPrefix = "events-"
)

// MaxString is the number of bytes of a string value a trace keeps.
const MaxString = 64

// Record tags in an events file.
const (
	TagTestStart = 'T'
	TagTestEnd   = 'O'
	TagType      = 'Y'
	TagEnter     = 'E'
	TagExit      = 'X'
	TagEnd       = 'Z'
)

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
