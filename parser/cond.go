package parser

// Conditional groups. The scanner skips every branch that can never be
// compiled (#if 0, and what follows a branch that is surely taken) as one
// Skipped token; the parser links each #if … #endif group so that the
// walker (block.go) follows one configuration of the file.

// A group is one #if … #endif conditional.
type group struct {
	branches []int // token indices of the #if and of every #elif and #else
	end      int   // token index of the #endif
	take     int   // index in branches of the first branch that can be compiled, -1 if none
}

// groups links every conditional directive token to its group.
func (p *parser) buildGroups() {
	p.groups = make(map[int]*group)
	var stack []*group
	for _, i32 := range p.pp {
		i := int(i32)
		t := p.toks[i]
		switch t.PP() {
		case PPIf, PPIfdef, PPIfndef:
			g := &group{branches: []int{i}, end: -1}
			stack = append(stack, g)
			p.groups[i] = g
		case PPElif, PPElse:
			if len(stack) == 0 {
				p.errorf(int(t.Pos), "#%s without #if", p.ppName(i))
				continue
			}
			g := stack[len(stack)-1]
			g.branches = append(g.branches, i)
			p.groups[i] = g
		case PPEndif:
			if len(stack) == 0 {
				p.errorf(int(t.Pos), "#endif without #if")
				continue
			}
			g := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			g.end = i
			p.groups[i] = g
		}
	}
	for _, g := range stack {
		p.errorf(int(p.toks[g.branches[0]].Pos), "unterminated conditional directive: no #endif before end of file")
	}
	for _, g := range p.groups {
		g.take = -1
		live := 0
		for k, b := range g.branches {
			if p.toks[b].Sub&DeadBranch == 0 {
				if g.take < 0 {
					g.take = k
				}
				live++
			}
		}
		p.ambiguous = p.ambiguous || live > 1
	}
}

func (p *parser) ppName(i int) string {
	switch p.toks[i].PP() {
	case PPElif:
		return "elif"
	case PPElse:
		return "else"
	}
	return "if"
}

// constCond classifies an #if condition: 0 for a literal false, 1 for a
// literal true, -1 for anything the preprocessor must decide.
func constCond(cond string) int {
	switch cond {
	case "0", "(0)", "false":
		return 0
	case "1", "(1)", "true":
		return 1
	}
	return -1
}

// skipBranch skips a branch that can never be compiled, starting after the
// directive that opened it, up to the #elif, #else or #endif that ends it.
// Literals are scanned leniently and only comments and directives count.
func (s *scanner) skipBranch(i int) int {
	s.toks[len(s.toks)-1].Sub |= DeadBranch
	src := s.src
	start := i
	depth := 0
	bol := false
	for i < len(src) {
		c := src[i]
		switch {
		case c == '\n':
			bol = true
			i++
			continue
		case class[c]&cSpace != 0:
			i++
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			i = s.blockComment(i)
			if s.fatal {
				return len(src)
			}
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			i = s.lineComment(i)
			continue
		case c == '#' && bol:
			end, ns, ne := s.directiveEnd(i + 1)
			if s.fatal {
				return len(src)
			}
			switch ppKind(s.name(ns, ne)) {
			case PPIf, PPIfdef, PPIfndef:
				depth++
			case PPEndif:
				if depth == 0 {
					return s.endSkip(start, i)
				}
				depth--
			case PPElif, PPElse:
				if depth == 0 {
					return s.endSkip(start, i)
				}
			}
			i = end
			continue
		case c == '"' || c == '\'' && !s.nums.digitSep(src, i):
			j := i + 1
			for j < len(src) && src[j] != c && src[j] != '\n' {
				if src[j] == '\\' && j+1 < len(src) {
					j++
				}
				j++
			}
			if j < len(src) && src[j] == c {
				j++
			}
			i = j
			bol = false
			continue
		}
		bol = false
		i++
	}
	s.errorf(int(s.toks[len(s.toks)-1].Pos), "unterminated conditional directive: no #endif before end of file")
	s.fatal = true
	return len(src)
}

func (s *scanner) endSkip(start, hash int) int {
	if hash > start {
		s.emit(Skipped, 0, start, hash)
	}
	return hash
}
