package oracle

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/culprit-go/culprit/reduce"
)

// ErrNotFailing is wrapped by Judge.Learn when the golden run does not
// fail.
var ErrNotFailing = errors.New("the original does not fail")

// A Rule says what makes two runs fail the same way.
type Rule int

const (
	// GoPanic compares the exit status and, when the program panicked
	// or died of a Go fatal error, the first line of the message and the
	// function of the first non-runtime frame; when it failed otherwise,
	// the first error message that follows a position (file:line:col:),
	// as a compiler, vet or gofmt prints it, normalized (see
	// ParseMessage); and the first failed Go test (FailedTest).
	GoPanic Rule = iota
	// ExitStatus compares the exit status alone.
	ExitStatus
	// Match compares the exit status and whether a regular expression
	// matches the output (both streams).
	Match
	// Interesting is C-Reduce's rule: exit status 0 means the candidate
	// is interesting (FAIL), another status means PASS, a timeout or a
	// signal is UNRESOLVED.
	Interesting
)

// A Signature names a failure.
type Signature struct {
	Exit    Exit
	Panic   string // first line of a Go panic or fatal error, normalized
	Frame   string // function of the first non-runtime frame of the panicking goroutine
	Message string // without a panic: the first error message after a position, normalized
	Test    string // the first failing Go test (go test's "--- FAIL: NAME")
	Matched bool   // the Match rule's regular expression matched the output
}

func (s Signature) String() string {
	var b strings.Builder
	b.WriteString(s.Exit.String())
	if s.Panic != "" {
		fmt.Fprintf(&b, ", %q", s.Panic)
	}
	if s.Test != "" {
		fmt.Fprintf(&b, ", %s", s.Test)
	}
	if s.Message != "" {
		fmt.Fprintf(&b, ", %q", s.Message)
	}
	if s.Frame != "" {
		fmt.Fprintf(&b, " in %s", s.Frame)
	}
	return b.String()
}

// A Judge classifies runs against the failure of a golden run.
type Judge struct {
	Rule   Rule
	Regexp *regexp.Regexp // for the Match rule
	Want   Signature      // set by Learn
}

// Signature computes a run's signature under the judge's rule.
func (j *Judge) Signature(r Run) Signature {
	s := Signature{Exit: r.Exit}
	switch j.Rule {
	case GoPanic:
		s.Panic, s.Frame = ParsePanic(normalizePath(r.Stderr, r.Path))
		if !r.Exit.OK() {
			out := normalizePath(r.Output, r.Path)
			s.Test = FailedTest(out)
			if s.Panic == "" {
				s.Message = parseMessage(out, s.Test == "")
			}
		}
	case Match:
		s.Matched = j.Regexp != nil && j.Regexp.Match(normalizePath(r.Output, r.Path))
	}
	return s
}

// Learn sets the wanted signature from a golden run of the original input.
// It returns an error wrapping ErrNotFailing, and saying what the run did,
// when that run does not fail.
func (j *Judge) Learn(golden Run) error {
	s := j.Signature(golden)
	switch j.Rule {
	case Interesting:
		if !golden.Exit.OK() {
			return fmt.Errorf("%w: the test script says it is not interesting (%s)", ErrNotFailing, golden.Describe())
		}
	case Match:
		if !s.Matched {
			return fmt.Errorf("%w: its output does not match %q (%s)", ErrNotFailing, j.Regexp, golden.Describe())
		}
	default:
		if golden.Exit.OK() {
			return fmt.Errorf("%w: %s", ErrNotFailing, golden.Describe())
		}
	}
	j.Want = s
	return nil
}

// Classify tells whether a run fails like the golden one (FAIL), passes
// (exit status 0 and not that failure: PASS), or does something else
// (UNRESOLVED).
func (j *Judge) Classify(r Run) reduce.Outcome {
	if j.Rule == Interesting {
		switch {
		case r.Exit.OK():
			return reduce.Fail
		case r.Exit.TimedOut || r.Exit.Signal != "":
			return reduce.Unresolved
		default:
			return reduce.Pass
		}
	}
	if j.Signature(r) == j.Want {
		return reduce.Fail
	}
	if r.Exit.OK() {
		return reduce.Pass
	}
	return reduce.Unresolved
}

