package parser

import (
	"bytes"
	"fmt"

	"gopari/internal/mem"
)

// Kind is the kind of a Token.
type Kind uint8

const (
	EOF     Kind = iota
	Ident        // identifier or keyword
	Number       // preprocessing number, with digit separators
	String       // string literal, any prefix, raw strings included
	Char         // character literal
	Punct        // punctuator; Token.Sub holds its code
	Preproc      // a whole preprocessing directive line; Token.Sub holds its kind
	Skipped      // text in a branch that can never be compiled (#if 0)
	Other        // a stray character
)

// Punctuator codes in Token.Sub. Single-character punctuators use their
// byte; digraphs are mapped to the bytes they stand for.
const (
	PColon2 = 'Q' // ::
	PMulti  = 'M' // any other multi-character punctuator
)

// IsDirective is set in Token.Sub of a Preproc or Ident (_Pragma) token
// that starts an OpenMP or POMP directive the parser kept.
const IsDirective = 0x40

// A Token is a span of the source. Comments and white space are not
// tokens; the text between tokens is kept by offsets.
type Token struct {
	Kind Kind
	Sub  uint8
	Pos  int32
	End  int32
}

// Options select language rules for scanning.
type Options struct {
	CPlusPlus bool
}

type scanner struct {
	f    *File
	src  []byte
	toks []Token
	diag *DiagnosticList
	opts Options

	lastNL int    // offset of the last newline outside comments and directives
	conds  []bool // open #if groups: whether a branch was surely taken
	nums   numRun // digit separators in directive lines and skipped branches
	fatal  bool
	txt    text

	// Indices of the tokens later passes look at: every Preproc token,
	// and identifiers that may be _Pragma or an OpenMP lock routine.
	pp, ids []int32

	// A scanner of a file's second part (scanSplit) runs beside the one
	// of its first part: it keeps its errors and line markers until the
	// two are joined, when the positions of the first part's markers are
	// known, and notes whether it met an #elif, #else or #endif of a
	// group opened before its start, whose state only the first knows.
	deferred    bool
	errs        []deferredErr
	markers     []marker
	touchedBase bool
	joined      bool // the two parts' tokens were joined
}

type deferredErr struct {
	off int
	msg string
}

const (
	cSpace = 1 << iota
	cIdent
	cDigit
	cNL
)

var class [256]uint8

func init() {
	for c := 'a'; c <= 'z'; c++ {
		class[c] = cIdent
	}
	for c := 'A'; c <= 'Z'; c++ {
		class[c] = cIdent
	}
	for c := '0'; c <= '9'; c++ {
		class[c] = cIdent | cDigit
	}
	class['_'] = cIdent
	class['$'] = cIdent
	for c := 0x80; c < 0x100; c++ {
		class[c] = cIdent
	}
	class[' '] = cSpace
	class['\t'] = cSpace
	class['\v'] = cSpace
	class['\f'] = cSpace
	class['\r'] = cSpace
	class['\n'] = cSpace | cNL
}

// Scan splits f into tokens. Lexical errors (unterminated comments and
// literals) are added to diag.
func Scan(f *File, opts Options, diag *DiagnosticList) []Token {
	return scan(f, opts, diag).toks
}

func scan(f *File, opts Options, diag *DiagnosticList) *scanner {
	split := -1
	if len(f.Src) >= splitScan {
		split = splitPoint(f.Src)
	}
	return scanAt(f, opts, diag, split)
}

// scanAt is scan, in two parts from split (see scanSplit) unless split
// is negative.
func scanAt(f *File, opts Options, diag *DiagnosticList, split int) *scanner {
	s := &scanner{f: f, src: f.Src, diag: diag, opts: opts}
	if i := bytes.IndexByte(s.src, 0); i >= 0 {
		s.errorf(i, "file contains a NUL byte; refusing a binary file")
		return s
	}
	// Code has 3 to 5 bytes per token, tables of numbers 2. Capacity never
	// touched costs nothing (fresh memory is not cleared, nor faulted in
	// until written); growing the slice costs a copy of it all.
	s.toks = mem.Huge[Token](len(s.src)/2 + 16)
	i := 0
	if len(s.src) >= 3 && s.src[0] == 0xEF && s.src[1] == 0xBB && s.src[2] == 0xBF {
		i = 3 // UTF-8 byte order mark
	}
	s.lastNL = i - 1
	if split >= 0 {
		s.scanSplit(i, split)
		return s
	}
	mem.Prefault(s.toks, len(s.src)/3) // the tokens of most code, faulted in on another core
	s.run(i, len(s.src))
	return s
}

