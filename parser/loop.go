package parser

import (
	"bytes"
	"strconv"
	"strings"
)

// loopBody finds, for a taskloop or for construct (or a combined
// construct that ends in one), the body of the innermost loop of its loop
// nest: the statement that every iteration runs, where the
// instrumentation marks the first iteration of each task a taskloop
// generates, or of each chunk of a loop (--chunks). collapse(n) descends
// through n perfectly nested for statements; a compound statement holding
// nothing but the next for statement counts as perfectly nested. It
// leaves Body at -1 when the nest has another shape, when the collapse
// count is not an integer literal, or when preprocessor conditionals lie
// between the loop headers and the body. For a for construct it also
// reads the canonical form of each loop header (Loop), or says in
// LoopNote why there is none.
func (p *parser) loopBody(c *Construct) {
	c.Body, c.BodyLast = -1, -1
	leaf := lastLeaf(c.Dir)
	if c.First < 0 || leaf != "taskloop" && leaf != "for" {
		return
	}
	n := 1
	for _, cl := range c.Dir.Clauses {
		if cl.Name == "collapse" {
			v, err := strconv.Atoi(cl.Args)
			if err != nil || v < 1 || v > 64 {
				c.LoopNote = "its collapse count is not an integer literal"
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
	var levels []LoopLevel
	for level := 0; ; level++ {
		if !p.isIdent(j, "for") {
			c.LoopNote = "the loop nest is not " + strconv.Itoa(n) + " perfectly nested for statements"
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
		if leaf == "for" {
			l, why := p.canonical(j, k, e)
			if why != "" && c.LoopNote == "" {
				c.LoopNote = why
			}
			levels = append(levels, l)
		}
		b := w.stmtStart(e + 1)
		if level == n-1 {
			last := w.stmt(b, need{kw: "for"})
			if last < 0 || w.stack != nil || w.left != nil || w.include >= 0 {
				c.LoopNote = "preprocessor lines lie between its loop headers and its body"
				return
			}
			c.Body, c.BodyLast = b, last
			if leaf == "for" && c.LoopNote == "" {
				c.LoopNote = p.rectangular(levels)
			}
			if leaf == "for" && c.LoopNote == "" {
				c.Loop = &Loop{Levels: levels}
			}
			return
		}
		if p.isPunct(b, '{') {
			inner := w.stmtStart(b + 1)
			last := w.stmt(inner, need{kw: "for"})
			if last < 0 || !p.isPunct(w.skip(last+1), '}') {
				c.LoopNote = "the loop nest is not " + strconv.Itoa(n) + " perfectly nested for statements"
				return
			}
			b = inner
		}
		j = b
	}
}

// A Loop is the canonical form (OpenMP 5.2 §4.4.1) of the loop nest of a
// for construct: one level per loop that collapse associates with it.
type Loop struct {
	Levels []LoopLevel
}

// A Span is a range of token indices, From to To exclusive; empty when
// From == To.
type Span struct{ From, To int }

// Empty reports whether s holds no token.
func (s Span) Empty() bool { return s.From >= s.To }

// A LoopLevel is one loop header in canonical form:
//
//	for (Decl Var = LB; Var Rel UB; Var += Step)
//
// Rel is written as if Var stood on the left of the test (ub > i is
// i < ub). Step is empty for ++ and --; Down says the increment
// subtracts (--, -=, i = i - s).
type LoopLevel struct {
	For        int  // the for keyword
	Open       int  // ( of the header
	Close      int  // ) of the header
	Var        int  // the iteration variable
	Decl       Span // its type, when the header declares it
	LB, UB     Span
	Rel        string
	Step       Span
	Down       bool
	Incr, Test Span // the whole increment and test expressions
}

// canonical reads the header of the for statement at j, whose
// parentheses are the tokens open and close. It returns why the header is
// not in canonical form, or "".
func (p *parser) canonical(j, open, close int) (LoopLevel, string) {
	l := LoopLevel{For: j, Open: open, Close: close, Var: -1}
	var parts [3]Span
	n, depth, from := 0, 0, open+1
	for k := open + 1; k < close; k++ {
		t := p.toks[k]
		switch {
		case t.Kind >= Preproc:
			return l, "preprocessor lines lie inside its loop header"
		case t.Kind != Punct:
		case t.Sub == '(' || t.Sub == '[' || t.Sub == '{':
			depth++
		case t.Sub == ')' || t.Sub == ']' || t.Sub == '}':
			depth--
		case t.Sub == ';' && depth == 0:
			if n == 2 {
				return l, "its header is not in canonical form"
			}
			parts[n] = Span{from, k}
			n++
			from = k + 1
		case t.Sub == ':' && depth == 0:
			return l, "it is a range-based for loop"
		}
	}
	if n != 2 {
		return l, "its header is not in canonical form"
	}
	parts[2] = Span{from, close}
	if why := p.loopInit(&l, parts[0]); why != "" {
		return l, why
	}
	if why := p.loopTest(&l, parts[1]); why != "" {
		return l, why
	}
	if why := p.loopIncr(&l, parts[2]); why != "" {
		return l, why
	}
	return l, ""
}

// text returns the source of token j, line splices removed.
func (p *parser) text(j int) string { return string(p.tokBytes(j)) }

// topLevel reports whether s holds no comma outside brackets.
func (p *parser) topLevel(s Span) bool {
	depth := 0
	for k := s.From; k < s.To; k++ {
		switch t := p.toks[k]; {
		case t.Kind != Punct:
		case t.Sub == '(' || t.Sub == '[' || t.Sub == '{':
			depth++
		case t.Sub == ')' || t.Sub == ']' || t.Sub == '}':
			depth--
		case t.Sub == ',' && depth == 0:
			return false
		}
	}
	return true
}

// loopInit reads "Decl Var = LB" or "Var = LB".
func (p *parser) loopInit(l *LoopLevel, s Span) string {
	eq := -1
	for k := s.From; k < s.To; k++ {
		if p.isPunct(k, '=') {
			eq = k
			break
		}
	}
	if eq < s.From+1 || eq+1 >= s.To || p.toks[eq-1].Kind != Ident || !p.topLevel(Span{eq + 1, s.To}) {
		return "its loop initialisation is not var = lb"
	}
	l.Var = eq - 1
	l.Decl = Span{s.From, eq - 1}
	l.LB = Span{eq + 1, s.To}
	for k := s.From; k < eq-1; k++ {
		if t := p.toks[k]; t.Kind == Punct && t.Sub != '*' && t.Sub != '&' && t.Sub != PColon2 && t.Sub != '<' && t.Sub != '>' && t.Sub != ',' {
			return "its loop initialisation is not var = lb"
		}
	}
	return ""
}

// relop returns the relational operator of a canonical test spelt b,
// and what it becomes with its operands swapped.
func relop(b []byte) (rel, swapped string, ok bool) {
	switch string(b) {
	case "<":
		return "<", ">", true
	case "<=":
		return "<=", ">=", true
	case ">":
		return ">", "<", true
	case ">=":
		return ">=", "<=", true
	case "!=":
		return "!=", "!=", true
	}
	return "", "", false
}

// loopTest reads "Var Rel UB" or "UB Rel Var".
func (p *parser) loopTest(l *LoopLevel, s Span) string {
	l.Test = s
	v := p.text(l.Var)
	if s.To-s.From >= 3 && p.isIdent(s.From, v) && p.toks[s.From+1].Kind == Punct {
		if rel, _, ok := relop(p.tokBytes(s.From + 1)); ok {
			l.Rel, l.UB = rel, Span{s.From + 2, s.To}
			return ""
		}
	}
	if s.To-s.From >= 3 && p.isIdent(s.To-1, v) && p.toks[s.To-2].Kind == Punct {
		if _, r, ok := relop(p.tokBytes(s.To - 2)); ok {
			l.Rel, l.UB = r, Span{s.From, s.To - 2}
			return ""
		}
	}
	return "its loop test is not " + v + " compared with a bound"
}

// loopIncr reads the increment: ++Var, Var++, --Var, Var--, Var += s,
// Var -= s, Var = Var + s, Var = s + Var, Var = Var - s.
func (p *parser) loopIncr(l *LoopLevel, s Span) string {
	l.Incr = s
	v := p.text(l.Var)
	why := func() string { // built only when needed: most loops are canonical
		return "its loop increment is not one of ++, --, +=, -= or " + v + " = " + v + " + step"
	}
	n := s.To - s.From
	op := func(k int) string {
		if k < s.To && p.toks[k].Kind == Punct {
			return p.text(k)
		}
		return ""
	}
	switch {
	case n == 2 && p.isIdent(s.From+1, v) && (op(s.From) == "++" || op(s.From) == "--"):
		l.Down = op(s.From) == "--"
	case n == 2 && p.isIdent(s.From, v) && (op(s.From+1) == "++" || op(s.From+1) == "--"):
		l.Down = op(s.From+1) == "--"
	case n >= 3 && p.isIdent(s.From, v) && (op(s.From+1) == "+=" || op(s.From+1) == "-="):
		l.Down = op(s.From+1) == "-="
		l.Step = Span{s.From + 2, s.To}
	case n >= 5 && p.isIdent(s.From, v) && op(s.From+1) == "=" && p.isIdent(s.From+2, v) && (op(s.From+3) == "+" || op(s.From+3) == "-"):
		l.Down = op(s.From+3) == "-"
		l.Step = Span{s.From + 4, s.To}
	case n >= 5 && p.isIdent(s.From, v) && op(s.From+1) == "=" && p.isIdent(s.To-1, v) && op(s.To-2) == "+":
		l.Step = Span{s.From + 2, s.To - 2}
	default:
		return why()
	}
	if !p.topLevel(l.Step) {
		return why()
	}
	if l.Rel == "!=" && !l.Step.Empty() {
		return "its loop test is != and its step is not ++ or --"
	}
	return ""
}

// rectangular says why a collapsed nest is not rectangular (an inner
// bound or step names an outer loop's variable), or returns "".
func (p *parser) rectangular(levels []LoopLevel) string {
	for i := 1; i < len(levels); i++ {
		for _, s := range []Span{levels[i].LB, levels[i].UB, levels[i].Step} {
			for k := s.From; k < s.To; k++ {
				for _, o := range levels[:i] {
					if p.isIdent(k, p.text(o.Var)) {
						return "its collapsed loop nest is not rectangular: an inner bound uses " + p.text(o.Var)
					}
				}
			}
		}
	}
	return ""
}

// LoopText returns the tokens of span s of result r on one line: line
// splices removed, comments and white space between tokens as one blank.
// ok is false when a token itself spans lines (a raw string).
func (r *Result) LoopText(s Span) (text string, ok bool) {
	var b strings.Builder
	for k := s.From; k < s.To; k++ {
		t := r.Toks[k]
		if k > s.From && r.Toks[k-1].End < t.Pos {
			b.WriteByte(' ')
		}
		tok := r.File.Src[t.Pos:t.End]
		if bytes.IndexByte(tok, '\\') >= 0 {
			tok = spliced(tok)
		}
		if bytes.IndexByte(tok, '\n') >= 0 {
			return "", false
		}
		b.Write(tok)
	}
	return b.String(), true
}