// normalizePath replaces the candidate's path, which differs from run to
// run, by the Placeholder, so that messages quoting it compare equal.
func normalizePath(b []byte, path string) []byte {
	if path == "" {
		return b
	}
	return []byte(strings.ReplaceAll(string(b), path, Placeholder))
}

var digits = regexp.MustCompile(`[0-9]+`)

// ParsePanic finds the first Go panic or fatal error in a program's
// standard error. It returns the message's first line, with digit runs
// replaced by "N" for runtime errors (whose indices and lengths change as
// the input shrinks), and the function of the first stack frame of the
// panicking goroutine that is not in the runtime. Both are empty when
// stderr holds no panic.
func ParsePanic(stderr []byte) (msg, frame string) {
	lines := strings.Split(string(stderr), "\n")
	i := 0
	for ; i < len(lines); i++ {
		line := strings.TrimRight(lines[i], "\r")
		if strings.HasPrefix(line, "panic: ") || strings.HasPrefix(line, "fatal error: ") {
			msg = line
			break
		}
	}
	if msg == "" {
		return "", ""
	}
	if strings.HasPrefix(msg, "panic: runtime error: ") {
		msg = digits.ReplaceAllString(msg, "N")
	}
	// The panicking goroutine's trace follows: "goroutine N [state]:",
	// then a function line and an indented file:line for each frame.
	for i++; i < len(lines); i++ {
		if strings.HasPrefix(lines[i], "goroutine ") && strings.HasSuffix(strings.TrimRight(lines[i], "\r"), "]:") {
			break
		}
	}
	for i++; i < len(lines); i++ {
		line := strings.TrimRight(lines[i], "\r")
		if line == "" {
			break // end of the goroutine's trace
		}
		if strings.HasPrefix(line, "\t") || strings.HasPrefix(line, "...") || strings.HasPrefix(line, "created by ") {
			continue
		}
		fn := line
		if k := strings.LastIndexByte(fn, '('); k > 0 && strings.HasSuffix(fn, ")") {
			fn = fn[:k]
		}
		if isRuntime(fn) {
			continue
		}
		return msg, fn
	}
	return msg, ""
}

// isRuntime reports whether a stack frame's function belongs to the Go
// runtime rather than to the program.
func isRuntime(fn string) bool {
	return fn == "panic" || strings.HasPrefix(fn, "runtime.") ||
		strings.HasPrefix(fn, "runtime/") || strings.HasPrefix(fn, "internal/")
}

// failLine is go test's report of a failed test.
var failLine = regexp.MustCompile(`(?m)^\s*--- FAIL: (\S+)`)

// FailedTest returns the name of the first failed test that go test
// reports in its output ("--- FAIL: TestName"), or "".
func FailedTest(output []byte) string {
	if m := failLine.FindSubmatch(output); m != nil {
		return string(m[1])
	}
	return ""
}

// A position line is a tool's error: file:line: or file:line:col:, then
// the message.
var positionLine = regexp.MustCompile(`^\s*(?:vet: )?[^\s:]+:[0-9]+(?::[0-9]+)?: +(\S.*)$`)

