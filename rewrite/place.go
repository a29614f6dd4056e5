package rewrite

import (
	"sort"
	"strconv"

	"gopari/internal/constructs"
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
		g.edits.replace(d.Pos, d.End, g.join(d.Pos, d.End, append(opening, closing...)...))
		return
	}
	if c.Hoist >= 0 {
		hoist := g.f.LineStart(g.f.Line(int(g.toks[c.Hoist].Pos)))
		g.lineInsert(hoist, g.join(hoist, hoist, all[0].pre), openKey(depth))
		g.edits.replace(d.Pos, d.End, g.join(d.Pos, d.End, all[0].pragma))
		reopen := g.lineAfter(c.Reopen)
		if s := g.join(reopen, reopen, inner...); !s.empty() {
			g.lineInsert(reopen, s, openKey(depth))
		}
	} else {
		g.edits.replace(d.Pos, d.End, g.join(d.Pos, d.End, opening...))
	}
	if e := c.Enclosed; e != nil {
		g.edits.replace(e.Pos, e.End, g.join(e.Pos, e.End, closing...))
	} else if c.Close >= 0 {
		at := g.lineAfter(c.Close)
		if s := g.join(at, at, closing...); !s.empty() {
			g.lineInsert(at, s, closeKey(depth))
		}
	} else if !allEmpty(closing) {
		at := int(c.LastToken.End)
		if g.pragmaLines && g.unbracedBody(c) {
			// Code after the unbraced body of a for, while or if on the
			// body's line looks to clang like a statement indented as
			// if it were part of the body (-Wmisleading-indentation): it
			// starts a line of its own.
			a := len(g.edits.arena)
			g.edits.arena = append(g.edits.arena, g.nl...)
			g.edits.arena = g.lineDirective(g.edits.arena, g.line(at), g.fileAt(at))
			s := g.join(at, at, closing...)
			g.edits.insert(at, seg{a, s.b}, closeKey(depth))
			return
		}
		g.edits.insert(at, g.joinLead(at, closing...), closeKey(depth))
	}
}

// unbracedBody reports whether the block of c is a for, while or if
// statement whose last body is not a compound statement.
func (g *gen) unbracedBody(c *parser.Construct) bool {
	first, last := g.toks[c.First], c.LastToken
	if first.Kind != parser.Ident || last.Kind == parser.Punct && last.Sub == '}' {
		return false
	}
	switch string(g.src[first.Pos:first.End]) {
	case "for", "while", "if":
		return true
	}
	return false
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
	g.resetBuf()
	number := 0
	open := func() seg {
		return g.part(func() {
			g.w("{")
			if c.Cancellable {
				g.cleanupVar(constructs.BodyCleanup, reg)
			}
			g.call(constructs.SectionBody.Enter.Name, reg, strconv.Itoa(number))
			number++
		})
	}
	end := g.part(func() {
		if !c.Cancellable {
			g.call(constructs.SectionBody.Exit.Name, reg)
		}
		g.w("}")
	})
	depth := c.Depth
	opened := false
	if c.ImplicitFirst {
		at := int(g.toks[c.First].End)
		g.edits.insert(at, g.joinLead(at, open()), innerOpenKey(depth))
		opened = true
	}
	for _, k := range c.Sections {
		d := g.pr.Directives[g.dirIndex(k)]
		section := g.part(func() { g.userPragma(d, &spec{name: "section"}, nil) })
		var text seg
		if opened {
			text = g.join(d.Pos, d.End, end, section, open())
		} else {
			text = g.join(d.Pos, d.End, section, open())
		}
		g.edits.replace(d.Pos, d.End, text)
		g.attrEdited(d)
		opened = true
	}
	if opened {
		at := int(c.LastToken.Pos)
		s := g.join(at, at, end)
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
// blanks, for the source span [at, end) that they replace (or the point
// at, when end == at). A directive the user wrote goes on a line of its
// own when code precedes it; #pragma lines resynchronize to the line of
// end; when neither a directive the user wrote reproduced the span's
// line breaks nor a line directive numbers what follows, the text ends
// with as many.
func (g *gen) join(at, end int, segs ...seg) seg {
	a := len(g.edits.arena)
	last := -1
	for i, s := range segs {
		if !s.empty() {
			last = i
		}
	}
	user := false
	for i, s := range segs {
		if s.empty() {
			continue
		}
		text, base := g.buf[s.a:s.b], s.a // base: where text starts in buf
		mi := g.firstMark(s.a)            // the markers of the segment are marks[mi:], up to s.b
		if n := len(g.edits.arena); n > a && text[0] != '\n' && !(text[0] == pragmaStart && mi < len(g.marks) && g.marks[mi] == s.a) && g.edits.arena[n-1] != '\n' {
			g.edits.arena = append(g.edits.arena, ' ')
		}
		for mi < len(g.marks) && g.marks[mi] < s.b {
			k := g.marks[mi] - base
			mi++
			g.edits.arena = append(g.edits.arena, text[:k]...)
			switch text[k] {
			case pragmaStart:
				user = true
				e := k + 1 + offsetBytes // at pragmaOffEnd
				pos := readOffset(text[k+1 : e])
				if len(g.edits.arena) > a || pos != at {
					if len(g.edits.arena) > a || at > 0 && g.src[at-1] != '\n' {
						g.edits.arena = append(g.edits.arena, g.nl...)
					}
					g.edits.arena = g.lineDirective(g.edits.arena, g.line(pos), g.fileAt(pos))
					g.edits.arena = g.pad(g.edits.arena, pos)
				}
				text, base = text[e:], base+e
				k = 0
			case regionRef:
				g.site(len(g.edits.arena))
				text, base = text[k+1:], base+k+1
				continue
			case resyncOptional:
				if i == last && k == len(text)-1 {
					break
				}
				fallthrough
			default:
				user = true // the line directive numbers what follows
				if i == last && k == len(text)-1 && end < len(g.src) && (g.src[end] == '\n' || g.src[end] == '\r') {
					// The user's line break ends the directive that
					// numbers the next line.
					g.edits.arena = append(g.edits.arena, g.nl...)
					g.edits.arena = g.lineDirective(g.edits.arena, g.line(end)+1, g.fileAt(end))
					g.edits.arena = g.edits.arena[:len(g.edits.arena)-len(g.nl)]
					break
				}
				g.edits.arena = g.marker(g.edits.arena, end)
			}
			text, base = text[k+1:], base+k+1
		}
		g.edits.arena = append(g.edits.arena, text...)
	}
	if !user {
		for i := g.newlines(at, end); i > 0; i-- {
			g.edits.arena = append(g.edits.arena, g.nl...)
		}
	}
	return seg{a, len(g.edits.arena)}
}

// joinLead is join with a leading blank, for code placed after a token.
func (g *gen) joinLead(at int, segs ...seg) seg {
	a := len(g.edits.arena)
	g.edits.arena = append(g.edits.arena, ' ')
	s := g.join(at, at, segs...)
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
	g.copySites(text.a, text.b, len(l.arena))
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
	if g.preprocessed {
		b = append(b, "# "...)
	} else {
		b = append(b, "#line "...)
	}
	b = itoa(b, line)
	b = append(b, ' ')
	if file != g.quotedFile || g.quoted == nil {
		g.quotedFile, g.quoted = file, appendQuoted(g.quoted[:0], file)
	}
	b = append(b, g.quoted...)
	return append(b, g.nl...)
}
