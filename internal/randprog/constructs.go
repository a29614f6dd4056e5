package randprog

// The generators of the OpenMP constructs a statement may be: parallel
// regions, worksharing, tasks and synchronization.

import (
	"fmt"
	"strings"
)

// firstprivate returns a firstprivate clause for the loop variables in
// scope, which explicit tasks read.
func firstprivate(c ctx) string {
	if len(c.ivs) == 0 {
		return ""
	}
	return " firstprivate(" + strings.Join(c.ivs, ", ") + ")"
}

// parallel writes a parallel region, sometimes combined with a loop or
// sections or master.
func (g *gen) parallel(c ctx) {
	var clauses []string
	if g.chance(2) {
		clauses = append(clauses, fmt.Sprintf("num_threads(%d)", 1+g.r.IntN(3)))
	}
	if g.chance(6) {
		clauses = append(clauses, fmt.Sprintf("if(%d)", g.r.IntN(2)))
	}
	red := ""
	if !c.repl && g.chance(3) {
		red = g.name("r")
		clauses = append(clauses, "reduction(+: "+red+")")
	}
	fp := ""
	if g.chance(4) {
		fp = g.name("f")
		clauses = append(clauses, "firstprivate("+fp+")")
	}
	if g.chance(8) {
		clauses = append(clauses, "proc_bind(spread)")
	}
	g.open("{")
	if red != "" {
		g.line("unsigned long long %s = 0;", red)
	}
	if fp != "" {
		g.line("unsigned long long %s = %s;", fp, g.value(c))
	}
	// Team code: every thread runs it. Worksharing bodies run once per
	// encounter of the region.
	team := nested(c)
	team.team = true
	team.repl = true
	team.unique = false
	team.wsRepl = c.repl
	team.wsUnique = c.unique && !c.repl
	team.teamRed = red
	team.red = ""
	team.inTG = false
	team.inTask = false
	team.inTGBody = false
	team.mult = c.mult * 3
	team.levels = c.levels + 1
	if fp != "" {
		team.ivs = append(append([]string(nil), team.ivs...), fp)
	}
	switch k := g.r.IntN(8); {
	case k == 0:
		g.forLoopWith(team, "parallel for", clauses)
	case k == 1:
		g.sectionsWith(team, "parallel sections", clauses)
	case k == 2:
		g.pragma("%s", strings.Join(append([]string{"parallel master"}, clauses...), " "))
		g.compound(wsBody(team))
	default:
		team.cancel = "parallel"
		g.pragma("%s", strings.Join(append([]string{"parallel"}, clauses...), " "))
		g.compound(team)
	}
	if red != "" {
		g.addResult(c, red)
	}
	g.close("}")
}

// wsBody returns the context of the body of a worksharing construct, or
// of master, encountered by team code c.
func wsBody(c ctx) ctx {
	c = nested(c)
	c.team = false
	c.repl = c.wsRepl
	c.unique = c.wsUnique
	c.red = c.teamRed
	c.mult /= 3
	if c.repl {
		c.red = ""
		c.mult *= 3
	}
	return c
}

var schedules = []string{"", "schedule(static)", "schedule(static, 2)", "schedule(dynamic)", "schedule(dynamic, 3)",
	"schedule(guided)", "schedule(guided, 2)", "schedule(auto)", "schedule(runtime)", "schedule(nonmonotonic: dynamic)",
	"schedule(monotonic: static, 1)"}

// schedule returns a schedule clause, or nothing, for a loop with a
// lastprivate clause or not.
func (g *gen) schedule(lastprivate bool) string {
	s := schedules[g.r.IntN(len(schedules))]
	switch {
	case g.clang && strings.Contains(s, "(monotonic: static"):
		s = "schedule(monotonic: dynamic, 1)" // clang 14 runs every iteration in every thread
	case g.clang && lastprivate && strings.Contains(s, "dynamic"):
		s = "schedule(static)" // libomp 14 often loses the last value
	}
	return s
}

func (g *gen) forLoop(c ctx) { g.forLoopWith(c, "for", nil) }

