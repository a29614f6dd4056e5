package rewrite

import (
	"sort"
	"sync"

	"gopari/internal/mem"
	"gopari/parser"
)

// A large file's constructs, user regions and lock calls are instrumented
// in two halves at once, on two threads: the walk's items are split in
// source order, the second half's generator (a fork of the first) numbers
// its regions from 0, and absorb appends its regions, edits and
// diagnostics to the first's, renumbering the second half's regions in
// its text. The edits keep the order a single walk creates them in, so
// the sorted list and the output are the same bytes.
//
// An item's code depends on no other item's, except through the region
// numbers: these are the state that crosses the split. The fork writes a
// region number in a call after the marker regionRef, and join notes
// where in the arena the number's digits went (gen.sites); absorb
// rewrites them. --chunks, whose hooks hold region numbers in text built
// apart, walks in one piece.

// regionRef marks, in code the second half's generator builds, that a
// region number follows: join drops it and notes where the digits go.
const regionRef = '\x05'

// arenaUse is about what dense code uses of the edit arena per
// directive, which walk faults in ahead.
const arenaUse = 256

// splitItems is the number of items from which the walk is split.
const splitItems = 2048

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

// splitAt returns where walk splits items in two: the first item in the
// second half of the file's bytes, or 0 for a walk in one piece.
func (g *gen) splitAt(items []item) int {
	switch {
	case g.opts.Chunks:
		return 0
	case g.forceSplit != 0:
		return min(max(g.forceSplit, 0), len(items))
	case len(items) < splitItems:
		return 0
	}
	mid := int32(len(g.src) / 2)
	return sort.Search(len(items), func(k int) bool { return items[k].off >= mid })
}

// walkHalves instruments items[:k] here and items[k:] on another thread,
// then takes the second half's results.
func (g *gen) walkHalves(items []item, k int) {
	h := g.fork(items, k)
	var failure any
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer func() { failure = recover() }()
		h.walkItems(items[k:])
	}()
	g.walkItems(items[:k])
	wg.Wait()
	if failure != nil {
		panic(failure) // on the caller's thread, as a walk in one piece would
	}
	g.absorb(h)
}

// fork returns a generator for the items after the first k: it shares
// what the walk only reads, and has its own buffers, edits, regions,
// diagnostics and line cursor. Its arena and edits are the ends of g's,
// which it gives up: absorb finds h's where they are, unless either
// overflowed its share. It writes region numbers from k, which absorb
// corrects in place where the first half's count has as many digits.
func (g *gen) fork(items []item, k int) *gen {
	h := &gen{pr: g.pr, f: g.f.Fork(), src: g.src, toks: g.toks, opts: g.opts, name: g.name,
		diags: new(parser.DiagnosticList), preprocessed: g.preprocessed, pragmaLines: g.pragmaLines,
		iface: g.iface, nl: g.nl, offloadPos: -1, lineNo: 1, off: g.off, iterTask: g.iterTask,
		iterLoop: g.iterLoop, controls: g.controls, parens: g.parens, renumber: true, numBase: k}
	n := len(items)
	g.whole.arena, g.whole.edits = g.edits.arena, g.edits.edits
	arena, edits := g.edits.arena[:0:cap(g.edits.arena)], g.edits.edits[:0:cap(g.edits.edits)]
	as := max(len(g.edits.arena), int(int64(cap(arena))*int64(k)/int64(n)))
	es := max(len(g.edits.edits), int(int64(cap(edits))*int64(k)/int64(n)))
	g.edits.arena, h.edits.arena = arena[:len(g.edits.arena):as], arena[as:as]
	g.edits.edits, h.edits.edits = edits[:len(g.edits.edits):es], edits[es:es]
	g.whole.arenaShare, g.whole.editShare = as, es
	dirs := len(g.pr.Directives)
	mem.Prefault(g.edits.arena, arenaUse*int(int64(dirs)*int64(k)/int64(n)))
	mem.Prefault(h.edits.arena, arenaUse*int(int64(dirs)*int64(n-k)/int64(n)))
	g.whole.regions = g.regions
	rs := max(len(g.regions), int(int64(cap(g.regions))*int64(k)/int64(n)))
	g.regions, h.regions = g.regions[:len(g.regions):rs], g.regions[rs:rs]
	g.whole.regionShare = rs
	mem.Prefault(g.regions, rs)
	mem.Prefault(h.regions, cap(h.regions))
	return h
}

