package rewrite

import (
	"bytes"
	"encoding/binary"
	"sort"
	"strings"

	"gopari/parser"
)

// Compiler messages point at the user's lines and columns. A construct
// whose directive is a #pragma line (or a _Pragma operator that no
// macro's arguments may enclose) is laid out in lines: the code before
// its directive stays on the directive's line, the directive follows on
// a line of its own, renumbered by a #line directive (a line marker in
// preprocessed input) and written as the user wrote it, with every byte
// that does not belong to it blanked and gopari's clauses added at its
// end; the code after it gets a line of its own, renumbered too. A clause
// then keeps its line and column, and so does the code around the
// construct. Where generated code is inserted before user code on the
// same line, a line break, a #line directive and blanks as wide as the
// line's bytes before that code follow it (keepColumns).

// Markers in generated code, which join expands.
const (
	// pragmaStart starts a directive the user wrote, followed by the
	// offset of the directive (appendOffset) and pragmaOffEnd: unless it
	// replaces the directive with nothing before it, join puts it on a
	// line of its own, numbered and indented like the user's directive.
	pragmaStart  = '\x02'
	pragmaOffEnd = '\x04'
	// resyncOptional ends such a directive: like resyncLine, except that
	// join drops it when nothing follows, the directive's line breaks
	// being the user's.
	resyncOptional = '\x03'
)

// offsetBytes is the length of an offset that appendOffset writes.
const offsetBytes = 5

// appendOffset appends the source offset off (below 2^35) in offsetBytes
// bytes of seven bits each, the most significant first, with the high
// bit set: none of them is a marker, and join reads it back without
// parsing decimals.
func appendOffset(b []byte, off int) []byte {
	for shift := 7 * (offsetBytes - 1); shift >= 0; shift -= 7 {
		b = append(b, 0x80|byte(off>>shift)&0x7f)
	}
	return b
}

// readOffset reads what appendOffset wrote.
func readOffset(b []byte) int {
	off := 0
	for _, c := range b[:offsetBytes] {
		off = off<<7 | int(c&0x7f)
	}
	return off
}

// lineLayout reports whether the construct of directive d is laid out in
// lines. A _Pragma operator inside parentheses may be inside a macro's
// arguments, where a line break with a #line directive is not portable:
// it keeps the code on its line.
func (g *gen) lineLayout(d *parser.Directive) bool {
	switch {
	case g.preprocessed:
		return true
	case d.Form == parser.FormHash:
		return true
	case d.Form == parser.FormOperator:
		return !g.inParens(d.Pos)
	}
	return false
}

// userPragma writes the directive d, or the leaf s of it, with the
// clauses gopari writes and extra ones added. Laid out in lines, it is
// the user's text (see above); otherwise a _Pragma operator.
func (g *gen) userPragma(d *parser.Directive, s *spec, clauses []parser.Clause, extra ...string) {
	if !g.pragmaLines || d.Form == parser.FormAttribute {
		g.pragma(s.name, s.arg, s.hasArg, clauses, extra...)
		return
	}
	omp, strEnd := ompEnd(g.src, d, g.toks)
	if omp < 0 {
		g.pragma(s.name, s.arg, s.hasArg, clauses, extra...)
		return
	}
	var keepBuf [16][2]int
	keep, added := g.keptSpans(d, s, clauses, omp, keepBuf[:0])
	g.sep()
	g.mark(pragmaStart)
	g.buf = appendOffset(g.buf, d.Pos)
	g.buf = append(g.buf, pragmaOffEnd)
	end := d.End
	if d.Form == parser.FormOperator {
		end = strEnd
	}
	broken := g.writeKept(d, keep, end)
	n := len(g.buf)
	for g.buf[n-1] == ' ' || g.buf[n-1] == '\t' {
		n--
	}
	g.buf = g.buf[:n]
	g.tmp = appendClauses(g.tmp[:0], added, true)
	for _, e := range extra {
		g.tmp = append(g.tmp, ' ')
		g.tmp = append(g.tmp, e...)
	}
	if d.Form == parser.FormOperator {
		q := appendQuoted(nil, g.tmp)
		g.buf = append(g.buf, q[1:len(q)-1]...)
		for i := strEnd; i < d.End; i++ {
			if c := g.src[i]; c == '\n' || c == '\r' {
				g.buf = append(g.buf, ' ')
				broken = true
			} else {
				g.buf = append(g.buf, c)
			}
		}
	} else {
		g.buf = append(g.buf, g.tmp...)
	}
	if broken {
		g.mark(resyncLine)
	} else {
		g.mark(resyncOptional)
	}
}