// splitScan is the size from which a file is scanned in two parts at
// once.
const splitScan = 1 << 20

// sampleBytes is how much of the second part scanSplit scans before the
// two parts start, to size the first part's share of the buffer (a
// variable for the tests, which scan inputs smaller than it).
var sampleBytes = 32 << 10

// splitPoint returns where scanSplit starts the second part of src: the
// start of a line near the middle.
func splitPoint(src []byte) int {
	nl := bytes.IndexByte(src[len(src)/2:], '\n')
	if nl < 0 {
		return len(src)
	}
	return len(src)/2 + nl + 1
}

// scanSplit scans src[start:] in two parts at once, the second from
// split, the start of a line, on another thread. Where the first part's
// scan arrives at split at the start of a line, in the state the second
// started from (no comment, literal or skipped branch goes on across
// it, and no open #if group is ended or continued after it), the second
// part's tokens are exactly those a single scan finds, and are appended;
// otherwise they are dropped and the first scan goes on to the end.
func (s *scanner) scanSplit(start, split int) {
	if split >= len(s.src) || split <= start {
		s.run(start, len(s.src))
		return
	}
	// The two parts fill one buffer, the first from its start (growing
	// into a buffer of its own only past its share), the second after
	// the first's share; the join moves the second's tokens down. The
	// share is what the second part's first bytes, scanned here, say of
	// the code's tokens a byte, with a margin: every byte of the buffer
	// written is a fresh page the kernel clears, and a share of 2 bytes a
	// token (the densest code but for tables of one-digit numbers) left
	// a third of the buffer's pages written for nothing on usual code.
	buf := s.toks[:0:cap(s.toks)]
	rest := &scanner{f: s.f, src: s.src, opts: s.opts, deferred: true, lastNL: split - 1}
	rest.toks = make([]Token, 0, sampleBytes/2)
	j := rest.run(split, min(len(s.src), split+sampleBytes))
	share := min(cap(buf), (split-start)/2+16)
	if j > split {
		share = min(share, int(int64(split-start)*int64(len(rest.toks))*5/4/int64(j-split))+4096)
	}
	s.toks = buf[:0:share]
	rest.toks = append(buf[share:share], rest.toks...)
	done := make(chan struct{})
	go func() {
		if !rest.fatal {
			rest.run(j, len(s.src))
		}
		close(done)
	}()
	i := s.run(start, split)
	<-done
	if cap(s.toks) == share {
		s.toks = buf[:len(s.toks)] // still in buf: give it all back
	}
	if s.fatal {
		return
	}
	if i != split || s.lastNL != split-1 || len(s.conds) > 0 && rest.touchedBase {
		s.run(i, len(s.src))
		return
	}
	base := int32(len(s.toks))
	s.toks = append(s.toks, rest.toks...) // copy handles the overlap
	for _, k := range rest.pp {
		s.pp = append(s.pp, k+base)
	}
	for _, k := range rest.ids {
		s.ids = append(s.ids, k+base)
	}
	for _, m := range rest.markers {
		s.f.addMarker(m.Off, m.Line, m.Name, m.System)
	}
	for _, e := range rest.errs {
		s.diag.Report(s.f, e.off, Error, "%s", e.msg)
	}
	s.conds = append(s.conds, rest.conds...)
	s.lastNL, s.fatal = rest.lastNL, rest.fatal
	s.joined = true
	s.nums.steps += rest.nums.steps
	s.txt.nums.steps += rest.txt.nums.steps
}

func (s *scanner) errorf(off int, format string, args ...any) {
	if s.deferred {
		s.errs = append(s.errs, deferredErr{off, fmt.Sprintf(format, args...)})
		return
	}
	s.diag.Report(s.f, off, Error, format, args...)
}

