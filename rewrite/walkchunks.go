package rewrite

import (
	"bytes"
	"sort"
	"sync"
	"unsafe"

	"gopari/internal/mem"
	"gopari/internal/par"
	"gopari/parser"
)

// A large file's constructs, user regions and lock calls are instrumented
// in chunks on two threads (package par): the walk's items are split in
// source order, each chunk is walked by a fork of the generator that
// numbers its regions from the chunk's first item's index, and absorb
// appends the forks' regions, edits and diagnostics to the generator's,
// correcting their region numbers. The edits keep the order a single
// walk creates them in, so the sorted list and the output are the same
// bytes.
//
// An item's code depends on no other item's, except through the region
// numbers: these are the state that crosses chunks. A fork writes a
// region number in a call after the marker regionRef, and join notes
// where in the arena the number's digits went (gen.sites); absorb
// rewrites them. --chunks, whose hooks hold region numbers in text built
// apart, walks in one piece.

// regionRef marks, in code a fork builds, that a region number follows:
// join drops it and notes where the digits go.
const regionRef = '\x05'

// arenaUse is about what dense code uses of the edit arena per
// directive, which walk faults in ahead.
const arenaUse = 256

// splitItems is the number of items from which the walk is split into
// chunks, when a core is free (par.Useful), and chunks how many.
const (
	splitItems = 2048
	chunks     = 4
)

// An item is one thing walk instruments: a construct, a user region, a
// POMP control directive or a lock call, by its list and index.
type item struct {
	list uint8 // 0 constructs, 1 user regions, 2 control directives, 3 lock calls
	i    int32
	off  int32 // where it is in the source
}

// items returns the walk's items in source order: the four lists, each
// in source order already, merged.
func (g *gen) items() []item {
	pr := g.pr
	var controls []*parser.Directive
	for _, d := range pr.Directives {
		if d.Pomp && (d.Class() == parser.ClassUserInit || d.Class() == parser.ClassUserOnOff) {
			controls = append(controls, d)
		}
	}
	g.controls = controls
	offs := [4]func(i int) int{
		func(i int) int { return pr.Constructs[i].Dir.Pos },
		func(i int) int { return pr.UserRegions[i].Begin.Pos },
		func(i int) int { return controls[i].Pos },
		func(i int) int { return pr.Locks[i].Offset },
	}
	lens := [4]int{len(pr.Constructs), len(pr.UserRegions), len(controls), len(pr.Locks)}
	out := make([]item, 0, lens[0]+lens[1]+lens[2]+lens[3])
	var next [4]int
	for {
		best, bestOff := -1, 0
		for list := range next {
			if i := next[list]; i < lens[list] {
				if off := offs[list](i); best < 0 || off < bestOff {
					best, bestOff = list, off
				}
			}
		}
		if best < 0 {
			return out
		}
		out = append(out, item{list: uint8(best), i: int32(next[best]), off: int32(bestOff)})
		next[best]++
	}
}

// walkItems instruments items in order.
func (g *gen) walkItems(items []item) {
	pr := g.pr
	for _, it := range items {
		switch it.list {
		case 0:
			g.construct(pr.Constructs[it.i])
		case 1:
			g.userRegion(pr.UserRegions[it.i])
		case 2:
			g.userControl(g.controls[it.i])
		case 3:
			g.lock(pr.Locks[it.i])
		}
	}
}

// walkChunks returns the items at which walk splits its items into
// chunks, first and last included, or nil for a walk in one piece.
func (g *gen) walkChunks(items []item) []int {
	n, k := len(items), chunks
	switch {
	case g.opts.Chunks || g.forceSplit < 0:
		return nil
	case g.forceSplit > 0:
		return []int{0, min(g.forceSplit, n), n}
	case g.forceChunks > 0:
		k = g.forceChunks
	case n < splitItems || !par.Useful():
		return nil
	}
	bounds := make([]int, k+1)
	for c := range bounds {
		bounds[c] = n * c / k
	}
	return bounds
}

// walkInChunks instruments the chunks of items between bounds, each
// with a fork of g, on this thread and a helper (package par), and
// takes their results in order.
func (g *gen) walkInChunks(items []item, bounds []int) {
	forks := g.forks(items, bounds)
	par.Do(len(forks), func(c int) { forks[c].walkItems(items[bounds[c]:bounds[c+1]]) })
	g.absorb(forks)
}