// keptSpans returns the spans of directive d that leaf s keeps, in
// order — the pragma's start through "omp", the leaf's words and
// argument, the clauses gopari writes as the user did — appended to
// keep, and the clauses to add at the directive's end.
func (g *gen) keptSpans(d *parser.Directive, s *spec, clauses []parser.Clause, omp int, keep [][2]int) ([][2]int, []parser.Clause) {
	src := g.src
	keep = append(keep, [2]int{d.Pos, omp})
	first, words := leafWords(d, s.name)
	i, last := d.NameOff, d.NameOff
	for w := 0; w < first+words; w++ {
		a := skipSpace(src, i, d.End)
		b := identEnd(src, a, d.End)
		if w >= first {
			keep = append(keep, [2]int{a, b})
		}
		i, last = b, b
	}
	if s.hasArg {
		if a := skipSpace(src, last, d.End); a < d.End && src[a] == '(' {
			if b := closeParen(src, a, d.End); b > a {
				keep = append(keep, [2]int{a, b})
			}
		}
	}
	var added []parser.Clause
	for _, c := range clauses {
		if c.End > 0 && sameClause(src[c.Off:c.End], c) {
			keep = append(keep, [2]int{c.Off, c.End})
		} else {
			added = append(added, c)
		}
	}
	for i := 1; i < len(keep); i++ { // a few spans, nearly in order
		for j := i; j > 0 && keep[j][0] < keep[j-1][0]; j-- {
			keep[j], keep[j-1] = keep[j-1], keep[j]
		}
	}
	return keep, added
}

// writeKept writes the directive d's text up to end, its kept spans as
// they are and every other byte blanked, its lines kept. It reports
// whether a line break outside a backslash-newline became a blank. Runs
// of ordinary bytes, kept or blanked, are written at once.
func (g *gen) writeKept(d *parser.Directive, keep [][2]int, end int) (broken bool) {
	src := g.src
	k := 0
	i := d.Pos
	if d.Form == parser.FormHash && src[i] == '%' {
		g.buf = append(g.buf, '#', ' ') // the digraph %:, which not every C parser reads
		i += 2
	}
	if plainRun(src, i, end) == end {
		// No byte of the text needs care, as in nearly every directive:
		// copy it at once and blank what the spans do not keep.
		g.buf = blankOutside(append(g.buf, src[i:end]...), keep, i, end)
		return false
	}
	for i < end {
		for k < len(keep) && keep[k][1] <= i {
			k++
		}
		in := k < len(keep) && keep[k][0] <= i
		stop := end // where in changes
		if in {
			stop = min(end, keep[k][1])
		} else if k < len(keep) {
			stop = min(end, keep[k][0])
		}
		j := plainRun(src, i, stop)
		if in {
			g.buf = append(g.buf, src[i:j]...)
		} else {
			g.buf = appendBlanks(g.buf, j-i)
		}
		if i = j; i == stop {
			continue
		}
		c := src[i]
		if c == '\\' {
			if j := spliceEnd(src, i, end); j > i {
				g.buf = append(g.buf, src[i:j]...)
				i = j
				continue
			}
		}
		switch {
		case c == '\n' && d.Form == parser.FormHash:
			// A line break inside a comment: a backslash-newline keeps
			// the directive going, and the lines their numbers.
			if n := len(g.buf); n > 0 && g.buf[n-1] == '\r' {
				g.buf = append(g.buf[:n-1], '\\', '\r')
			} else {
				g.buf = append(g.buf, '\\')
			}
			g.buf = append(g.buf, '\n')
		case c == '\n' || c == '\r' && d.Form != parser.FormHash:
			g.buf = append(g.buf, ' ')
			broken = true
		case in || c == '\t' || c == '\r':
			g.buf = append(g.buf, c)
		default:
			g.buf = append(g.buf, ' ')
		}
		i++
	}
	return broken
}

