package parser

// Constructs: the structured block of every directive, where code may go
// around it, and how constructs nest.

import (
	"sort"
	"strings"

	"gopari/internal/mem"
)

// constructs computes the structured block of every directive and how the
// constructs nest. Blocks are found innermost first, so that the walk of
// an outer block jumps over the inner ones (see walker).
func (p *parser) constructs() []*Construct {
	all := make([]*Construct, 0, len(p.list))
	p.consSlab.buf = mem.Huge[Construct](len(p.list))
	mem.Prefault(p.consSlab.buf, cap(p.consSlab.buf))
	var deviceFrom []int // offsets of open declare target blocks
	var deviceRanges [][2]int
	for _, d := range p.list {
		if d.Pomp {
			continue
		}
		c := p.consSlab.alloc()
		*c = Construct{Dir: d, First: -1, Last: -1, Hoist: -1, Reopen: -1, Close: -1}
		switch d.class {
		case ClassDeclTargetBegin:
			if d.Name == "begin declare target" || len(d.Clauses) == 0 && !d.HasArg {
				deviceFrom = append(deviceFrom, d.Pos)
			}
		case ClassDeclTargetEnd:
			if n := len(deviceFrom); n > 0 {
				deviceRanges = append(deviceRanges, [2]int{deviceFrom[n-1], d.Pos})
				deviceFrom = deviceFrom[:n-1]
			}
		}
		all = append(all, c)
	}
	p.pairMeta(all)
	for i := len(all) - 1; i >= 0; i-- {
		c := all[i]
		if c.Enclosed != nil {
			if !p.enclosedBlock(c) {
				all[i] = nil
			}
			continue
		}
		if c.Dir.stmt != StmtNone && !p.block(c) {
			all[i] = nil
		}
	}
	out := all[:0]
	for _, c := range all {
		if c != nil {
			out = append(out, c)
		}
	}
	for _, from := range deviceFrom {
		deviceRanges = append(deviceRanges, [2]int{from, len(p.src)})
	}
	p.device = newSpans(deviceRanges)
	p.nest(out)
	p.alternatives(out)
	for _, c := range out {
		if c.Dir.class == ClassSections || c.Dir.class == ClassCombined && lastLeaf(c.Dir) == "sections" {
			p.sections(c)
		}
	}
	return out
}

func lastLeaf(d *Directive) string {
	if len(d.Leaves) == 0 {
		return d.Name
	}
	return d.Leaves[len(d.Leaves)-1]
}

// block finds the structured block of c and where code may be placed
// around it. It reports false after an error.
func (p *parser) block(c *Construct) bool {
	d := c.Dir
	w := &p.w
	w.reset()
	w.remember = true
	s := w.stmtStart(d.LastTok + 1)
	if w.include >= 0 && w.include < s {
		p.errorf(p.offset(w.include), "the statement after '#pragma omp %s' comes from an #include that gopari cannot see", d.Name)
		return false
	}
	if w.left != nil {
		c.Hoist = w.left.branches[0]
		c.Reopen = w.leftEnd
	}
	left := w.left
	last := w.stmt(s, need{d: d})
	w.rememberWalk(d, last, w.stack == nil && w.events == 0)
	if last < 0 {
		return false
	}
	if w.left != left {
		p.errorf(d.Pos, "the block of '#pragma omp %s' ends after the #endif of the conditional group holding the directive", d.Name)
		return false
	}
	if w.stack != nil {
		g := w.stack.bottom
		if k := p.codeAfter(last, g); k >= 0 {
			p.errorf(p.offset(k), "code follows the end of the block of '#pragma omp %s' (at %s) inside the conditional group opened at %s; gopari can end the construct only after that group's #endif", d.Name, p.posString(last), p.posString(g.branches[0]))
			return false
		}
		c.Close = g.end
	}
	c.First, c.Last, c.LastToken = s, last, p.toks[last]
	return true
}

// codeAfter returns the first token after last, in the branch of group g
// that holds last, that is code or an OpenMP directive, or -1. Constructs
// that end at one token inside one group (a chain of directives before
// one loop) ask once.
func (p *parser) codeAfter(last int, g *group) int {
	key := [2]int{last, g.end}
	if k, ok := p.after[key]; ok {
		return k
	}
	stop := g.end
	if i := sort.Search(len(g.branches), func(i int) bool { p.work++; return g.branches[i] >= last+1 }); i < len(g.branches) {
		stop = g.branches[i]
	}
	k := last + 1
	for ; k < stop; k++ {
		p.work++
		t := p.toks[k]
		if t.Kind == Skipped || t.Kind == Preproc && t.PP() != PPPragma {
			continue
		}
		break
	}
	if k >= stop {
		k = -1
	}
	if p.after == nil {
		p.after = make(map[[2]int]int)
	}
	p.after[key] = k
	return k
}

