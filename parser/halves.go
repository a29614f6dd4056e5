package parser

import (
	"sort"
	"sync"
)

// The directives of a large file are parsed in two halves at once, on
// two threads: the candidates (preprocessing lines and identifiers) are
// split at a token, and the second half's parser, a fork of the first
// with its own scratch text, slabs, list, diagnostics and line cursor,
// parses those after it. A candidate's directive depends on no other's,
// so the two lists, one after the other, are the list of a search in one
// piece.

// splitDirectives is the number of candidates from which the search is
// split.
const splitDirectives = 4096

// directiveSplit returns the token at which findDirectives splits its
// candidates, or 0 for a search in one piece.
func (p *parser) directiveSplit() int {
	switch {
	case p.splitTok != 0:
		return max(p.splitTok, 0)
	case len(p.pp)+len(p.ids) < splitDirectives:
		return 0
	}
	return len(p.toks) / 2
}

// findHalves is findDirectives with the candidates from token k on
// parsed on another thread.
func (p *parser) findHalves(k int) []int {
	pp, ids := p.pp, p.ids
	i := sort.Search(len(pp), func(i int) bool { return int(pp[i]) >= k })
	j := sort.Search(len(ids), func(i int) bool { return int(ids[i]) >= k })
	q := &parser{f: p.f.Fork(), src: p.src, toks: p.toks, cfg: p.cfg, diags: new(DiagnosticList), half: true}
	q.w.p, q.w.toks = q, q.toks
	n := len(pp) - i + len(ids) - j
	q.list = make([]*Directive, 0, n)
	var qMacro []int
	var failure any
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer func() { failure = recover() }()
		q.presize(pp[i:], ids[j:])
		qMacro = q.findIn(pp[i:], ids[j:])
	}()
	p.presize(pp[:i], ids[:j])
	macro := p.findIn(pp[:i], ids[:j])
	wg.Wait()
	if failure != nil {
		panic(failure) // on the caller's thread, as a search in one piece would
	}
	for _, d := range q.list {
		if d.Form != FormAttribute {
			p.toks[d.Tok].Sub |= IsDirective
		}
	}
	p.list = append(p.list, q.list...)
	p.attrs += q.attrs
	*p.diags = append(*p.diags, *q.diags...)
	p.work += q.work + q.txt.nums.steps + q.f.Steps()
	return append(macro, qMacro...)
}

// splitLoops is the number of constructs from which loopBodies runs on
// two threads.
const splitLoops = 1024

// loopBodies finds the loop bodies of the constructs cs (loopBody), but
// for a metadirective's enclosed block, which has none. The walks only
// read what block's walks remembered, so a large file's constructs after
// the first tenth are walked on another thread by a fork of the parser
// (its own walker, memos, diagnostics and line cursor), while the caller
// goes on with the passes that do not read loops (noCallSpans, userRegions,
// lockCalls); the returned function walks the first tenth and waits for
// the rest. Walks that find brackets remembered after a failed walk
// (parser.brackets) may add to them: they stay on one thread.
func (p *parser) loopBodies(cs []*Construct) (wait func()) {
	walk := func(p *parser, cs []*Construct) {
		for _, c := range cs {
			if c.Enclosed == nil {
				p.loopBody(c)
			}
		}
	}
	m := -1
	switch {
	case p.brackets != nil || p.splitTok < 0:
	case p.splitTok > 0:
		m = sort.Search(len(cs), func(i int) bool { return cs[i].Dir.Tok >= p.splitTok })
	case len(cs) >= splitLoops:
		m = len(cs) / 10
	}
	if m < 0 {
		walk(p, cs)
		return func() {}
	}
	q := &parser{f: p.f.Fork(), src: p.src, toks: p.toks, cfg: p.cfg, diags: new(DiagnosticList),
		groups: p.groups, list: p.list, attrs: p.attrs, ambiguous: p.ambiguous, half: true}
	q.w.p, q.w.toks = q, q.toks
	var failure any
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer func() { failure = recover() }()
		walk(q, cs[m:])
	}()
	return func() {
		walk(p, cs[:m])
		wg.Wait()
		if failure != nil {
			panic(failure) // on the caller's thread, as walks on one thread would
		}
		p.work += q.work + q.f.Steps()
	}
}
