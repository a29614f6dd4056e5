package parser

import "strconv"

// loopBody finds, for a taskloop construct (or a combined construct that
// ends in taskloop), the body of the innermost loop of its loop nest: the
// statement that every iteration runs, where the instrumentation marks
// the first iteration of each task the taskloop generates. collapse(n)
// descends through n perfectly nested for statements; a compound
// statement holding nothing but the next for statement counts as
// perfectly nested. It leaves Body at -1 when the nest has another shape,
// when the collapse count is not an integer literal, or when
// preprocessor conditionals lie between the loop headers and the body.
func (p *parser) loopBody(c *Construct) {
	c.Body, c.BodyLast = -1, -1
	if c.First < 0 || lastLeaf(c.Dir) != "taskloop" {
		return
	}
	n := 1
	for _, cl := range c.Dir.Clauses {
		if cl.Name == "collapse" {
			v, err := strconv.Atoi(cl.Args)
			if err != nil || v < 1 || v > 64 {
				return
			}
			n = v
		}
	}
	ndiags := len(*p.diags)
	defer func() { *p.diags = (*p.diags)[:ndiags] }() // this walk repeats block's: no new messages
	w := &p.w
	w.reset()
	w.remember = false // its messages are thrown away: so must its failures be
	j := c.First
	for level := 0; ; level++ {
		if !p.isIdent(j, "for") {
			return
		}
		k := w.skip(j + 1)
		if !p.isPunct(k, '(') {
			return
		}
		e := w.match(k)
		if e < 0 {
			return
		}
		b := w.stmtStart(e + 1)
		if level == n-1 {
			last := w.stmt(b, need{kw: "for"})
			if last < 0 || w.stack != nil || w.left != nil || w.include >= 0 {
				return
			}
			c.Body, c.BodyLast = b, last
			return
		}
		if p.isPunct(b, '{') {
			inner := w.stmtStart(b + 1)
			last := w.stmt(inner, need{kw: "for"})
			if last < 0 || !p.isPunct(w.skip(last+1), '}') {
				return
			}
			b = inner
		}
		j = b
	}
}