func (s *scanner) emit(k Kind, sub uint8, pos, end int) {
	s.toks = append(s.toks, Token{Kind: k, Sub: sub, Pos: int32(pos), End: int32(end)})
}

// splice reports the length of a backslash-newline at i (the backslash may
// be followed by blanks before the newline), or 0.
func (s *scanner) splice(i int) int {
	src := s.src
	if i >= len(src) || src[i] != '\\' {
		return 0
	}
	j := i + 1
	for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
		j++
	}
	if j < len(src) && src[j] == '\r' {
		j++
	}
	if j < len(src) && src[j] == '\n' {
		return j + 1 - i
	}
	return 0
}

// at returns the byte at logical position i (skipping splices) and the
// physical index where it lies, or 0, len(src).
func (s *scanner) at(i int) (byte, int) {
	for i < len(s.src) {
		if s.src[i] == '\\' {
			if n := s.splice(i); n > 0 {
				i += n
				continue
			}
		}
		return s.src[i], i
	}
	return 0, len(s.src)
}

// Actions of the scanner's main loop, by first byte.
const (
	aOther = iota // the slow path: comments, literals, directives, operators
	aBlank
	aNewline
	aIdent
	aDigit
	aPunct // a punctuator that is always one byte
	aOp    // an operator of up to three bytes that starts no comment, digraph or literal
)

var action [256]uint8

func init() {
	for c := 0; c < 256; c++ {
		switch {
		case class[c]&cDigit != 0:
			action[c] = aDigit
		case class[c]&cIdent != 0:
			action[c] = aIdent
		}
	}
	for _, c := range " \t\v\f\r" {
		action[c] = aBlank
	}
	action['\n'] = aNewline
	for _, c := range "{}()[];,?~" {
		action[c] = aPunct
	}
	for _, c := range "=!^*+-&|" {
		action[c] = aOp
	}
	// Literal prefixes start like identifiers; ident handles them.
}

// afterBlank returns i, or i+1 if a blank is at i: most tokens are
// followed by one, which the scanner's loop then takes no turn for.
func afterBlank(src []byte, i int) int {
	if i < len(src) && src[i] == ' ' {
		return i + 1
	}
	return i
}

// identCare marks the bytes after an identifier that make it a splice's
// part or a literal's prefix: the scanner's careful path.
var identCare = [256]bool{'\\': true, '"': true, '\'': true}

// run scans from offset i until a token or a newline ends at limit or
// beyond, and returns the offset where it stopped. The common tokens are
// appended to a local slice, handed back to s.toks around the slower
// paths, which append themselves: splices, literal prefixes and the
// names later passes look up take ident's careful path, and a number
// followed by an exponent sign, a '.', a digit separator or a splice
// takes number's.
func (s *scanner) run(i, limit int) int {
	src := s.src
	n := len(src)
	toks := s.toks
	lastNL := s.lastNL
	for i < limit {
		c := src[i]
		switch action[c] {
		case aBlank:
			i++
			for i < n && action[src[i]] == aBlank {
				i++
			}
		case aNewline:
			lastNL = i
			i++
			for i < limit && src[i] == ' ' { // the line's indentation (a split's second part starts at a line's start)
				i++
			}
		case aIdent:
			start := i
			i++
			for i < n && class[src[i]]&cIdent != 0 {
				i++
			}
			next := byte(0) // the byte after the identifier, or 0 at the end
			if i < n {
				next = src[i]
			}
			if identCare[next] || (c == '_' || c == 'o') && (i-start == 7 && c == '_' || c == 'o' && (i-start >= 12 || i-start == 3)) {
				s.toks, s.lastNL = toks, lastNL
				i = s.ident(start)
				toks, lastNL = s.toks, s.lastNL
				continue
			}
			toks = append(toks, Token{Kind: Ident, Pos: int32(start), End: int32(i)})
			if next == ' ' { // the blank that most tokens are followed by
				i++
			}
		case aPunct:
			toks = append(toks, Token{Kind: Punct, Sub: c, Pos: int32(i), End: int32(i + 1)})
			if i++; i < n && src[i] == ' ' {
				i++
			}
		case aDigit:
			start := i
			i++
			for i < n && class[src[i]]&cIdent != 0 {
				i++
			}
			if i < n && (src[i] == '.' || src[i] == '\\' || src[i] == '\'' || src[i] == '+' || src[i] == '-') {
				s.toks, s.lastNL = toks, lastNL
				i = s.number(start)
				toks, lastNL = s.toks, s.lastNL
				continue
			}
			toks = append(toks, Token{Kind: Number, Pos: int32(start), End: int32(i)})
			i = afterBlank(src, i)
		case aOp:
			l := fastOpLen(src, i, c)
			sub := c
			if l > 1 {
				sub = PMulti
			}
			toks = append(toks, Token{Kind: Punct, Sub: sub, Pos: int32(i), End: int32(i + l)})
			i = afterBlank(src, i+l)
		default:
			s.toks, s.lastNL = toks, lastNL
			i = s.punct(i, c)
			toks, lastNL = s.toks, s.lastNL
			if s.fatal {
				return i
			}
		}
	}
	s.toks, s.lastNL = toks, lastNL
	return i
}

