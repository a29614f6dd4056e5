package rewrite

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
)

// An edit replaces src[start:end] with text; start == end inserts. The
// text lives in the edit list's arena, so edits hold no pointers.
// Insertions at one offset are ordered by key: closing code of inner
// constructs first, then closing code of outer ones, then opening code of
// outer constructs, then of inner ones.
type edit struct {
	start, end int
	text       seg
	key        int // see closeKey and openKey
	seq        int // creation order, the last tie-breaker
}

// A seg is a range of an arena.
type seg struct{ a, b int }

func (s seg) empty() bool { return s.a == s.b }

func closeKey(depth int) int { return -1_000_000 + (1000 - depth) }
func openKey(depth int) int  { return depth }

const replaceKey = 2_000_000

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

func (l *editList) replace(start, end int, text seg) {
	l.edits = append(l.edits, edit{start: start, end: end, text: text, key: replaceKey, seq: len(l.edits)})
}

func (l *editList) insert(at int, text seg, key int) {
	l.edits = append(l.edits, edit{start: at, end: at, text: text, key: key, seq: len(l.edits)})
}

// sort orders the edits for application.
func (l *editList) sort() {
	slices.SortFunc(l.edits, func(a, b edit) int {
		if a.start != b.start {
			return cmp.Compare(a.start, b.start)
		}
		// An insertion at an offset comes before a replacement starting there.
		ai, bi := a.start == a.end, b.start == b.end
		if ai != bi {
			if ai {
				return -1
			}
			return 1
		}
		if a.key != b.key {
			return cmp.Compare(a.key, b.key)
		}
		return cmp.Compare(a.seq, b.seq)
	})
	for i := 1; i < len(l.edits); i++ {
		if p, e := l.edits[i-1], l.edits[i]; e.start < p.end {
			panic(fmt.Sprintf("rewrite: overlapping edits at offset %d (previous ended at %d)", e.start, p.end))
		}
	}
}

// size returns the length of src with the sorted edits applied.
func (l *editList) size(src []byte) int {
	n := len(src)
	for _, e := range l.edits {
		n += e.text.b - e.text.a - (e.end - e.start)
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
		pos = e.end
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