// A share is the part of one of g's buffers a fork writes to: from start,
// for up to size elements.
type share struct{ start, size int }

// sharesOf splits the capacity of a buffer of which used elements are
// taken among the chunks between bounds, in proportion to their items.
func sharesOf(used, capacity int, bounds []int) []share {
	n := bounds[len(bounds)-1]
	out := make([]share, len(bounds)-1)
	at := func(k int) int { return used + int(int64(capacity-used)*int64(k)/int64(n)) }
	for c := range out {
		out[c] = share{at(bounds[c]), at(bounds[c+1]) - at(bounds[c])}
	}
	return out
}

// forks returns a generator for each chunk between bounds: it shares
// what the walk only reads, and has its own buffers, diagnostics and line
// cursor; its arena, edits and regions are its share of g's, faulted in
// ahead. It writes region numbers from its first item's index, which
// absorb corrects.
func (g *gen) forks(items []item, bounds []int) []*gen {
	w := &g.whole
	w.arena, w.edits, w.regions = g.edits.arena, g.edits.edits, g.regions
	arenas := sharesOf(len(w.arena), cap(w.arena), bounds)
	edits := sharesOf(len(w.edits), cap(w.edits), bounds)
	regions := sharesOf(len(w.regions), cap(w.regions), bounds)
	n, dirs := bounds[len(bounds)-1], len(g.pr.Directives)
	bases := g.regionGuesses(items, bounds)
	forks := make([]*gen, len(bounds)-1)
	off, line := 0, 1 // where each fork's line lookups start: its first item's line
	for c := range forks {
		if c > 0 && bounds[c] < n {
			at := int(items[bounds[c]].off)
			line += bytes.Count(g.src[off:at], []byte{'\n'})
			off = at
		}
		start := bytes.LastIndexByte(g.src[:off], '\n') + 1
		h := &gen{pr: g.pr, f: g.f.ForkAt(off, line, start), src: g.src, toks: g.toks, opts: g.opts, name: g.name,
			diags: new(parser.DiagnosticList), preprocessed: g.preprocessed, pragmaLines: g.pragmaLines,
			iface: g.iface, nl: g.nl, offloadPos: -1, lineOff: off, lineNo: line, off: g.off, iterTask: g.iterTask,
			iterLoop: g.iterLoop, controls: g.controls, parens: g.parens, renumber: c > 0 || len(g.regions) > 0, numBase: bases[c]}
		a, e, r := arenas[c], edits[c], regions[c]
		h.edits.arena = w.arena[a.start : a.start : a.start+a.size]
		h.edits.edits = w.edits[e.start : e.start : e.start+e.size]
		h.regions = w.regions[r.start : r.start : r.start+r.size]
		h.whole.arenaShare, h.whole.editShare, h.whole.regionShare = a.start, e.start, r.start
		mem.Prefault(h.edits.arena, min(a.size, arenaUse*int(int64(dirs)*int64(bounds[c+1]-bounds[c])/int64(n))))
		mem.Prefault(h.regions, r.size)
		forks[c] = h
	}
	return forks
}

// regionGuesses returns the region number each chunk between bounds is
// likely to start at: the regions before the walk and those the items
// before the chunk make, as far as their kinds tell. Where a guess is
// right, absorb has no number of the chunk to correct.
func (g *gen) regionGuesses(items []item, bounds []int) []int {
	out := make([]int, len(bounds)-1)
	n := len(g.regions)
	for c := range out {
		out[c] = n
		for _, it := range items[bounds[c]:bounds[c+1]] {
			n += g.regionsOf(it)
		}
	}
	return out
}

// regionsOf returns how many regions item it likely makes: one for each
// leaf of a construct with calls, one for a user region or a lock call.
func (g *gen) regionsOf(it item) int {
	switch it.list {
	case 0:
		c := g.pr.Constructs[it.i]
		switch class := c.Dir.Class(); {
		case c.NoCalls || ignored[class] || class == parser.ClassOffload:
			return 0
		case class == parser.ClassCombined:
			return max(1, len(c.Dir.Leaves))
		}
		return 1
	case 1, 3:
		return 1
	}
	return 0
}

