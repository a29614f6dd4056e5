package parser

import (
	"sort"

	"gopari/internal/par"
)

// Two passes of a large file run in chunks on two threads (package par)
// when a core is free (par.Useful): the search for directives and the
// walks of loop bodies. Each chunk is
// worked on by a fork of the parser, with its own scratch text, slabs,
// list, walker, memos, diagnostics and line cursor, and reads only what
// no chunk writes; the chunks' results, one after the other, are those
// of the pass in one piece.

// splitDirectives is the number of candidates from which the search for
// directives runs in chunks, splitLoops the number of constructs from
// which the loop bodies do, and chunks how many.
const (
	splitDirectives = 4096
	splitLoops      = 1024
	chunks          = 4
)

// fork returns a parser that reads what p has found so far and works on
// a chunk: half says that it leaves the marking of its directives'
// tokens to the join.
func (p *parser) fork() *parser {
	q := &parser{f: p.f.Fork(), src: p.src, toks: p.toks, cfg: p.cfg, diags: new(DiagnosticList),
		groups: p.groups, list: p.list, attrs: p.attrs, ambiguous: p.ambiguous, half: true}
	q.w.p, q.w.toks = q, q.toks
	return q
}

// directiveChunks returns the tokens at which findDirectives splits its
// candidates into chunks, first and last included, or nil for a search
// in one piece.
func (p *parser) directiveChunks() []int {
	switch {
	case p.splitTok < 0:
		return nil
	case p.splitTok > 0:
		return []int{0, min(p.splitTok, len(p.toks)), len(p.toks)}
	case len(p.pp)+len(p.ids) < splitDirectives || !par.Useful():
		return nil
	}
	bounds := make([]int, chunks+1)
	for c := range bounds {
		bounds[c] = len(p.toks) * c / chunks
	}
	return bounds
}

// findChunks is findDirectives in chunks of the candidates between the
// tokens bounds.
func (p *parser) findChunks(bounds []int) []int {
	n := len(bounds) - 1
	forks := make([]*parser, n)
	macros := make([][]int, n)
	par.Do(n, func(c int) {
		q := p.fork()
		pp, ids := tokRange(p.pp, bounds[c], bounds[c+1]), tokRange(p.ids, bounds[c], bounds[c+1])
		q.list = make([]*Directive, 0, len(pp)+len(ids))
		q.presize(pp, ids)
		macros[c] = q.findIn(pp, ids)
		forks[c] = q
	})
	var macro []int
	for c, q := range forks {
		for _, d := range q.list {
			if d.Form != FormAttribute {
				p.toks[d.Tok].Sub |= IsDirective
			}
		}
		p.list = append(p.list, q.list...)
		p.attrs += q.attrs
		*p.diags = append(*p.diags, *q.diags...)
		p.work += q.work + q.txt.nums.steps + q.f.Steps()
		macro = append(macro, macros[c]...)
	}
	return macro
}

// tokRange returns the token indices of the sorted list toks in [a, b).
func tokRange(toks []int32, a, b int) []int32 {
	i := sort.Search(len(toks), func(i int) bool { return int(toks[i]) >= a })
	j := sort.Search(len(toks), func(i int) bool { return int(toks[i]) >= b })
	return toks[i:j]
}

// loopBodies finds the loop bodies of the constructs cs (loopBody), but
// for a metadirective's enclosed block, which has none. The walks only
// read what block's walks remembered, so a large file's constructs are
// walked in chunks, which a helper starts on while the caller goes on
// with the passes that do not read loops (noCallSpans, userRegions,
// lockCalls); the returned function joins in and waits for the rest.
// Walks that find brackets remembered after a failed walk
// (parser.brackets) may add to them: they stay on one thread.
func (p *parser) loopBodies(cs []*Construct) (wait func()) {
	walk := func(p *parser, cs []*Construct) {
		for _, c := range cs {
			if c.Enclosed == nil {
				p.loopBody(c)
			}
		}
	}
	var bounds []int
	switch {
	case p.brackets != nil || p.splitTok < 0:
	case p.splitTok > 0:
		bounds = []int{0, sort.Search(len(cs), func(i int) bool { return cs[i].Dir.Tok >= p.splitTok }), len(cs)}
	case len(cs) >= splitLoops && par.Useful():
		bounds = make([]int, chunks+1)
		for c := range bounds {
			bounds[c] = len(cs) * c / chunks
		}
	}
	if bounds == nil {
		walk(p, cs)
		return func() {}
	}
	work := make([]int, len(bounds)-1)
	g := par.Start(len(bounds)-1, func(c int) {
		q := p.fork()
		walk(q, cs[bounds[c]:bounds[c+1]])
		work[c] = q.work + q.f.Steps()
	})
	return func() {
		g.Wait()
		for _, w := range work {
			p.work += w
		}
	}
}