// blankOutside blanks the bytes of src[from:end], which end b, that no
// span of keep (in order of their starts) holds, and returns b.
func blankOutside(b []byte, keep [][2]int, from, end int) []byte {
	text := b[len(b)-(end-from):]
	done := from // every byte before done is kept or blanked
	for _, k := range keep {
		if a := min(k[0], end); a > done {
			fillBlanks(text[done-from : a-from])
		}
		done = max(done, min(k[1], end))
	}
	fillBlanks(text[done-from:])
	return b
}

// fillBlanks overwrites b with blanks.
func fillBlanks(b []byte) {
	for len(b) > 0 {
		b = b[copy(b, blanks):]
	}
}

// keptSpecial marks the bytes writeKept does not copy or blank as they
// come: backslashes, line breaks and tabs.
var keptSpecial = [256]bool{'\\': true, '\n': true, '\r': true, '\t': true}

// plainRun returns the offset of the first byte of src[i:stop] that
// keptSpecial marks, or stop. It tests eight bytes at a time for one
// below 0x0e (tabs and line breaks among them) or a backslash.
func plainRun(src []byte, i, stop int) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for i+8 <= stop {
		x := binary.LittleEndian.Uint64(src[i:])
		y := x ^ '\\'*ones
		if (x-0x0e*ones)&^x&highs|(y-ones)&^y&highs != 0 {
			break
		}
		i += 8
	}
	for i < stop && !keptSpecial[src[i]] {
		i++
	}
	return i
}

// blanks is a run of blanks for appendBlanks.
const blanks = "                                                                "

// appendBlanks appends n blanks to b.
func appendBlanks(b []byte, n int) []byte {
	for ; n > len(blanks); n -= len(blanks) {
		b = append(b, blanks...)
	}
	return append(b, blanks[:n]...)
}

// sameClause reports whether the source text b of clause c, without its
// blanks, comments and backslash-newlines, is the clause as gopari writes
// it: a clause that gopari changed is written at the directive's end.
func sameClause(b []byte, c parser.Clause) bool {
	var wb [128]byte // on the stack: most clauses fit
	want := append(wb[:0], c.Name...)
	if c.HasArgs {
		want = append(append(append(want, '('), c.Args...), ')')
	}
	if bytes.Equal(b, want) { // as most clauses are written
		return true
	}
	j := 0
	for i := 0; i < len(b); {
		switch {
		case b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n' || b[i] == '\f' || b[i] == '\v':
			i++
		case b[i] == '\\' && spliceEnd(b, i, len(b)) > i:
			i = spliceEnd(b, i, len(b))
		case b[i] == '/' && i+1 < len(b) && b[i+1] == '*':
			k := bytes.Index(b[i+2:], []byte("*/"))
			if k < 0 {
				return false
			}
			i += k + 4
		default:
			for j < len(want) && (want[j] == ' ' || want[j] == '\t') {
				j++
			}
			if j >= len(want) || want[j] != b[i] {
				return false
			}
			i++
			j++
		}
	}
	for j < len(want) && (want[j] == ' ' || want[j] == '\t') {
		j++
	}
	return j == len(want)
}

// ompEnd returns the offset after the word omp of directive d, and for
// a _Pragma operator the offset of its string's closing quote; -1 when
// the directive is not written as gopari expects.
func ompEnd(src []byte, d *parser.Directive, toks []parser.Token) (int, int) {
	i, strEnd := d.Pos, d.End
	const plain = "#pragma omp" // as nearly every directive is written
	if d.Form == parser.FormHash && d.End-i > len(plain) && string(src[i:i+len(plain)]) == plain {
		if c := src[i+len(plain)]; !identByte[c] && c != '\\' {
			return i + len(plain), strEnd
		}
	}
	switch d.Form {
	case parser.FormHash:
		if src[i] == '%' {
			i++ // the digraph %:
		}
		i = skipSpace(src, i+1, d.End)
		if e := identEnd(src, i, d.End); !isWord(src[i:e], "pragma") {
			return -1, 0
		} else {
			i = e
		}
	case parser.FormOperator:
		str := -1
		for t := d.Tok; t <= d.LastTok && t < len(toks); t++ {
			if toks[t].Kind == parser.String {
				str = t
				break
			}
		}
		if str < 0 {
			return -1, 0
		}
		i, strEnd = int(toks[str].Pos), int(toks[str].End)-1
		for i < strEnd && src[i] != '"' {
			i++
		}
		i++
	default:
		return -1, 0
	}
	i = skipSpace(src, i, strEnd)
	e := identEnd(src, i, strEnd)
	if !isWord(src[i:e], "omp") {
		return -1, 0
	}
	return e, strEnd
}