// absorb takes the results of the forks, which walked the items after
// g's in order: their regions, edits and diagnostics after g's, their
// region numbers corrected. A fork's numbers are corrected in place where
// they keep their widths, else its text is copied, renumbered, back into
// its share of the arena; when a fork's text outgrew its share, every
// fork's is copied into a new arena.
func (g *gen) absorb(forks []*gen) {
	w := &g.whole
	bases := make([]int, len(forks))   // what each fork's numbers are off by
	widths := make([]bool, len(forks)) // whether a number of the fork's changes width
	grown := make([]int, len(forks))   // how much longer its text gets then
	global, editsIn, regionsIn := false, true, true
	regions, edits := len(g.regions), len(g.edits.edits)
	for c, h := range forks {
		bases[c] = regions - h.numBase
		if !sameWidths(h.numBase, regions, len(h.regions)) {
			widths[c], grown[c] = true, h.growth(bases[c])
		}
		a := h.whole.arenaShare
		global = global || !inShare(h.edits.arena, w.arena, a) || len(h.edits.arena)+grown[c] > cap(h.edits.arena)
		editsIn = editsIn && inShare(h.edits.edits, w.edits, h.whole.editShare)
		regionsIn = regionsIn && inShare(h.regions, w.regions, h.whole.regionShare)
		regions += len(h.regions)
		edits += len(h.edits.edits)
	}
	// The forks' edits and regions move down to follow g's, each no
	// further than its share's start, in the buffers they share: unless a
	// fork outgrew its share, and the moves could overwrite another's.
	if editsIn {
		g.edits.edits = w.edits[:len(g.edits.edits)]
	} else {
		g.edits.edits = append(make([]edit, 0, edits), g.edits.edits...)
	}
	if regionsIn {
		g.regions = w.regions[:len(g.regions)]
	} else {
		g.regions = append(make([]region, 0, regions), g.regions...)
	}
	if global {
		arena := append(make([]byte, 0, cap(w.arena)), g.edits.arena...)
		for c, h := range forks {
			var move func(int32) int32
			arena, move = renumbered(arena, h.edits.arena, h.sites, bases[c])
			g.appendEdits(h.edits.edits, move)
		}
		g.edits.arena = arena
	} else {
		// Each fork's text is corrected in its own share: on two threads.
		moves := make([]func(int32) int32, len(forks))
		par.Do(len(forks), func(c int) {
			h := forks[c]
			at := int32(h.whole.arenaShare)
			if !widths[c] {
				for _, s := range h.sites {
					if bases[c] == 0 {
						break // the guess was right (regionGuesses)
					}
					renumber(h.edits.arena[s:], bases[c])
				}
				moves[c] = func(x int32) int32 { return x + at }
				return
			}
			scratch := append([]byte(nil), h.edits.arena...)
			var moved func(int32) int32
			h.edits.arena, moved = renumbered(h.edits.arena[:0], scratch, h.sites, bases[c])
			moves[c] = func(x int32) int32 { return moved(x) + at }
		})
		end := len(g.edits.arena)
		for c, h := range forks {
			g.appendEdits(h.edits.edits, moves[c])
			if len(h.edits.arena) > 0 {
				end = h.whole.arenaShare + len(h.edits.arena)
			}
		}
		g.edits.arena = w.arena[:end]
	}
	for _, h := range forks {
		g.takeCounts(h)
	}
}

// takeCounts appends the regions, diagnostics and notes of h, the fork
// of the next chunk, to g's, and adds its counts.
func (g *gen) takeCounts(h *gen) {
	g.regions = append(g.regions, h.regions...) // moves h's down: append copies as copy does
	g.noTail = append(g.noTail, h.noTail...)
	for d := range h.attrDone {
		if g.attrDone == nil {
			g.attrDone = make(map[*parser.Directive]bool)
		}
		g.attrDone[d] = true
	}
	*g.diags = append(*g.diags, *h.diags...)
	if h.offloads > 0 && g.offloads == 0 {
		g.offloadPos = h.offloadPos
	}
	if h.untieds > 0 && g.untieds == 0 {
		g.untiedPos = h.untiedPos
	}
	g.offloads += h.offloads
	g.untieds += h.untieds
	g.metas += h.metas
	g.work += h.work
}

// growth returns how much longer h's text gets when base is added to its
// region numbers.
func (h *gen) growth(base int) int {
	n := 0
	for _, s := range h.sites {
		num, w := number(h.edits.arena[s:])
		n += decimalDigits(num+base) - w
	}
	return n
}

// number reads the region number whose digits start b, and their count.
func number(b []byte) (num, width int) {
	for ; width < len(b); width++ {
		d := b[width] - '0'
		if d > 9 {
			break
		}
		num = 10*num + int(d)
	}
	return num, width
}

