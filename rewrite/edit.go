package rewrite

import (
	"fmt"
	"io"
	"math"
	"strconv"
)

// An edit replaces src[start:end] with text; start == end inserts. The
// text lives in the edit list's arena, so edits hold no pointers.
// Insertions at one offset are ordered by key: closing code of inner
// constructs first, then closing code of outer ones, then opening code of
// outer constructs, then of inner ones; equal keys keep creation order.
type edit struct {
	start, end int32
	text       seg32
	order      uint64 // sort key: start, insertion before replacement, key
}

// A seg is a range of an arena.
type seg struct{ a, b int }

func (s seg) empty() bool { return s.a == s.b }

// seg32 is a seg stored in an edit.
type seg32 struct{ a, b int32 }

// Keys step by two per nesting level, so that a wrapper gopari adds
// between a construct and its children (a section of sections) has a key
// of its own: the odd one between the two levels.
func closeKey(depth int) int { return -1_000_000 + 2*(1000-depth) }
func openKey(depth int) int  { return 2 * depth }

// innerCloseKey and innerOpenKey order a wrapper that sits inside the
// construct at depth and around its children at depth+1.
func innerCloseKey(depth int) int { return closeKey(depth) - 1 }
func innerOpenKey(depth int) int  { return openKey(depth) + 1 }

const replaceKey = 2_000_000

// keyBias makes keys non-negative; keyBits holds any biased key.
const (
	keyBias = 1 << 21
	keyBits = 23
)

type editList struct {
	edits []edit
	arena []byte // the text of all edits
}

// add appends text to the arena and returns its range.
func (l *editList) add(text ...[]byte) seg {
	a := len(l.arena)
	for _, t := range text {
		l.arena = append(l.arena, t...)
	}
	return seg{a, len(l.arena)}
}

func (l *editList) push(start, end int, text seg, key int) {
	if start > math.MaxInt32 || len(l.arena) > math.MaxInt32 {
		panic("rewrite: file or generated code larger than 2 GiB")
	}
	rep := uint64(0)
	if start != end {
		rep = 1
	}
	order := uint64(start)<<(keyBits+1) | rep<<keyBits | uint64(key+keyBias)
	l.edits = append(l.edits, edit{start: int32(start), end: int32(end), text: seg32{int32(text.a), int32(text.b)}, order: order})
}

func (l *editList) replace(start, end int, text seg) { l.push(start, end, text, replaceKey) }

func (l *editList) insert(at int, text seg, key int) { l.push(at, at, text, key) }

// sort orders the edits for application: a stable radix sort on their
// keys, so that edits with equal keys keep their creation order.
func (l *editList) sort() {
	es := l.edits
	tmp := make([]edit, len(es))
	var max uint64
	for _, e := range es {
		if e.order > max {
			max = e.order
		}
	}
	for shift := uint(0); shift < 64 && max>>shift > 0; shift += 11 {
		var count [1 << 11]int
		for _, e := range es {
			count[(e.order>>shift)&(1<<11-1)]++
		}
		pos := 0
		for i, c := range count {
			count[i] = pos
			pos += c
		}
		for _, e := range es {
			d := (e.order >> shift) & (1<<11 - 1)
			tmp[count[d]] = e
			count[d]++
		}
		es, tmp = tmp, es
	}
	l.edits = es
	for i := 1; i < len(es); i++ {
		if p, e := es[i-1], es[i]; e.start < p.end {
			panic(fmt.Sprintf("rewrite: overlapping edits at offset %d (previous ended at %d)", e.start, p.end))
		}
	}
}

// size returns the length of src with the sorted edits applied.
func (l *editList) size(src []byte) int {
	n := len(src)
	for _, e := range l.edits {
		n += int(e.text.b-e.text.a) - int(e.end-e.start)
	}
	return n
}

// writeTo writes src with the sorted edits applied to w.
func (l *editList) writeTo(w io.Writer, src []byte) error {
	pos := 0
	for _, e := range l.edits {
		if _, err := w.Write(src[pos:e.start]); err != nil {
			return err
		}
		if _, err := w.Write(l.arena[e.text.a:e.text.b]); err != nil {
			return err
		}
		pos = int(e.end)
	}
	_, err := w.Write(src[pos:])
	return err
}

// appendQuoted appends s as a C string literal. It escapes quotes,
// backslashes, control bytes and the second '?' of a trigraph; other
// bytes, UTF-8 included, are kept. Go's %q is not C's escaping.
func appendQuoted[T string | []byte](b []byte, s T) []byte {
	b = append(b, '"')
	plain := true
	for i := 0; i < len(s); i++ {
		if needsEscape[s[i]] {
			plain = false
			break
		}
	}
	if plain {
		b = append(b, s...)
		return append(b, '"')
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c == '\n':
			b = append(b, '\\', 'n')
		case c == '\t':
			b = append(b, '\\', 't')
		case c == '\r':
			b = append(b, '\\', 'r')
		case c == '?' && i > 0 && s[i-1] == '?':
			b = append(b, '\\', '?')
		case c < 0x20 || c == 0x7f:
			b = append(b, '\\', '0'+c>>6, '0'+(c>>3)&7, '0'+c&7)
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}

// quoteC renders s as a C string literal; see appendQuoted.
func quoteC(s string) string { return string(appendQuoted(nil, s)) }

// itoa appends the decimal form of i.
func itoa(b []byte, i int) []byte { return strconv.AppendInt(b, int64(i), 10) }

// needsEscape marks the bytes appendQuoted may have to escape.
var needsEscape = func() (t [256]bool) {
	for c := 0; c < 0x20; c++ {
		t[c] = true
	}
	t['"'], t['\\'], t['?'], t[0x7f] = true, true, true, true
	return t
}()
