package rewrite

import (
	"regexp"
	"strconv"
	"strings"
	"sync"

	"gopari/parser"
)

// Loop chunks (Options.Chunks, gopari instrument --chunks): the code that
// lets the runtime record every chunk of a for loop in canonical form
// (pomp.h, "Loop chunks"). A loop whose schedule gives each thread at
// most one chunk (schedule(static) without a chunk size, or no schedule
// clause) only counts its iterations, in locals the compiler can keep in
// vector registers:
//
//	{ POMP_For_enter(r); POMP_Chunk pomp_ck; POMP_Chunk_count pomp_cc = {0, 0, 0};
//	  T pomp_lb0 = (LB); long long pomp_s0 = STEP; POMP_Chunk_init_count(&pomp_ck, r, pomp_s0, LBV, VSTEP);
//	  _Pragma("omp for ... nowait") for (...) { POMP_Chunk_count_iteration(&pomp_cc, X); BODY }
//	  POMP_Chunk_close_count(&pomp_ck, pomp_cc.n, pomp_cc.last, pomp_cc.sum); POMP_For_exit(r); ... }
//
// Any other loop calls POMP_Chunk_iteration(&pomp_ck, X, V) at the top of
// its body and POMP_Chunk_close(&pomp_ck) after it. X is the iteration's
// offset from the lower bound in the loop's direction (with collapse, its
// logical number in the collapsed nest), V the loop variable's value.
// The hooks only read the loop variable.

// A chunkPlan is the chunk code of one for leaf.
type chunkPlan struct {
	counting bool
	strip    bool   // strip-mined (chunks_strip.go): edits rewrites the loop header
	size     string // the chunk size: an expression, "0" (unknown) or "-1" (schedule(runtime))
	pre      []string
	init     string
	hook     string
	close    string
	edits    func()
}

