package rt

// The instrumenter replaces this file in the copy of rt it injects into
// the user's build; these defaults record nothing.
var (
	traceDir             = ""    // directory the events file goes to; "" records nothing
	numSites      uint32 = 0     // sites in the site table
	module               = "rt"  // used in the events file name until Package is called
	callLimit     uint32 = 0     // events of one site recorded before sampling; 0 records all
	samplePerTest        = false // each test starts sampling afresh (restartSampling)
	sampleTest           = ""    // with samplePerTest, only this test does ("": every test)
	onlyRelated          = false // with sampleTest, other tests record no stream events (related)
	eventBudget   uint64 = 0     // events recorded before every site's limit falls to afterBudget; 0: no budget
)

// raceMode makes counters atomic: the program runs under -race.
const raceMode = false

// noInline says the instrumented packages are compiled without inlining
// (-l): the entry points then skip the events sampling skips themselves.
const noInline = false

// Ctr is a statement or branch counter: uint32 under -race (atomic
// stores), a byte otherwise.
type Ctr = uint8
