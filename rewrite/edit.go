package rewrite

import (
	"fmt"
	"io"
	"math"
)

// An edit replaces src[start:end] with text; start == end inserts. The
// text lives in the edit list's arena, so edits hold no pointers.
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

// Insertions at one offset are ordered by key, and equal keys keep their
// creation order. The keys, for a construct at nesting depth d (0 for
// one that no other construct encloses):
//
//	closeKey(d)      = -2d - 2   closing code: inner constructs first
//	innerCloseKey(d) = -2d - 3   a wrapper inside the construct at d and
//	                             around its children (a section of sections)
//	openKey(d)       =  2d       opening code: outer constructs first
//	innerOpenKey(d)  =  2d + 1
//	replaceKey       =  2 maxDepth + 2, after every insertion
//
// so that at one offset every closing comes before every opening, and a
// construct's code encloses its children's. The keys must fit keyBits
// once biased: that holds for d <= maxDepth, which construct checks
// before it places anything, and push checks again.
const maxDepth = 1 << 20

func closeKey(depth int) int      { return -2*depth - 2 }
func innerCloseKey(depth int) int { return closeKey(depth) - 1 }
func openKey(depth int) int       { return 2 * depth }
func innerOpenKey(depth int) int  { return openKey(depth) + 1 }

const replaceKey = 2*maxDepth + 2

// keyBias makes every key non-negative; keyBits holds any biased key.
const (
	keyBias = 2*maxDepth + 3
	keyBits = 23
)

// The biased keys span [0, keyBias+replaceKey]; this fails to compile if
// that does not fit keyBits.
var _ [1<<keyBits - 1 - (keyBias + replaceKey)]struct{}

type editList struct {
	edits []edit
	arena []byte // the text of all edits
	tmp   []edit // sort's scratch, if allocated ahead
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
	if key < -keyBias || key > replaceKey {
		panic(fmt.Sprintf("rewrite: edit key %d out of range: nesting deeper than %d", key, maxDepth))
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
	tmp := l.tmp[:0]
	if cap(tmp) < len(es) {
		tmp = make([]edit, len(es))
	}
	tmp = tmp[:len(es)]
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