// Parts of a message that change as the input shrinks, normalized by
// ParseMessage.
var (
	embeddedPos = regexp.MustCompile(`[^\s:()]+:[0-9]+(?::[0-9]+)?`)
	quoted      = regexp.MustCompile("\"(?:[^\"\\\\]|\\\\.)*\"|`[^`]*`")
	word        = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*`)
)

// ParseMessage finds the first error message of a failed tool in its
// output: the first line that starts with a position (file:line: or
// file:line:col:), as Go's compiler, vet, gofmt and test failures print
// them. It returns the message without its position, normalized so that
// it stays the same while the input shrinks and its names get shorter:
// positions inside it become "POS", double-quoted and raw strings `"S"`,
// runs of digits "N", and identifiers "X". An identifier is a word that
// has a dot, an underscore, a digit or an upper-case letter (but for the
// capital of the message's first word), a word of one or two letters
// other than a few English ones ("a", "of", "to"...), or the last word
// of the message when it follows a colon ("undefined:
// x"); other words (lower-case, of three letters or more, such as
// "declared", "type" or "int") stay. It returns "" when no line starts with a position.
func ParseMessage(output []byte) string { return parseMessage(output, true) }

// parseMessage is ParseMessage; without numbers (a failed test's check),
// only the positions in the message are normalized: the values it prints,
// numbers, strings and names, are what failed.
func parseMessage(output []byte, numbers bool) string {
	for _, line := range strings.Split(string(output), "\n") {
		m := positionLine.FindStringSubmatch(strings.TrimRight(line, "\r"))
		if m == nil {
			continue
		}
		return normalizeMessage(m[1], numbers)
	}
	return ""
}

func normalizeMessage(msg string, numbers bool) string {
	msg = strings.TrimSpace(msg)
	msg = embeddedPos.ReplaceAllString(msg, "POS")
	if !numbers {
		// A failed test's check: what it prints, names and strings as
		// well as numbers, are the values that failed.
		return msg
	}
	msg = quoted.ReplaceAllString(msg, `"S"`)
	// The last word after a colon is what the message is about.
	last := -1
	if i := strings.LastIndex(msg, ": "); i >= 0 {
		if rest := msg[i+2:]; word.FindString(rest) == rest {
			last = i + 2
		}
	}
	msg = replaceWords(msg, last)
	// Runs of digits go, but in tokens in single quotes ('3rd').
	var b strings.Builder
	pos := 0
	for _, loc := range singleQuoted.FindAllStringIndex(msg, -1) {
		b.WriteString(digits.ReplaceAllString(msg[pos:loc[0]], "N"))
		b.WriteString(msg[loc[0]:loc[1]])
		pos = loc[1]
	}
	b.WriteString(digits.ReplaceAllString(msg[pos:], "N"))
	return b.String()
}

// singleQuoted is a token in single quotes: 'EOF', '3rd'.
var singleQuoted = regexp.MustCompile(`'[^'\s]+'`)

// inSingleQuotes reports whether msg[i:j] lies inside a token in single
// quotes.
func inSingleQuotes(msg string, i, j int) bool {
	for _, loc := range singleQuoted.FindAllStringIndex(msg, -1) {
		if loc[0] < i && j < loc[1] {
			return true
		}
	}
	return false
}

// replaceWords replaces the identifiers of msg by "X"; the word at offset
// last, if any, is one.
func replaceWords(msg string, last int) string {
	var b strings.Builder
	pos := 0
	for _, loc := range word.FindAllStringIndex(msg, -1) {
		w := msg[loc[0]:loc[1]]
		if w != "POS" && w != "S" && !verbatim(msg, loc[0], loc[1]) && (loc[0] == last || identifier(w, loc[0] == 0)) {
			w = "X"
		}
		b.WriteString(msg[pos:loc[0]])
		b.WriteString(w)
		pos = loc[1]
	}
	b.WriteString(msg[pos:])
	return b.String()
}

// verbatim reports whether the word at msg[i:j] is in a token in single
// quotes ('EOF', '3rd') or a format verb (%d).
func verbatim(msg string, i, j int) bool {
	return i > 0 && msg[i-1] == '%' || inSingleQuotes(msg, i, j)
}

// shortWords are the English words of one or two letters in messages;
// other words that short are names.
var shortWords = map[string]bool{
	"a": true, "an": true, "as": true, "at": true, "be": true, "by": true, "if": true, "in": true,
	"is": true, "it": true, "no": true, "of": true, "on": true, "or": true, "to": true,
}

// identifier reports whether a word looks like a name rather than an
// English word of a message; first says it starts the message, where a
// capital letter starts a sentence.
func identifier(w string, first bool) bool {
	if len(w) <= 2 {
		return !shortWords[strings.ToLower(w)]
	}
	for i := 0; i < len(w); i++ {
		c := w[i]
		if c == '.' || c == '_' || c >= '0' && c <= '9' || (i > 0 || !first) && c >= 'A' && c <= 'Z' {
			return true
		}
	}
	return false
}