// absorb appends the results of h, the fork that walked the items after
// g's, to g's: its regions after g's, its edits, their text renumbered,
// after g's in creation order.
func (g *gen) absorb(h *gen) {
	base := len(g.regions) - h.numBase // what h's region numbers are off by
	if w := &g.whole; cap(g.regions) == w.regionShare {
		g.regions = w.regions[:len(g.regions)] // h's may follow: append moves them down
	}
	g.regions = append(g.regions, h.regions...)
	w := &g.whole
	shared := cap(g.edits.arena) == w.arenaShare && cap(h.edits.arena) == cap(w.arena)-w.arenaShare
	if shared && sameWidths(h.numBase, len(g.regions)-len(h.regions), len(h.regions)) {
		// h's text follows g's in one buffer: its numbers are rewritten
		// in place, and its edits move by where it starts.
		for _, s := range h.sites {
			digits := h.edits.arena[s:]
			e := 0
			num := 0
			for ; e < len(digits) && '0' <= digits[e] && digits[e] <= '9'; e++ {
				num = 10*num + int(digits[e]-'0')
			}
			itoa(digits[:0], num+base)
		}
		at := int32(w.arenaShare)
		g.edits.arena = w.arena[:w.arenaShare+len(h.edits.arena)]
		g.appendEdits(h.edits.edits, func(x int32) int32 { return x + at })
	} else {
		g.appendEdits(h.edits.edits, g.copyRenumbered(h, base))
	}
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

// sameWidths reports whether the region numbers from, from+1, ...
// from+n-1 have as many digits as to, to+1, ... to+n-1.
func sameWidths(from, to, n int) bool {
	if from == to || n == 0 {
		return true
	}
	w := decimalDigits(from)
	return w == decimalDigits(to) && w == decimalDigits(from+n-1) && w == decimalDigits(to+n-1)
}

// appendEdits appends edits to g's, their text moved by move. g's edits
// may end where the edits start: copy handles the overlap.
func (g *gen) appendEdits(edits []edit, move func(int32) int32) {
	if w := &g.whole; cap(g.edits.edits) == w.editShare {
		g.edits.edits = w.edits[:len(g.edits.edits)] // the edits may follow
	}
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

// copyRenumbered appends h's arena to g's with its region numbers moved
// up by base, and returns where an offset of h's arena moved to.
func (g *gen) copyRenumbered(h *gen, base int) func(int32) int32 {
	at := len(g.edits.arena)
	arena, sites := h.edits.arena, h.sites
	shift := make([]int32, len(sites)) // how much longer the text is after sites[i]
	from, grown := 0, 0
	for i, s := range sites {
		e := int(s)
		num := 0
		for ; e < len(arena) && '0' <= arena[e] && arena[e] <= '9'; e++ {
			num = 10*num + int(arena[e]-'0')
		}
		g.edits.arena = append(g.edits.arena, arena[from:s]...)
		n := len(g.edits.arena)
		g.edits.arena = itoa(g.edits.arena, num+base)
		grown += len(g.edits.arena) - n - (e - int(s))
		shift[i] = int32(grown)
		from = e
	}
	g.edits.arena = append(g.edits.arena, arena[from:]...)
	k := 0 // the sites before the offset asked last: edits' texts mostly follow each other
	return func(x int32) int32 {
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

// A parenTable is the table of parenDepth, shared by the two halves of a
// walk: built on another thread (newGen), taken by whichever asks first.
type parenTable struct {
	once   sync.Once
	ahead  chan []int32
	toks   []parser.Token
	depths []int32
}

func (t *parenTable) get() []int32 {
	t.once.Do(func() {
		if t.ahead != nil {
			t.depths = <-t.ahead
		} else {
			t.depths = parenDepths(t.toks)
		}
	})
	return t.depths
}