// scheduleRE reads a schedule clause: modifiers, kind, chunk size.
var scheduleRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*(?:(?:monotonic|nonmonotonic|simd)\s*(?:,\s*(?:monotonic|nonmonotonic|simd)\s*)?:)?\s*(static|dynamic|guided|auto|runtime)\s*(?:,(.*))?$`)
})

// chunks returns the chunk code of leaf b, or nil when its chunks are not
// recorded: --chunks is off, the leaf is no plain for loop, or its loop
// is not in a form gopari can number (a note says why).
func (b *leafBuilder) chunks() *chunkPlan {
	g, c, s := b.g, b.c, &b.s
	if !g.opts.Chunks || s.class != parser.ClassFor || s.name != "for" {
		return nil
	}
	why := c.LoopNote
	var sched []string
	at := -1
	for i, cl := range b.clauses {
		switch {
		case cl.Name == "ordered" && cl.HasArgs:
			why = "it is a doacross loop (ordered(n))"
		case cl.Name == "reduction" && strings.HasPrefix(strings.TrimSpace(cl.Args), "inscan"):
			why = "it has an inscan reduction"
		case cl.Name == "schedule":
			sched, at = scheduleRE().FindStringSubmatch(cl.Args), i
			if sched == nil {
				why = "its schedule clause is not one gopari reads"
			}
		}
	}
	if why == "" && (c.Loop == nil || c.Body < 0) {
		why = "gopari cannot find the body of its loop nest"
	}
	if why != "" {
		g.notef(c.Dir.NameOff, "no chunk grains for this loop: %s", why)
		return nil
	}
	p := &chunkPlan{size: "0"}
	if b.strip(p, sched, at) {
		return p
	}
	switch {
	case sched == nil || sched[1] == "static" && strings.TrimSpace(sched[2]) == "":
		p.counting = true
	case sched[1] == "runtime":
		p.size = "-1"
	case sched[1] == "static" || sched[1] == "dynamic":
		p.size = "(long long)(" + strings.TrimSpace(sched[2]) + ")"
		if strings.TrimSpace(sched[2]) == "" {
			p.size = "1" // dynamic: chunks of one iteration
		}
	}
	if !b.loopCode(p) {
		g.notef(c.Dir.NameOff, "no chunk grains for this loop: its header spans lines inside a token")
		return nil
	}
	return p
}

// loopCode fills in the declarations, the init call and the hooks of p
// from the canonical form of the leaf's loop nest. It reports false when
// an expression of a header cannot be copied onto one line.
func (b *leafBuilder) loopCode(p *chunkPlan) bool {
	it, ok := b.g.iteration(b.c.Loop.Levels)
	r := "pomp_r(" + strconv.Itoa(b.r) + ")"
	if p.counting {
		p.pre = append([]string{"POMP_Chunk pomp_ck; POMP_Chunk_count pomp_cc = {0, 0, 0};"}, it.pre...)
		p.init = "POMP_Chunk_init_count(&pomp_ck, " + r + ", " + it.step + ", " + it.lbv + ", " + it.vstep + ");"
		p.hook = "POMP_Chunk_count_iteration(&pomp_cc, " + it.x + ");"
		p.close = "POMP_Chunk_close_count(&pomp_ck, pomp_cc.n, pomp_cc.last, pomp_cc.sum);"
	} else {
		p.pre = append([]string{"POMP_Chunk pomp_ck;"}, it.pre...)
		p.init = "POMP_Chunk_init(&pomp_ck, " + r + ", " + it.step + ", " + p.size + ", " + it.lbv + ", " + it.vstep + ");"
		p.hook = "POMP_Chunk_iteration(&pomp_ck, " + it.x + ", " + it.value + ");"
		p.close = "POMP_Chunk_close(&pomp_ck);"
	}
	return ok
}

// An iteration is the code that numbers the iterations of a loop nest in
// canonical form: declarations to place before its directive (pomp_lbN
// and pomp_sN, each level's lower bound and step, and pomp_nN, an inner
// level's trip count), and, in its body, the current iteration's offset
// x from the lower bound in the loop's direction with its step per
// iteration (x / step is the logical iteration; with collapse, x is the
// logical iteration of the collapsed nest and step is 1). value, lbv and
// vstep are the loop variable's value, its first value and its change per
// iteration, for a loop of one level (else unknown).
type iteration struct {
	pre               []string
	x, step           string
	value, lbv, vstep string
}

// iteration returns the iteration code of the loop nest lv. It reports
// false when an expression of a header cannot be copied onto one line.
func (g *gen) iteration(lv []parser.LoopLevel) (iteration, bool) {
	ok := true
	text := func(s parser.Span) string {
		t, good := g.pr.LoopText(s)
		ok = ok && good
		return t
	}
	var it iteration
	var offsets []string
	step0 := "pomp_s0"
	for i, l := range lv {
		n := strconv.Itoa(i)
		v, lb, st := text(parser.Span{From: l.Var, To: l.Var + 1}), "pomp_lb"+n, "pomp_s"+n
		decl, integer := text(l.Decl), false
		if decl == "" {
			decl = "__typeof__(" + v + ")"
		} else {
			integer = integerType(decl)
		}
		down := l.Rel == ">" || l.Rel == ">=" || l.Rel == "!=" && l.Down
		it.pre = append(it.pre, decl+" "+lb+" = ("+text(l.LB)+");")
		if l.Step.Empty() {
			st = "1"
		} else {
			step := "(" + text(l.Step) + ")"
			if down != l.Down {
				step = "-" + step
			}
			it.pre = append(it.pre, "long long "+st+" = "+step+";")
		}
		off := difference(v, lb, integer)
		if down {
			off = difference(lb, v, integer)
		}
		if i > 0 {
			ub := "(" + text(l.UB) + ")"
			empty, rng := "!("+lb+" "+l.Rel+" "+ub+")", difference(ub, lb, integer)
			if down {
				rng = difference(lb, ub, integer)
			}
			incl := "0"
			if l.Rel == "<=" || l.Rel == ">=" {
				incl = "1"
			}
			it.pre = append(it.pre, "long long pomp_n"+n+" = POMP_Chunk_trip("+empty+", "+rng+", "+st+", "+incl+");")
		}
		if len(lv) == 1 {
			offsets = append(offsets, off)
			it.value, it.lbv, it.vstep = g.valueOf(v, integer), g.valueOf(lb, integer), st
			if down {
				it.vstep = "-" + st
			}
			if l.Step.Empty() {
				step0 = "1"
			}
			break
		}
		if !l.Step.Empty() {
			off = "(" + off + " / " + st + ")"
		}
		offsets = append(offsets, off)
	}
	it.x, it.step = offsets[0], step0
	if len(lv) > 1 {
		// The logical number in the collapsed nest: (q0 * n1 + q1) * n2 + q2 ...
		for i := 1; i < len(offsets); i++ {
			it.x = "(" + it.x + " * pomp_n" + strconv.Itoa(i) + " + " + offsets[i] + ")"
		}
		it.step, it.value, it.lbv, it.vstep = "1", iterationUnknown, iterationUnknown, "0"
	}
	return it, ok
}

// valueOf returns the value of loop variable e as a long long when its
// type is an integer (known to be, or found out by the compiler), else
// POMP_ITERATION_UNKNOWN.
func (g *gen) valueOf(e string, integer bool) string {
	switch {
	case integer:
		return "(long long)(" + e + ")"
	case g.pr.Config.CPlusPlus:
		return "POMP_Chunk_value(" + e + ")"
	}
	return "(__builtin_classify_type(" + e + ") == 1 ? (long long)(" + e + ") : " + iterationUnknown + ")"
}

// difference returns a - b as a long long: through unsigned arithmetic
// for integer types, so that no intermediate overflows, else as the
// types' own difference (pointers, iterators).
func difference(a, b string, integer bool) string {
	if integer {
		return "(long long)((unsigned long long)(" + a + ") - (unsigned long long)(" + b + "))"
	}
	return "(long long)((" + a + ") - (" + b + "))"
}

// integerType reports whether a declaration's type words name an integer
// type.
func integerType(decl string) bool {
	for _, w := range strings.Fields(decl) {
		if !integerWords[w] {
			return false
		}
	}
	return decl != ""
}

// chunksPre writes the chunk declarations and the init call into the
// leaf's pre part, after its enter call; chunksPost the close call into
// its post part, before its exit call. Both do nothing without a plan.
func (b *leafBuilder) chunksPre() {
	if p := b.chunk; p != nil {
		b.g.w(p.pre...)
		b.g.w(p.init)
	}
	b.iterPre()
}

func (b *leafBuilder) chunksPost() {
	if p := b.chunk; p != nil && p.close != "" {
		b.g.w(p.close)
	}
}

// chunkHook puts the plan's hook at the top of the innermost loop body
// and marks the region.
func (b *leafBuilder) chunkHook() {
	if b.chunk == nil {
		return
	}
	b.reg.flags |= flagChunks
	if b.chunk.strip {
		b.chunk.edits()
		return
	}
	b.g.bodyHook(b.c, b.chunk.hook)
}

// bodyHook inserts call at the top of the innermost loop body of c,
// bracing the body if it is a single statement.
func (g *gen) bodyHook(c *parser.Construct, call string) {
	body, last := g.toks[c.Body], g.toks[c.BodyLast]
	if body.Kind == parser.Punct && body.Sub == '{' {
		at := int(body.End)
		g.edits.insert(at, g.edits.add([]byte(" "+call)), innerOpenKey(c.Depth))
		return
	}
	at := int(body.Pos)
	g.edits.insert(at, g.edits.add([]byte("{ "+call+" ")), innerOpenKey(c.Depth))
	g.edits.insert(int(last.End), g.edits.add([]byte(" }")), innerCloseKey(c.Depth))
}
