package rewrite

import (
	"gopari/internal/constructs"
	"gopari/parser"
)

// The kinds of the regions this file writes.
var userKind, lockKind = constructs.Get(constructs.User), constructs.Get(constructs.Lock)

// userRegion instruments #pragma pomp inst begin/end/altend.
func (g *gen) userRegion(u *parser.UserRegion) {
	if g.disabled("user") || u.NoCall {
		return
	}
	last := u.Begin
	if n := len(u.Ends); n > 0 {
		last = u.Ends[n-1]
	}
	i := g.addRegion(region{kind: userKind.Const, file: g.fileAt(u.Begin.Pos), begin: g.line(u.Begin.Pos), end: g.line(last.Pos), name: "user region", sub: u.Name})
	g.resetBuf()
	begin := g.part(func() { g.call(userKind.Enter.Name, i) })
	end := g.part(func() { g.call(userKind.Exit.Name, i) })
	g.edits.replace(u.Begin.Pos, u.Begin.End, g.join(u.Begin.Pos, u.Begin.End, begin))
	for _, e := range u.Ends {
		g.edits.replace(e.Pos, e.End, g.join(e.Pos, e.End, end))
	}
}

// userControl instruments #pragma pomp inst init, on and off.
func (g *gen) userControl(d *parser.Directive) {
	if g.disabled("user") {
		return
	}
	fn := controlCalls[d.Name]
	g.resetBuf()
	text := g.part(func() { g.w(fn) })
	g.edits.replace(d.Pos, d.End, g.join(d.Pos, d.End, text))
}

// controlCalls are the calls of the POMP control directives.
var controlCalls = map[string]string{"inst init": "POMP_Init();", "inst on": "POMP_On();", "inst off": "POMP_Off();"}

// lockWrappers name the wrapper of each OpenMP lock routine (pomp.h).
var lockWrappers = lockKind.Wrappers()

// lock turns a call of an OpenMP lock routine into a call of its wrapper,
// with the call site as first argument.
func (g *gen) lock(l parser.LockCall) {
	if g.disabled("locks") || !l.Call {
		return
	}
	if l.Paren+1 < len(g.toks) && g.toks[l.Paren+1].Kind == parser.Punct && g.toks[l.Paren+1].Sub == ')' {
		return // no arguments: leave the compiler's message to the user
	}
	i := g.addRegion(region{kind: lockKind.Const, file: g.fileAt(l.Offset), begin: g.line(l.Offset), end: g.line(l.Offset), name: "lock", sub: l.Name})
	t := g.toks[l.Tok]
	// A name split by backslash-newlines keeps its line breaks after the
	// wrapper's name, so that the lines keep their numbers.
	name := g.edits.add([]byte(lockWrappers[l.Name]))
	for k := g.newlines(int(t.Pos), int(t.End)); k > 0; k-- {
		g.edits.arena = append(g.edits.arena, g.nl...)
		name.b = len(g.edits.arena)
	}
	g.edits.replace(int(t.Pos), int(t.End), name)
	// The wrapper's call is longer than the user's: what follows on its
	// line moves right. Lock calls are many, and a line of its own for
	// the rest of each one's line would make code hard to read
	// (keepColumns).
	g.noTail = append(g.noTail, int(t.End), int(g.toks[l.Paren].End))
	a := len(g.edits.arena)
	g.edits.arena = append(g.edits.arena, "pomp_r("...)
	g.site(len(g.edits.arena))
	g.edits.arena = itoa(g.edits.arena, i+g.numBase)
	g.edits.arena = append(g.edits.arena, "), "...)
	g.edits.insert(int(g.toks[l.Paren].End), seg{a, len(g.edits.arena)}, openKey(0))
}