// inShare reports whether s, if it holds anything, lies in whole from
// start: it did not outgrow its share.
func inShare[T any](s, whole []T, start int) bool {
	return len(s) == 0 || start < cap(whole) && unsafe.SliceData(s) == &whole[:cap(whole)][start]
}

// renumber adds base to the region number whose digits start b, in
// place: the number keeps its width. Its digits are written two at a
// time, as itoa does.
func renumber(b []byte, base int) {
	num, k := number(b)
	num += base
	for num >= 100 && k >= 2 {
		q := num / 100
		r := 2 * (num - 100*q)
		k -= 2
		b[k], b[k+1] = pairs[r], pairs[r+1]
		num = q
	}
	switch k {
	case 2:
		b[0], b[1] = pairs[2*num], pairs[2*num+1]
	case 1:
		b[0] = byte('0' + num)
	}
}

// sameWidths reports whether the region numbers from, from+1, ...
// from+n-1 have as many digits as to, to+1, ... to+n-1.
func sameWidths(from, to, n int) bool {
	if from == to || n == 0 {
		return true
	}
	w := decimalDigits(from)
	return w == decimalDigits(to) && w == decimalDigits(from+n-1) && w == decimalDigits(to+n-1)
}

// appendEdits appends edits to g's, their text moved by move. The edits
// may lie after g's in the same buffer: append copies as copy does, and
// handles the overlap.
func (g *gen) appendEdits(edits []edit, move func(int32) int32) {
	n := len(g.edits.edits)
	g.edits.edits = append(g.edits.edits, edits...)
	for i := n; i < len(g.edits.edits); i++ {
		e := &g.edits.edits[i]
		if e.text.a != e.text.b {
			e.text = seg32{move(e.text.a), move(e.text.b)}
		} else {
			e.text = seg32{}
		}
	}
}

// renumbered appends text to dst with base added to the region numbers
// at sites, and returns where an offset of text moved to.
func renumbered(dst, text []byte, sites []int32, base int) ([]byte, func(int32) int32) {
	at := len(dst)
	shift := make([]int32, len(sites)) // how much longer the text is after sites[i]
	from, grown := 0, 0
	for i, s := range sites {
		num, w := number(text[s:])
		dst = append(dst, text[from:s]...)
		n := len(dst)
		dst = itoa(dst, num+base)
		grown += len(dst) - n - w
		shift[i] = int32(grown)
		from = int(s) + w
	}
	dst = append(dst, text[from:]...)
	k := 0 // the sites before the offset asked last: edits' texts mostly follow each other
	return dst, func(x int32) int32 {
		// The sites before x: those whose digits end at or before it.
		if k > 0 && sites[k-1] >= x {
			k = sort.Search(len(sites), func(i int) bool { return sites[i] >= x })
		}
		for k < len(sites) && sites[k] < x {
			k++
		}
		d := int32(at)
		if k > 0 {
			d += shift[k-1]
		}
		return x + d
	}
}

// regionNumber appends region number reg to gen.buf, marked for absorb
// in a fork.
func (g *gen) regionNumber(reg int) {
	if g.renumber && reg >= 0 {
		g.mark(regionRef)
	}
	g.buf = append(g.buf, g.regionDigits(reg+g.numBase)...)
}

// site notes that a region number starts at arena offset a, in a fork.
func (g *gen) site(a int) {
	if g.renumber {
		g.sites = append(g.sites, int32(a))
	}
}

// copySites notes the sites of arena text [a, b) copied to offset to.
func (g *gen) copySites(a, b, to int) {
	if !g.renumber {
		return
	}
	s := g.sites
	for k := sort.Search(len(s), func(i int) bool { return s[i] >= int32(a) }); k < len(s) && s[k] < int32(b); k++ {
		g.sites = append(g.sites, s[k]-int32(a)+int32(to))
	}
}

// A parenTable is the table of inParens, shared by the chunks of a
// walk: built on another thread (newGen), taken by whichever asks first.
type parenTable struct {
	once   sync.Once
	ahead  func() []bool // the table built on another thread, or nil
	toks   []parser.Token
	depths []bool
}

func (t *parenTable) get() []bool {
	t.once.Do(func() {
		if t.ahead != nil {
			t.depths = t.ahead()
		} else {
			t.depths = parser.OpenParens(t.toks)
		}
	})
	return t.depths
}
