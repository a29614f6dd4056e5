package rewrite

import (
	"strconv"
	"strings"

	"gopari/parser"
)

// Strip-mined chunks. A loop with schedule(static, k) or schedule(dynamic,
// k) is handed out in chunks of k iterations, the m-th holding iterations
// mk to mk+k-1 (OpenMP 5.2 §11.5.3). gopari can then hand out the chunks
// itself, with the same schedule and a chunk size of one, and run each
// chunk's iterations in the user's loop:
//
//	_Pragma("omp for schedule(dynamic, 1) ...")
//	for (long long pomp_c = 0; pomp_c < pomp_nc; pomp_c++) { long long pomp_i = pomp_c * pomp_k, pomp_e = ...;
//	  POMP_Chunk_begin(&pomp_ck, pomp_i);
//	  for (int i = pomp_lb0 + (int)(pomp_i * STEP); pomp_i < pomp_e; i++, pomp_i++) BODY
//	  POMP_Chunk_end(&pomp_ck, pomp_e - 1); }
//	POMP_Chunk_close(&pomp_ck);
//
// The loop body is left alone, so a loop the compiler vectorized stays
// vectorized, and a chunk's end is seen where it ends. Chunk m goes to the
// thread it went to (static: m mod T) and each thread runs its chunks'
// iterations in order. Loops whose clauses name their iterations
// (ordered, linear, lastprivate), collapsed nests, cancellable loops and
// loop variables declared outside the loop or not of an integer type keep
// the hook at the top of their body instead.

// strip fills in p for a strip-mined loop, or reports false when the loop
// cannot be: sched is the schedule clause's match, at index at of the
// clauses.
func (b *leafBuilder) strip(p *chunkPlan, sched []string, at int) bool {
	g, c := b.g, b.c
	if sched == nil || sched[1] != "static" && sched[1] != "dynamic" || strings.TrimSpace(sched[2]) == "" ||
		len(c.Loop.Levels) != 1 || c.Cancellable {
		return false
	}
	for _, cl := range b.clauses {
		switch cl.Name {
		case "ordered", "linear", "lastprivate", "collapse", "order":
			return false
		}
	}
	l := c.Loop.Levels[0]
	decl, _ := g.pr.LoopText(l.Decl)
	header := g.src[g.toks[l.Open].Pos:g.toks[l.Close].End]
	if !integerType(decl) || l.Rel == "!=" || strings.ContainsAny(string(header), "\n\r") {
		return false
	}
	lb, _ := g.pr.LoopText(l.LB)
	ub, _ := g.pr.LoopText(l.UB)
	down := l.Rel == ">" || l.Rel == ">="
	step, signed := "1", "1"
	p.pre = []string{"POMP_Chunk pomp_ck;", decl + " pomp_lb0 = (" + lb + ");"}
	if !l.Step.Empty() {
		st, _ := g.pr.LoopText(l.Step)
		if down != l.Down {
			st = "-(" + st + ")"
		}
		p.pre = append(p.pre, "long long pomp_s0 = ("+st+");")
		step, signed = "pomp_s0", "pomp_s0"
	}
	if down {
		signed = "-" + signed
	}
	rng := difference("("+ub+")", "pomp_lb0", true)
	if down {
		rng = difference("pomp_lb0", "("+ub+")", true)
	}
	incl := map[bool]string{true: "1", false: "0"}[l.Rel == "<=" || l.Rel == ">="]
	p.pre = append(p.pre,
		"long long pomp_n = POMP_Chunk_trip(!(pomp_lb0 "+l.Rel+" ("+ub+")), "+rng+", "+step+", "+incl+");",
		"long long pomp_k = (long long)("+strings.TrimSpace(sched[2])+"); if (pomp_k < 1) pomp_k = 1;",
		"long long pomp_nc = (pomp_n + pomp_k - 1) / pomp_k;")
	kind := "1" // static: POMP_Chunk_init_strip in pomp.h
	if sched[1] == "dynamic" {
		kind = "2"
	}
	p.init = "POMP_Chunk_init_strip(&pomp_ck, pomp_r(" + strconv.Itoa(b.r) + "), (long long)(pomp_lb0), " + signed + ", " + kind + ");"
	p.close = "POMP_Chunk_close(&pomp_ck);"
	p.strip = true
	// The chunks are handed out one by one, with the user's schedule
	// kind and modifiers.
	cl := append([]parser.Clause(nil), b.clauses...)
	args := cl[at].Args
	kindEnd := scheduleRE().FindStringSubmatchIndex(args)[3]
	cl[at].Args = strings.TrimSpace(args[:kindEnd]) + ", 1"
	cl[at].End = 0 // not the user's text any more: written at the directive's end
	b.clauses = cl
	cast := strings.TrimSpace(strings.ReplaceAll(" "+decl+" ", " register ", " "))
	p.edits = func() {
		b.stripEdits(l, "pomp_lb0 + ("+cast+")(pomp_i * "+signed+")")
	}
	return true
}

// stripEdits rewrites the loop's header to run one chunk, first the
// expression of its first iteration, inside the loop over the chunks.
func (b *leafBuilder) stripEdits(l parser.LoopLevel, first string) {
	g, c, d := b.g, b.c, b.c.Depth
	add := func(s string) seg { return g.edits.add([]byte(s)) }
	g.edits.insert(int(g.toks[l.For].Pos), add("for (long long pomp_c = 0; pomp_c < pomp_nc; pomp_c++) { long long pomp_i = pomp_c * pomp_k, "+
		"pomp_e = pomp_i + pomp_k < pomp_n ? pomp_i + pomp_k : pomp_n; POMP_Chunk_begin(&pomp_ck, pomp_i); "), innerOpenKey(d))
	g.edits.replace(int(g.toks[l.LB.From].Pos), int(g.toks[l.LB.To-1].End), add(first))
	g.edits.replace(int(g.toks[l.Test.From].Pos), int(g.toks[l.Test.To-1].End), add("pomp_i < pomp_e"))
	g.edits.insert(int(g.toks[l.Close].Pos), add(", pomp_i++"), innerOpenKey(d))
	g.edits.insert(int(g.toks[c.BodyLast].End), add(" POMP_Chunk_end(&pomp_ck, pomp_e - 1); }"), innerCloseKey(d))
}