// nest links every construct to its enclosing construct and marks where
// no calls may be inserted.
func (p *parser) nest(cs []*Construct) {
	var stack []*Construct
	for _, c := range cs {
		for len(stack) > 0 && stack[len(stack)-1].Last < c.Dir.Tok {
			stack = stack[:len(stack)-1]
		}
		if n := len(stack); n > 0 {
			c.Parent = stack[n-1]
			c.Depth = c.Parent.Depth + 1
		}
		d := c.Dir
		c.Offload = d.class == ClassOffload
		if c.Parent != nil && (c.Parent.NoCalls || c.Parent.forbidsCalls()) {
			c.NoCalls = true
		}
		if p.device.contains(d.Pos, &p.work) {
			c.NoCalls = true
		}
		if d.class == ClassCancel || d.class == ClassCancellationPoint {
			// An ancestor already marked has its own ancestors marked.
			for q := c.Parent; q != nil && !q.Cancellable; q = q.Parent {
				q.Cancellable = true
			}
		}
		if c.Last >= 0 {
			stack = append(stack, c)
		}
	}
}

// forbidsCalls reports whether code inside c's block must not call
// functions gopari inserts.
func (c *Construct) forbidsCalls() bool {
	d := c.Dir
	switch d.class {
	case ClassOffload, ClassSimd, ClassLoop, ClassAtomic:
		return true
	case ClassOrdered:
		if d.Has("simd") {
			return true
		}
	}
	switch leaf := lastLeaf(d); {
	case leaf == "loop", strings.HasSuffix(leaf, "simd"):
		return true
	}
	if cl, ok := d.Clause("order"); ok && strings.Contains(cl.Args, "concurrent") {
		return true
	}
	return false
}

// alternatives rejects directives in different branches of one conditional
// that apply to the same statement.
func (p *parser) alternatives(cs []*Construct) {
	seen := make(map[int]*Construct, len(cs))
	for _, c := range cs {
		if c.First < 0 {
			continue
		}
		if o := seen[c.First]; o != nil && o != c.Parent {
			p.errorf(c.Dir.Pos, "'#pragma omp %s' and '#pragma omp %s' at %s apply to the same statement from different #if branches; instrument the preprocessed source instead (gopari cc, or --preprocessed)", c.Dir.Name, o.Dir.Name, p.posString(o.Dir.Tok))
			continue
		}
		seen[c.First] = c
	}
}

// sections finds the section directives directly inside a sections block.
// It steps over the blocks of the constructs inside, which walked
// without conditionals between (Directive.walked): no section directive of
// its own lies in them, and the scan stays linear however sections nest.
func (p *parser) sections(c *Construct) {
	if !p.isPunct(c.First, '{') {
		p.errorf(p.offset(c.First), "the block of '#pragma omp %s' must be a compound statement", c.Dir.Name)
		return
	}
	depth := 0
	code := false
	for k := c.First + 1; k < c.Last; k++ {
		p.work++
		t := p.toks[k]
		if t.Sub&IsDirective != 0 && t.Kind <= Preproc || t.Kind == Ident {
			if d := p.dir(k); d != nil && d.walked > 0 {
				// A construct inside: its block holds no section of this
				// one, and nested sections would be scanned again.
				code = true
				k = int(d.walked) - 1
				continue
			} else if d != nil && d.class == ClassSection && depth == 0 {
				// #pragma omp section, _Pragma or attribute syntax.
				if len(c.Sections) == 0 {
					c.ImplicitFirst = code
				}
				c.Sections = append(c.Sections, k)
				k = d.LastTok
				continue
			} else if d != nil && t.Kind == Preproc {
				code = true
			}
		}
		switch t.Kind {
		case Punct:
			switch t.Sub {
			case '{':
				depth++
			case '}':
				depth--
			}
			code = true
		case Preproc, Skipped:
		default:
			code = true
		}
	}
	if len(c.Sections) == 0 {
		c.ImplicitFirst = code
	}
}