// atLineStart reports whether only blanks and comments precede offset i
// on its line.
func (s *scanner) atLineStart(i int) bool {
	if len(s.toks) == 0 {
		return true
	}
	last := s.toks[len(s.toks)-1]
	// A skipped branch always ends where a directive line begins.
	return int(last.End) <= s.lastNL || last.Kind == Skipped && int(last.End) == i
}

func (s *scanner) ident(i int) int {
	src := s.src
	start := i
	spliced := false
	for {
		for i < len(src) && class[src[i]]&cIdent != 0 {
			i++
		}
		if i < len(src) && src[i] == '\\' {
			if k := s.splice(i); k > 0 {
				if c, j := s.at(i + k); j < len(src) && class[c]&cIdent != 0 {
					i = j
					spliced = true
					continue
				}
			}
		}
		break
	}
	if i < len(src) && (src[i] == '"' || src[i] == '\'') {
		if raw, ok := literalPrefix(src[start:i]); ok {
			if src[i] == '\'' {
				if raw {
					s.emit(Ident, 0, start, i)
					return i
				}
				return s.quoted(start, i, '\'', Char)
			}
			if raw {
				return s.raw(start, i)
			}
			return s.quoted(start, i, '"', String)
		}
	}
	s.emit(Ident, 0, start, i)
	if n := i - start; spliced || n == 7 && src[start] == '_' || n >= 12 && src[start] == 'o' && src[start+1] == 'm' && src[start+2] == 'p' && src[start+3] == '_' ||
		n == 3 && s.opts.CPlusPlus && src[start] == 'o' && src[start+1] == 'm' && src[start+2] == 'p' {
		s.ids = append(s.ids, int32(len(s.toks)-1))
	}
	return i
}

// literalPrefix reports whether p is an encoding prefix of a string or
// character literal, and whether it makes a raw string.
func literalPrefix(p []byte) (raw, ok bool) {
	switch string(p) {
	case "L", "u", "U", "u8":
		return false, true
	case "R", "LR", "uR", "UR", "u8R":
		return true, true
	}
	return false, false
}

func (s *scanner) number(i int) int {
	src := s.src
	start := i
	for i < len(src) {
		c := src[i]
		switch {
		case class[c]&cIdent != 0 || c == '.':
			if (c == 'e' || c == 'E' || c == 'p' || c == 'P') && i+1 < len(src) && (src[i+1] == '+' || src[i+1] == '-') {
				i += 2
				continue
			}
			i++
		case c == '\'' && i+1 < len(src) && class[src[i+1]]&cIdent != 0:
			i += 2 // digit separator
		case c == '\\':
			k := s.splice(i)
			if k == 0 {
				goto done
			}
			if c2, j := s.at(i + k); j < len(src) && (class[c2]&cIdent != 0 || c2 == '.') {
				i = j
				continue
			}
			goto done
		default:
			goto done
		}
	}
done:
	s.emit(Number, 0, start, i)
	return i
}

// A numRun says whether quotes are C++14 digit separators, as in 1'000
// (a quote between two characters of a preprocessing number), for
// positions of one buffer asked in increasing order, in time linear in
// the buffer, not in the square of the length of a run like 1'1'1'…: it
// remembers the last run found.
type numRun struct {
	start, end int // b[start:end] is a run of number characters, end > 0 when set
	steps      int // characters looked at, for the test of linear time
}