// isWord reports whether identifier b, which backslash-newlines may
// split, is w.
func isWord(b []byte, w string) bool {
	if bytes.IndexByte(b, '\\') < 0 {
		return string(b) == w
	}
	var out []byte
	for i := 0; i < len(b); i++ {
		if j := spliceEnd(b, i, len(b)); b[i] == '\\' && j > i {
			i = j - 1
			continue
		}
		out = append(out, b[i])
	}
	return string(out) == w
}

// leafWords returns the index of the first word of leaf name in the
// name of d, and its number of words.
func leafWords(d *parser.Directive, name string) (first, n int) {
	n = strings.Count(name, " ") + 1
	if d.Class() != parser.ClassCombined {
		return 0, strings.Count(d.Name, " ") + 1
	}
	for _, l := range d.Leaves {
		if l == name {
			return first, n
		}
		first += strings.Count(l, " ") + 1
	}
	return 0, strings.Count(d.Name, " ") + 1
}

// skipSpace returns the offset of the first byte at or after i, before
// end, that is not a blank, a comment or a backslash-newline.
func skipSpace(src []byte, i, end int) int {
	for i < end {
		switch c := src[i]; {
		case c == ' ' || c == '\t' || c == '\f' || c == '\v' || c == '\r' || c == '\n':
			i++
		case c == '\\':
			j := spliceEnd(src, i, end)
			if j == i {
				return i
			}
			i = j
		case c == '/' && i+1 < end && src[i+1] == '*':
			j := strings.Index(string(src[i+2:end]), "*/")
			if j < 0 {
				return end
			}
			i += j + 4
		default:
			return i
		}
	}
	return i
}

// spliceEnd returns the offset after the backslash-newline at src[i]
// (blanks may stand between them), or i when there is none.
func spliceEnd(src []byte, i, end int) int {
	j := i + 1
	for j < end && (src[j] == ' ' || src[j] == '\t') {
		j++
	}
	if j < end && src[j] == '\r' {
		j++
	}
	if j < end && src[j] == '\n' {
		return j + 1
	}
	if j > i+1 && src[j-1] == '\r' {
		return j
	}
	return i
}

// identEnd returns the offset after the identifier at src[i], which
// backslash-newlines may split.
func identEnd(src []byte, i, end int) int {
	start := i
	for i < end {
		c := src[i]
		if identByte[c] {
			i++
			continue
		}
		if c != '\\' {
			break
		}
		if j := spliceEnd(src, i, end); j > i && i > start && j < end && isIdentStart(src[j]) {
			i = j
			continue
		}
		break
	}
	return i
}

func isIdentStart(c byte) bool { return identByte[c] }

// identByte marks the bytes of identifiers: letters, digits, '_' and the
// bytes of UTF-8 sequences.
var identByte = func() (t [256]bool) {
	for c := range t {
		t[c] = c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
	}
	return t
}()

// closeParen returns the offset after the ')' matching the '(' at
// src[i], or i when there is none before end.
func closeParen(src []byte, i, end int) int {
	depth := 0
	for j := i; j < end; j++ {
		switch src[j] {
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				return j + 1
			}
		}
	}
	return i
}

// pad appends blanks as wide as the bytes of at's line before at: a tab
// for a tab, a blank for any other byte, so that what follows keeps its
// column.
func (g *gen) pad(b []byte, at int) []byte {
	start := at
	for start > 0 && g.src[start-1] != '\n' && g.src[start-1] != '\r' {
		start--
	}
	for _, c := range g.src[start:at] {
		if c == '\t' {
			b = append(b, '\t')
		} else {
			b = append(b, ' ')
		}
	}
	return b
}

// inParens reports whether a parenthesis is open at offset off, as the
// tokens count them.
func (g *gen) inParens(off int) bool {
	if g.depths == nil {
		g.depths = g.parens.get()
	}
	return g.depths[g.tokenAt(off)]
}

