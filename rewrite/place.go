package rewrite

import (
	"bytes"
	"sort"
	"strconv"

	"gopari/parser"
)

// place puts the parts of a construct's leaves into the source.
func (g *gen) place(c *parser.Construct, all []parts) {
	d := c.Dir
	// opening: pre, pragma and open of every leaf in order; its tail
	// after the first pre and pragma is the code that opens the block.
	var ob, cb [5*maxLeaves + 1]seg
	opening := ob[:0]
	for _, p := range all {
		opening = append(opening, p.pre, p.pragma, p.open)
	}
	closing := cb[:0]
	if c.Enclosed != nil {
		// The code between begin and end metadirective becomes one block.
		opening = append(opening, g.part(func() { g.w("{") }))
		closing = append(closing, g.part(func() { g.w("}") }))
	}
	inner := opening[2:]
	for i := len(all) - 1; i >= 0; i-- {
		closing = append(closing, all[i].close, all[i].post)
	}
	depth := c.Depth
	g.attrEdited(d)
	if d.Meta != "" {
		g.metas++
	}
	if c.Last < 0 {
		// A standalone directive: everything in its place.
		g.edits.replace(d.Pos, d.End, g.join(d.Pos, g.newlines(d.Pos, d.End), append(opening, closing...)...))
		return
	}
	if c.Hoist >= 0 {
		hoist := g.f.LineStart(g.f.Line(int(g.toks[c.Hoist].Pos)))
		g.lineInsert(hoist, g.join(hoist, 0, all[0].pre), openKey(depth))
		g.edits.replace(d.Pos, d.End, g.join(d.Pos, g.newlines(d.Pos, d.End), all[0].pragma))
		reopen := g.lineAfter(c.Reopen)
		if s := g.join(reopen, 0, inner...); !s.empty() {
			g.lineInsert(reopen, s, openKey(depth))
		}
	} else {
		g.edits.replace(d.Pos, d.End, g.join(d.Pos, g.newlines(d.Pos, d.End), opening...))
	}
	if e := c.Enclosed; e != nil {
		g.edits.replace(e.Pos, e.End, g.join(e.Pos, g.newlines(e.Pos, e.End), closing...))
	} else if c.Close >= 0 {
		at := g.lineAfter(c.Close)
		if s := g.join(at, 0, closing...); !s.empty() {
			g.lineInsert(at, s, closeKey(depth))
		}
	} else if !allEmpty(closing) {
		at := int(g.toks[c.Last].End)
		g.edits.insert(at, g.joinLead(at, closing...), closeKey(depth))
	}
}

func allEmpty(segs []seg) bool {
	for _, s := range segs {
		if !s.empty() {
			return false
		}
	}
	return true
}

// sections wraps every section of a sections construct in begin and end
// events. The end of a section is emitted just before the next section
// directive or the closing brace, so sections in #if branches stay
// balanced in every configuration. A section's begin names it by its
// number in source order, which stays unique in every configuration.
func (g *gen) sections(c *parser.Construct, reg int) {
	if len(c.Sections) == 0 && !c.ImplicitFirst || reg < 0 {
		return
	}
	g.buf = g.buf[:0]
	number := 0
	open := func() seg {
		return g.part(func() {
			g.w("{")
			if c.Cancellable {
				g.cleanupVar("POMP_Body_end_cleanup", reg)
			}
			g.call("POMP_Section_begin", reg, strconv.Itoa(number))
			number++
		})
	}
	end := g.part(func() {
		if !c.Cancellable {
			g.call("POMP_Section_end", reg)
		}
		g.w("}")
	})
	section := g.part(func() { g.pragma("section", "", false, nil) })
	depth := c.Depth
	opened := false
	if c.ImplicitFirst {
		at := int(g.toks[c.First].End)
		g.edits.insert(at, g.joinLead(at, open()), innerOpenKey(depth))
		opened = true
	}
	for _, k := range c.Sections {
		d := g.pr.Directives[g.dirIndex(k)]
		var text seg
		if opened {
			text = g.join(d.Pos, g.newlines(d.Pos, d.End), end, section, open())
		} else {
			text = g.join(d.Pos, g.newlines(d.Pos, d.End), section, open())
		}
		g.edits.replace(d.Pos, d.End, text)
		g.attrEdited(d)
		opened = true
	}
	if opened {
		at := int(g.toks[c.Last].Pos)
		s := g.join(at, 0, end)
		g.edits.arena = append(g.edits.arena, ' ')
		g.edits.insert(at, seg{s.a, s.b + 1}, innerCloseKey(depth))
	}
}

// dirIndex finds the directive whose token is k.
func (g *gen) dirIndex(k int) int {
	ds := g.pr.Directives
	i := sort.Search(len(ds), func(i int) bool { g.work++; return ds[i].Tok >= k })
	if i == len(ds) || ds[i].Tok != k {
		panic("rewrite: no directive at token")
	}
	return i
}

// join copies segments of gen.buf into the edit arena, separated by
// blanks, followed by nl line breaks. at is the source offset where the
// text goes: #pragma lines resynchronize to its line.
func (g *gen) join(at, nl int, segs ...seg) seg {
	a := len(g.edits.arena)
	for _, s := range segs {
		if s.empty() {
			continue
		}
		text := g.buf[s.a:s.b]
		if len(g.edits.arena) > a && text[0] != '\n' {
			g.edits.arena = append(g.edits.arena, ' ')
		}
		for {
			k := bytes.IndexByte(text, resyncLine)
			if k < 0 {
				break
			}
			g.edits.arena = append(g.edits.arena, text[:k]...)
			g.edits.arena = g.marker(g.edits.arena, at)
			text = text[k+1:]
		}
		g.edits.arena = append(g.edits.arena, text...)
	}
	for i := 0; i < nl; i++ {
		g.edits.arena = append(g.edits.arena, g.nl...)
	}
	return seg{a, len(g.edits.arena)}
}

// joinLead is join with a leading blank, for code placed after a token.
func (g *gen) joinLead(at int, segs ...seg) seg {
	a := len(g.edits.arena)
	g.edits.arena = append(g.edits.arena, ' ')
	s := g.join(at, 0, segs...)
	return seg{a, s.b}
}

// lineInsert inserts text as a line of its own at off, the start of a
// line, followed by a #line directive that restores the numbering.
func (g *gen) lineInsert(off int, text seg, key int) {
	l := &g.edits
	a := len(l.arena)
	if off >= len(g.src) && len(g.src) > 0 && g.src[len(g.src)-1] != '\n' {
		l.arena = append(l.arena, g.nl...)
	}
	l.arena = append(l.arena, l.arena[text.a:text.b]...)
	l.arena = append(l.arena, g.nl...)
	if off < len(g.src) {
		l.arena = g.lineDirective(l.arena, g.f.Position(off).Line, g.fileAt(off))
	}
	l.insert(off, seg{a, len(l.arena)}, key)
}

// marker ends a generated #pragma line with a newline and a line
// directive that gives the next line the number of the line holding
// source offset at.
func (g *gen) marker(b []byte, at int) []byte {
	b = append(b, g.nl...)
	return g.lineDirective(b, g.line(at), g.fileAt(at))
}

// lineDirective appends a #line directive, or a GCC line marker for
// preprocessed output, and its newline.
func (g *gen) lineDirective(b []byte, line int, file string) []byte {
	if g.pragmaLines {
		b = append(b, "# "...)
	} else {
		b = append(b, "#line "...)
	}
	b = itoa(b, line)
	b = append(b, ' ')
	b = appendQuoted(b, file)
	return append(b, g.nl...)
}