// restart forgets the run, for a new buffer, and returns r.
func (r *numRun) restart() *numRun {
	r.start, r.end = 0, 0
	return r
}

func isNumRun(c byte) bool { return class[c]&cIdent != 0 || c == '\'' || c == '.' }

// digitSep reports whether the quote at b[i] is a digit separator.
func (r *numRun) digitSep(b []byte, i int) bool {
	if i == 0 || i+1 >= len(b) || class[b[i-1]]&cIdent == 0 || class[b[i+1]]&cIdent == 0 {
		return false
	}
	// k: the first character of the run that b[i-1] belongs to.
	k, stop := i-1, 0
	if r.end > 0 && r.end <= i {
		stop = r.end
	}
	for k > stop && isNumRun(b[k-1]) {
		k--
	}
	r.steps += i - k
	if k == stop && stop > 0 && stop == r.end && isNumRun(b[stop-1]) {
		k = r.start
	}
	r.start, r.end = k, i+1
	return class[b[k]]&cDigit != 0 || b[k] == '.' && class[b[k+1]]&cDigit != 0
}

// quoted scans a string or character literal whose opening quote is at q.
func (s *scanner) quoted(start, q int, quote byte, k Kind) int {
	src := s.src
	i := q + 1
	for i < len(src) {
		c := src[i]
		switch c {
		case quote:
			s.emit(k, 0, start, i+1)
			return i + 1
		case '\\':
			if n := s.splice(i); n > 0 {
				i += n
				continue
			}
			i += 2
			continue
		case '\n':
			goto bad
		}
		i++
	}
bad:
	what := "string literal"
	if k == Char {
		what = "character constant"
	}
	s.errorf(start, "unterminated %s", what)
	if i > len(src) {
		i = len(src)
	}
	s.emit(k, 0, start, i)
	return i
}

// raw scans a C++ raw string R"delim( ... )delim" whose quote is at q.
func (s *scanner) raw(start, q int) int {
	src := s.src
	open := bytes.IndexByte(src[q+1:], '(')
	if open < 0 || open > 16 || bytes.ContainsAny(src[q+1:q+1+open], " \t\n\\)\"") {
		s.errorf(start, "invalid raw string delimiter")
		s.fatal = true
		return len(src)
	}
	delim := src[q+1 : q+1+open]
	body := q + 1 + open + 1
	close := make([]byte, 0, len(delim)+2)
	close = append(close, ')')
	close = append(close, delim...)
	close = append(close, '"')
	j := bytes.Index(src[body:], close)
	if j < 0 {
		s.errorf(start, "unterminated raw string literal")
		s.fatal = true
		return len(src)
	}
	end := body + j + len(close)
	s.emit(String, 0, start, end)
	return end
}

// blockComment skips a /* */ comment opening at i and returns the offset
// after it.
func (s *scanner) blockComment(i int) int {
	src := s.src
	j := i + 2
	for {
		k := bytes.IndexByte(src[j:], '/')
		if k < 0 {
			s.errorf(i, "unterminated comment")
			s.fatal = true
			return len(src)
		}
		j += k
		if j > i+2 && src[j-1] == '*' {
			return j + 1
		}
		// '*', backslash-newline, '/' also closes a comment.
		if src[j-1] == '\n' {
			b := j - 2
			if b >= 0 && src[b] == '\r' {
				b--
			}
			for b >= 0 && (src[b] == ' ' || src[b] == '\t') {
				b--
			}
			if b > i+2 && src[b] == '\\' && src[b-1] == '*' {
				return j + 1
			}
		}
		j++
	}
}

// lineComment skips a // comment opening at i and returns the offset of
// the newline that ends it.
func (s *scanner) lineComment(i int) int {
	src := s.src
	j := i + 2
	for {
		k := bytes.IndexByte(src[j:], '\n')
		if k < 0 {
			return len(src)
		}
		j += k
		b := j - 1
		if b >= 0 && src[b] == '\r' {
			b--
		}
		for b > i && (src[b] == ' ' || src[b] == '\t') {
			b--
		}
		if b > i+1 && src[b] == '\\' {
			j++
			continue
		}
		return j
	}
}