// tokenAt returns the index of the first token at or after offset off.
// keepColumns asks in increasing order: the search gallops forward from
// the previous answer, reading tokens near it, which the caches hold,
// instead of halving the whole table, whose first reads miss them.
func (g *gen) tokenAt(off int) int {
	toks := g.toks
	i := g.tokCursor // every token before i starts before off
	if i > len(toks) || i > 0 && int(toks[i-1].Pos) >= off {
		i = 0
	}
	hi := i
	for step := 1; hi < len(toks) && int(toks[hi].Pos) < off; step *= 2 {
		i = hi + 1
		hi += step
	}
	hi = min(hi, len(toks))
	i += sort.Search(hi-i, func(k int) bool { return int(toks[i+k].Pos) >= off })
	g.tokCursor = i
	return i
}

// parensAhead is the number of tokens from which newGen builds the table
// of inParens on another thread.
const parensAhead = 1 << 16

// keepColumns ends every run of edits that user code follows on the same
// line with a line break, a #line directive (or a line marker) and blanks
// as wide as the line's bytes before that code. In source text this
// happens only outside parentheses, which could be a macro's arguments.
func (g *gen) keepColumns() {
	es := g.edits.edits
	skip := g.noTail
	lines := lineCursor{line: 1}
	for i := range es {
		e := &es[i]
		end := int(e.end)
		if i+1 < len(es) && int(es[i+1].start) == end || e.text.a == e.text.b {
			continue
		}
		for len(skip) > 0 && skip[0] < end {
			skip = skip[1:]
		}
		if len(skip) > 0 && skip[0] == end || !g.codeFollows(end) {
			continue
		}
		if !g.preprocessed && g.inParens(end) {
			continue
		}
		a := len(g.edits.arena)
		text := g.edits.arena[e.text.a:e.text.b]
		for len(text) > 0 && text[len(text)-1] == ' ' {
			text = text[:len(text)-1]
		}
		g.edits.arena = append(g.edits.arena, text...)
		g.edits.arena = append(g.edits.arena, g.nl...)
		g.edits.arena = g.lineDirective(g.edits.arena, lines.at(g, end), g.fileAt(end))
		g.edits.arena = g.pad(g.edits.arena, end)
		e.text = seg32{int32(a), int32(len(g.edits.arena))}
	}
}

// A lineCursor numbers lines for lookups that move forward through the
// file, as keepColumns' do in the sorted edits: it counts the newlines
// from the previous lookup, however far, and so counts each byte once.
// (gen.line, for the walk, which also moves back, counts only from a
// lookup nearby.)
type lineCursor struct{ off, line int }

// at returns the presumed line of offset off.
func (c *lineCursor) at(g *gen, off int) int {
	if g.f.HasMarkers() || off < c.off {
		return g.line(off)
	}
	c.line += bytes.Count(g.src[c.off:off], []byte{'\n'})
	g.work += off - c.off
	c.off = off
	return c.line
}

// codeFollows reports whether anything but blanks and comments follows
// offset off on its line (a line comment that a backslash continues
// counts), and off is not at the line's start. Code that starts with '#'
// (or its digraph) stays where it is: at the start of a line of its own
// it would become a directive.
func (g *gen) codeFollows(off int) bool {
	src := g.src
	if off == 0 || off > len(src) || src[off-1] == '\n' {
		return false
	}
	for i := off; i < len(src); i++ {
		switch c := src[i]; {
		case c == ' ' || c == '\t' || c == '\f' || c == '\v':
		case c == '\n' || c == '\r':
			return false
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			// A line comment moves only if a backslash continues it:
			// the compiler warns about it (-Wcomment) at its column.
			e := i
			for e < len(src) && src[e] != '\n' {
				e++
			}
			return e > i && bytes.HasSuffix(bytes.TrimRight(src[i:e], " \t\r"), []byte{'\\'})
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			j := i + 2
			for j+1 < len(src) && !(src[j] == '*' && src[j+1] == '/') {
				if src[j] == '\n' {
					return false
				}
				j++
			}
			i = j + 1
		case c == '#' || c == '%' && i+1 < len(src) && src[i+1] == ':':
			return false
		default:
			return true
		}
	}
	return false
}
