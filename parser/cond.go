package parser

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
		for k, b := range g.branches {
			if p.toks[b].Sub&DeadBranch == 0 {
				g.take = k
				break
			}
		}
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