// forLoopWith writes a worksharing loop of team code c: "for", or a
// combined construct such as "parallel for" with the clauses given.
func (g *gen) forLoopWith(c ctx, dir string, clauses []string) {
	body := wsBody(c)
	n := 1 + g.r.IntN(12)
	collapse := g.chance(4)
	if collapse {
		clauses = append(clauses, "collapse(2)")
	}
	// Ordered regions and reductions into globals only where no other
	// instance of the loop can run at the same time.
	simd := body.unique && g.chance(6)
	ordered := body.unique && !collapse && !simd && g.chance(3)
	sched := g.schedule(false)
	if ordered && strings.Contains(sched, "nonmonotonic") {
		sched = "schedule(dynamic)" // nonmonotonic and ordered do not mix
	}
	clauses = append(clauses, sched)
	if ordered {
		clauses = append(clauses, "ordered")
	}
	nowait := dir == "for" && !ordered && g.chance(4)
	if nowait {
		clauses = append(clauses, "nowait")
	}
	red := ""
	if simd || body.unique && g.chance(3) {
		// A reduction into a shared global: its total over the run does
		// not depend on the team.
		red = g.static()
		clauses = append(clauses, "reduction(+: "+red+")")
	}
	if simd {
		dir += " simd"
	}
	g.pragma("%s", strings.Join(append([]string{dir}, nonEmpty(clauses)...), " "))
	iv := g.name("i")
	body = withIV(body, iv, n)
	if collapse {
		jv := g.name("j")
		m := 1 + g.r.IntN(4)
		g.line("for (int %s = 0; %s < %d; %s++)", iv, iv, n, iv)
		g.open("  for (int %s = 0; %s < %d; %s++) {", jv, jv, m, jv)
		body = withIV(body, jv, m)
	} else {
		g.open("for (int %s = 0; %s < %d; %s++) {", iv, iv, n, iv)
	}
	switch {
	case simd:
		// A simd loop body holds no OpenMP constructs.
		g.line("%s += %s;", red, g.value(body))
	default:
		if !nowait && !ordered {
			body.cancel = "for"
		}
		if red != "" && g.chance(2) {
			g.line("%s += %s;", red, g.value(body))
		}
		if ordered {
			// At most one ordered region per iteration.
			g.orderedRegion(body)
		}
		g.block(body)
	}
	g.close("}")
}

func nonEmpty(xs []string) []string {
	var out []string
	for _, x := range xs {
		if x != "" {
			out = append(out, x)
		}
	}
	return out
}

func (g *gen) sections(c ctx) { g.sectionsWith(c, "sections", nil) }

// sectionsWith writes a sections construct of team code c, or a combined
// "parallel sections" with the clauses given.
func (g *gen) sectionsWith(c ctx, dir string, clauses []string) {
	body := wsBody(c)
	nowait := dir == "sections" && g.chance(4)
	if nowait {
		clauses = append(clauses, "nowait")
	}
	red := ""
	if body.unique && g.chance(3) {
		red = g.static()
		clauses = append(clauses, "reduction(+: "+red+")")
	}
	if !nowait {
		body.cancel = "sections"
	}
	g.pragma("%s", strings.Join(append([]string{dir}, clauses...), " "))
	g.open("{")
	n := 1 + g.r.IntN(4)
	for i := 0; i < n; i++ {
		// The first section may go without its directive.
		if i > 0 || g.chance(2) {
			g.pragma("section")
		}
		g.open("{")
		if red != "" {
			g.line("%s += %s;", red, g.value(body))
		}
		g.block(body)
		g.close("}")
	}
	g.close("}")
}

// single writes a single construct of team code c, sometimes with
// copyprivate.
func (g *gen) single(c ctx) {
	body := wsBody(c)
	if g.chance(3) {
		// copyprivate: every thread gets the value the single computed.
		v := g.name("c")
		g.open("{")
		g.line("unsigned long long %s;", v)
		g.pragma("single copyprivate(%s)", v)
		g.line("%s = %s;", v, g.value(body))
		g.addResult(c, v)
		g.close("}")
		return
	}
	if g.chance(3) {
		g.pragma("single nowait")
	} else {
		g.pragma("single")
	}
	g.compound(body)
}

// master writes master or masked.
func (g *gen) master(c ctx) {
	if g.chance(2) {
		g.pragma("master")
	} else {
		g.pragma("masked")
	}
	g.compound(wsBody(c))
}

// scope writes a scope construct: every thread runs its body.
func (g *gen) scope(c ctx) {
	body := nested(c)
	body.team = false
	if g.chance(2) {
		g.pragma("scope nowait")
	} else {
		g.pragma("scope")
	}
	g.compound(body)
}

func (g *gen) barrier(c ctx) {
	g.pragma("barrier")
}

// lastprivate writes a loop whose last iteration's value survives it.
func (g *gen) lastprivate(c ctx) {
	body := wsBody(c)
	if !body.unique {
		g.forLoop(c)
		return
	}
	v := g.static()
	n := 1 + g.r.IntN(9)
	iv := g.name("i")
	first := g.chance(2)
	if first {
		g.pragma("for %s firstprivate(%s) lastprivate(%s)", g.schedule(true), v, v)
	} else {
		g.pragma("for %s lastprivate(%s)", g.schedule(true), v)
	}
	g.open("for (int %s = 0; %s < %d; %s++) {", iv, iv, n, iv)
	body = withIV(body, iv, n)
	if first {
		// Only the last iteration changes the copy it got, so that what
		// survives does not depend on the schedule.
		g.line("if (%s == %d)", iv, n-1)
		g.line("  %s = %s_mix(%s, %s);", v, g.p, v, g.value(body))
	} else {
		g.line("%s = %s;", v, g.value(body))
	}
	g.close("}")
}

// taskBody returns the context of the body of an explicit task created
// in c.
func taskBody(c ctx) ctx {
	b := nested(c)
	b.team = false
	b.red = ""
	b.teamRed = ""
	b.wsUnique = false
	if c.inTG {
		b.cancel = "taskgroup"
	}
	b.inTG = false
	b.inTask = true
	b.inTGBody = false
	return b
}

