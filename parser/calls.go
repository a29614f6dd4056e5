package parser

// Where gopari inserts calls of its own besides constructs: user regions
// (#pragma pomp inst) and the OpenMP lock routines; and where it must not.

import "gopari/internal/constructs"

// userRegions matches "#pragma pomp inst begin/end/altend" directives.
func (p *parser) userRegions() []*UserRegion {
	var out, stack []*UserRegion
	for _, d := range p.list {
		if !d.Pomp {
			continue
		}
		switch d.class {
		case ClassUserBegin:
			if !d.HasArg || d.Arg == "" {
				p.errorf(d.NameOff, "'#pragma pomp inst begin' needs a region name: begin(name)")
				continue
			}
			r := &UserRegion{Name: d.Arg, Begin: d}
			stack = append(stack, r)
			out = append(out, r)
		case ClassUserEnd:
			if !d.HasArg || d.Arg == "" {
				p.errorf(d.NameOff, "'#pragma pomp inst %s' needs a region name: %s(name)", d.Name[len("inst "):], d.Name[len("inst "):])
				continue
			}
			if len(stack) == 0 {
				p.errorf(d.NameOff, "'#pragma pomp inst %s(%s)' has no matching 'begin(%s)'", d.Name[len("inst "):], d.Arg, d.Arg)
				continue
			}
			r := stack[len(stack)-1]
			if r.Name != d.Arg {
				p.errorf(d.NameOff, "'#pragma pomp inst %s(%s)' does not match 'begin(%s)' at %s", d.Name[len("inst "):], d.Arg, r.Name, p.posString(r.Begin.Tok))
				continue
			}
			r.Ends = append(r.Ends, d)
			if d.Name == "inst end" {
				stack = stack[:len(stack)-1]
			}
		}
	}
	for _, r := range stack {
		p.errorf(r.Begin.NameOff, "'#pragma pomp inst begin(%s)' has no matching 'end(%s)'", r.Name, r.Name)
	}
	for _, r := range out {
		r.NoCall = p.insideNoCalls(p.noCalls, r.Begin.Tok)
	}
	return out
}

// noCallSpans returns the token spans of the blocks where no calls may be
// inserted: inside simd, loop, order(concurrent), atomic, target, teams
// or distribute constructs and whatever they enclose.
func noCallSpans(cs []*Construct) spans {
	rs := make([][2]int, 0, len(cs))
	for _, c := range cs {
		if c.Last >= 0 && (c.NoCalls || c.forbidsCalls()) {
			rs = append(rs, [2]int{c.Dir.Tok, c.Last + 1})
		}
	}
	return newSpans(rs)
}

// insideNoCalls reports whether token j lies in a block where no calls may
// be inserted (spans, from noCallSpans), or in a declare target block.
func (p *parser) insideNoCalls(spans spans, j int) bool {
	p.work++
	return p.device.contains(int(p.toks[j].Pos), &p.work) || spans.contains(j, &p.work)
}

// lockNames are the OpenMP lock routines gopari wraps: the Routines of
// the lock kind in internal/constructs's list, each mapped to itself, so
// that a call found takes the list's string instead of allocating one.
var lockNames = func() map[string]string {
	m := map[string]string{}
	for _, r := range constructs.Get(constructs.Lock).Routines {
		m[r] = r
	}
	return m
}()

// notCallPrefix lists words that may precede a call of a lock routine.
var callPrefix = map[string]bool{
	"return": true, "else": true, "do": true, "case": true, "goto": true, "throw": true,
	"co_return": true, "co_await": true, "co_yield": true, "sizeof": true,
}

// lockCalls finds the uses of the lock API: identifiers spelt exactly like
// a lock routine, not declared here and not a member name.
func (p *parser) lockCalls() []LockCall {
	out := make([]LockCall, 0, len(p.ids))
	noCalls := p.noCalls
	for _, i32 := range p.ids {
		i := int(i32)
		t := p.toks[i]
		if t.Kind != Ident {
			continue
		}
		name, ok := lockNames[string(p.tokBytes(i))]
		if !ok {
			continue
		}
		if p.cfg.Preprocessed && p.f.InSystemHeader(int(t.Pos)) {
			continue
		}
		if i > 0 {
			prev := p.toks[i-1]
			if prev.Kind == Ident && !callPrefix[string(p.tokBytes(i-1))] {
				continue // a declaration: void omp_set_lock(...)
			}
			if prev.Kind == Punct {
				pb := p.src[prev.Pos:prev.End]
				if string(pb) == "." || string(pb) == "->" {
					continue // a member
				}
			}
		}
		if p.insideNoCalls(noCalls, i) {
			continue
		}
		lc := LockCall{Tok: i, Name: name, Offset: int(t.Pos)}
		if p.isPunct(i+1, '(') {
			lc.Call, lc.Paren = true, i+1
		}
		out = append(out, lc)
	}
	return out
}