// task writes a task with some of its clauses.
func (g *gen) task(c ctx) {
	clauses := []string{"task"}
	switch g.r.IntN(6) {
	case 0:
		clauses = append(clauses, fmt.Sprintf("if(%d)", g.r.IntN(2)))
	case 1:
		clauses = append(clauses, fmt.Sprintf("final(%d)", g.r.IntN(2)))
	case 2:
		clauses = append(clauses, "mergeable")
	case 3:
		clauses = append(clauses, fmt.Sprintf("priority(%d)", g.r.IntN(3)))
	case 4:
		if !g.clang {
			clauses = append(clauses, "untied")
		}
	}
	g.pragma("%s%s", strings.Join(clauses, " "), firstprivate(c))
	g.compound(taskBody(c))
}

// taskDepend writes two tasks ordered by a dependence: the second adds
// what the first wrote.
func (g *gen) taskDepend(c ctx) {
	d := g.name("d")
	g.open("{")
	g.line("unsigned long long %s = 0;", d)
	g.pragma("task shared(%s) depend(out: %s)%s", d, d, firstprivate(c))
	g.line("%s = %s;", d, g.value(c))
	g.pragma("task shared(%s) depend(in: %s)", d, d)
	g.addResult(taskBody(c), d)
	g.pragma("taskwait")
	g.close("}")
}

// taskloop writes a taskloop, or master taskloop in team code.
func (g *gen) taskloop(c ctx) {
	body := taskBody(c)
	body.cancel = ""
	dir := "taskloop"
	if c.team && g.chance(2) {
		dir = "masked taskloop"
		if g.chance(2) {
			dir = "master taskloop"
		}
		body.repl = c.wsRepl
		body.unique = false
	}
	switch g.r.IntN(3) {
	case 0:
		dir += fmt.Sprintf(" grainsize(%d)", 1+g.r.IntN(3))
	case 1:
		dir += fmt.Sprintf(" num_tasks(%d)", 1+g.r.IntN(4))
	}
	if g.chance(4) {
		dir += " nogroup"
	}
	n := 1 + g.r.IntN(8)
	g.pragma("%s%s", dir, firstprivate(c))
	iv := g.name("i")
	g.open("for (int %s = 0; %s < %d; %s++) {", iv, iv, n, iv)
	g.block(withIV(body, iv, n))
	g.close("}")
}

func (g *gen) taskwait(c ctx) {
	g.pragma("taskwait")
}

// taskgroup writes a taskgroup; tasks created in it may cancel it.
func (g *gen) taskgroup(c ctx) {
	body := nested(c)
	body.inTG = true
	body.inTGBody = true
	g.pragma("taskgroup")
	g.compound(body)
}

// critical writes a critical construct, named or not, around results.
func (g *gen) critical(c ctx) {
	body := nested(c)
	body.excl = true
	switch g.r.IntN(3) {
	case 0:
		g.pragma("critical")
	case 1:
		g.pragma("critical(%s_c%d)", g.p, g.r.IntN(3))
	default:
		g.pragma("critical(%s_h) hint(1)", g.p)
	}
	g.open("{")
	g.result(body)
	if g.chance(2) {
		g.result(body)
	}
	g.close("}")
}

// lock writes results between omp_set_lock and omp_unset_lock.
func (g *gen) lock(c ctx) {
	body := nested(c)
	body.excl = true
	g.line("omp_set_lock(&%s_lock);", g.p)
	g.result(body)
	g.line("omp_unset_lock(&%s_lock);", g.p)
}

// orderedRegion writes an ordered region: its updates of seq happen in
// the order of the iterations.
func (g *gen) orderedRegion(c ctx) {
	g.pragma("ordered")
	g.open("{")
	g.line("%s_seq = %s_mix(%s_seq, %s);", g.p, g.p, g.p, g.value(c))
	g.close("}")
}

// simd writes a simd loop with a reduction into a local.
func (g *gen) simd(c ctx) {
	s, iv := g.name("s"), g.name("i")
	n := 1 + g.r.IntN(16)
	g.open("{")
	g.line("unsigned long long %s = 0;", s)
	g.pragma("simd reduction(+: %s)", s)
	g.line("for (int %s = 0; %s < %d; %s++)", iv, iv, n, iv)
	g.line("  %s += %s;", s, g.value(withIV(c, iv, n)))
	g.addResult(c, s)
	g.close("}")
}

func (g *gen) flush(c ctx) {
	if g.chance(2) {
		g.pragma("flush")
	} else {
		g.pragma("flush(%s_acc)", g.p)
	}
}

// cancel writes a cancel that never fires, or a cancellation point, for
// the construct c is closely nested in.
func (g *gen) cancel(c ctx) {
	if g.chance(2) {
		g.pragma("cancellation point %s", c.cancel)
		return
	}
	g.pragma("cancel %s if(0)", c.cancel)
}
