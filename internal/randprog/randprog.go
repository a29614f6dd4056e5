// Package randprog generates random, valid OpenMP C programs whose output
// does not depend on the number of threads or on scheduling, for
// differential testing: a program and its instrumented build must print
// the same line at every thread count.
//
// A program nests parallel, for, sections, single, master, masked, scope,
// task, taskloop, taskwait, taskgroup, critical, atomic, ordered, simd,
// barrier, flush, cancel and lock calls around integer computations. Its
// results go to a few global accumulators:
//
//   - acc, by addition, in code that runs a fixed number of times;
//   - bits and mx, by | and max, which are idempotent, in code that every
//     thread of a team runs, so that the team size cannot show;
//   - seq, in the ordered regions of ordered loops;
//   - out[], a slot per statement instance that runs exactly once.
//
// Addition modulo 2^64 is commutative and associative, so acc does not
// depend on the order of contributions, only on their multiset. No value
// ever depends on a thread number.
package randprog

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Config selects a program.
type Config struct {
	Seed uint64
	// Name, when set, makes the program a function "int Name(void)" with
	// its globals prefixed by Name, so that many programs fit in one file;
	// otherwise it is a whole program with main.
	Name string
	// Size is about the number of statements to generate; 0 means 24.
	Size int
	// Clang avoids what clang 14 and its libomp get wrong: untied tasks
	// (assertions, hangs), scope (unknown), schedule(monotonic: static)
	// (every thread runs every iteration) and lastprivate with
	// schedule(dynamic) (the last value is often lost).
	Clang bool
}

// Generate returns the C source of the program cfg selects.
func Generate(cfg Config) []byte {
	g := &gen{
		r:      rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x9e3779b97f4a7c15)),
		p:      cfg.Name,
		budget: cfg.Size,
		clang:  cfg.Clang,
	}
	if g.budget <= 0 {
		g.budget = 24
	}
	if g.p == "" {
		g.p = "p"
	}
	g.program(cfg)
	return []byte(g.b.String())
}

const slots = 4096 // size of out[]

type gen struct {
	r       *rand.Rand
	b       strings.Builder
	p       string // prefix of globals
	ind     int
	budget  int
	vars    int // counter for fresh names
	consts  uint64
	slot    int      // next free slot of out[]
	statics []string // globals for worksharing reductions and lastprivate
	clang   bool
}

// ctx is what the code being generated may do.
type ctx struct {
	repl     bool // runs a team-size-dependent number of times: idempotent results only
	unique   bool // runs exactly once per program run
	team     bool // all threads of a team run it: worksharing and barriers allowed
	wsRepl   bool // in team code: worksharing bodies still repeat by team size
	wsUnique bool // in team code: worksharing bodies run once per program run
	teamRed  string
	excl     bool   // inside critical or a lock: no scheduling points, no critical
	inTask   bool   // inside an explicit task
	inTGBody bool   // directly in a taskgroup of this task: no simd (GCC 12 crashes)
	inTG     bool   // the current task is inside a taskgroup region
	cancel   string // what "cancel" may name here, if anything
	red      string // a thread-private reduction variable for additive results
	ivs      []string
	depth    int
	mult     int // an upper bound on how often this code runs
}

func (g *gen) name(kind string) string {
	g.vars++
	return fmt.Sprintf("%s%d", kind, g.vars)
}

// static declares a global for a worksharing reduction or lastprivate
// and returns its name.
func (g *gen) static() string {
	n := fmt.Sprintf("%s_s%d", g.p, len(g.statics))
	g.statics = append(g.statics, n)
	return n
}

func (g *gen) line(format string, args ...any) {
	g.b.WriteString(strings.Repeat("  ", g.ind))
	fmt.Fprintf(&g.b, format, args...)
	g.b.WriteByte('\n')
}

// pragma writes a directive, as #pragma or, now and then, as _Pragma, or
// split over two lines with a backslash.
func (g *gen) pragma(format string, args ...any) {
	text := fmt.Sprintf(format, args...)
	switch n := g.r.IntN(12); {
	case n == 0:
		g.line("_Pragma(%q)", "omp "+text)
	case n == 1 && strings.Contains(text, " "):
		i := strings.Index(text, " ")
		g.line("#pragma omp %s \\", text[:i])
		g.line("    %s", text[i+1:])
	default:
		g.line("#pragma omp %s", text)
	}
}

func (g *gen) open(format string, args ...any) {
	g.line(format, args...)
	g.ind++
}

func (g *gen) close(s string) {
	g.ind--
	g.line("%s", s)
}

func (g *gen) chance(n int) bool { return g.r.IntN(n) == 0 }

// value returns an expression of the loop variables in scope.
func (g *gen) value(c ctx) string {
	g.consts++
	v := fmt.Sprintf("%dULL", g.consts*2654435761%1000003)
	for _, iv := range c.ivs {
		if g.chance(2) {
			v = fmt.Sprintf("%s_mix(%s, (unsigned long long)%s)", g.p, v, iv)
		}
	}
	return v
}

func (g *gen) program(cfg Config) {
	p := g.p
	// The body first, for it decides the globals.
	outer := g.b
	g.b = strings.Builder{}
	g.ind = 1
	g.line("omp_init_lock(&%s_lock);", p)
	// A taskgroup waits for every task the program creates, even those
	// created outside parallel regions, before the results are printed.
	g.pragma("taskgroup")
	g.open("{")
	for top := (ctx{unique: true, inTG: true, inTGBody: true, mult: 1}); g.budget > 0; {
		g.stmt(top)
	}
	g.close("}")
	g.line("unsigned long long sum = 0;")
	g.line("for (int i = 0; i < %d; i++)", slots)
	g.line("  sum += %s_out[i] * (unsigned long long)(i + 1);", p)
	for _, s := range g.statics {
		g.line("sum = %s_mix(sum, %s);", p, s)
	}
	g.line("printf(\"acc %%llu bits %%llx mx %%llu seq %%llu out %%llu\\n\", %s_acc, %s_bits, %s_mx, %s_seq, sum);", p, p, p, p)
	g.line("omp_destroy_lock(&%s_lock);", p)
	g.line("return 0;")
	body := g.b.String()

	g.b = outer
	g.ind = 0
	g.line("/* Generated by gopari's random program generator, seed %d. */", cfg.Seed)
	if cfg.Name == "" {
		g.line("#include <stdio.h>")
		g.line("#include <omp.h>")
	}
	g.line("static unsigned long long %s_acc, %s_bits, %s_mx, %s_seq, %s_out[%d];", p, p, p, p, p, slots)
	for _, s := range g.statics {
		g.line("static unsigned long long %s;", s)
	}
	g.line("static omp_lock_t %s_lock;", p)
	g.line("static unsigned long long %s_mix(unsigned long long a, unsigned long long b)", p)
	g.open("{")
	g.line("a ^= b + 0x9e3779b97f4a7c15ULL + (a << 6) + (a >> 2);")
	g.line("return a * 0xff51afd7ed558ccdULL;")
	g.close("}")
	if cfg.Name == "" {
		g.line("int main(void)")
	} else {
		g.line("static int %s(void)", cfg.Name)
	}
	g.line("{")
	g.b.WriteString(body)
	g.line("}")
}

// compound writes a compound statement holding a block for c.
func (g *gen) compound(c ctx) {
	g.open("{")
	g.block(c)
	g.close("}")
}

// block writes one to three statements.
func (g *gen) block(c ctx) {
	n := 1 + g.r.IntN(3)
	for i := 0; i < n; i++ {
		g.stmt(c)
	}
}

// stmt writes one statement that c allows.
func (g *gen) stmt(c ctx) {
	if g.budget <= 0 || c.depth > 5 {
		g.result(c)
		return
	}
	g.budget--
	type choice struct {
		ok     bool
		weight int
		f      func(ctx)
	}
	sched := !c.excl // task scheduling points allowed
	ws := c.team && !c.excl
	choices := []choice{
		{true, 4, g.result},
		{c.mult < 64, 2, g.loop},
		{sched, 3, g.parallel},
		{ws, 4, g.forLoop},
		{ws, 2, g.sections},
		{ws, 2, g.single},
		{ws, 1, g.master},
		{ws && !g.clang, 1, g.scope},
		{ws, 2, g.barrier},
		{ws, 1, g.lastprivate},
		{sched, 3, g.task},
		{sched && !c.repl, 1, g.taskDepend},
		{sched, 1, g.taskloop},
		{sched, 1, g.taskwait},
		{sched, 2, g.taskgroup},
		{!c.excl, 2, g.critical},
		{!c.excl && !c.repl, 1, g.lock},
		{!c.inTGBody, 1, g.simd},
		{true, 1, g.flush},
		{c.cancel != "", 1, g.cancel},
	}
	total := 0
	for _, ch := range choices {
		if ch.ok {
			total += ch.weight
		}
	}
	k := g.r.IntN(total)
	for _, ch := range choices {
		if !ch.ok {
			continue
		}
		if k < ch.weight {
			ch.f(c)
			return
		}
		k -= ch.weight
	}
}

// nested returns the context of the body of a construct: one level
// deeper, and no longer closely nested in what c was.
func nested(c ctx) ctx {
	c.depth++
	c.cancel = ""
	return c
}

// result writes a statement that adds to the program's results in a way
// c allows.
func (g *gen) result(c ctx) {
	p, v := g.p, g.value(c)
	if c.repl {
		// Every thread of a team may run this: idempotent updates only.
		if c.excl || g.chance(2) {
			g.pragma("atomic")
			g.line("%s_bits |= %s;", p, v)
			return
		}
		g.pragma("critical(%s_max)", p)
		g.line("if (%s_mx < %s) %s_mx = %s;", p, v, p, v)
		return
	}
	switch n := g.r.IntN(8); {
	case n == 0 && c.unique && g.slot < slots:
		g.pragma("atomic write")
		g.line("%s_out[%d] = %s;", p, g.slot, v)
		g.slot++
	case n == 1 && c.red != "":
		g.line("%s += %s;", c.red, v)
	case n == 2 && !c.excl:
		// acc is updated atomically everywhere, or the updates would race.
		g.pragma("critical")
		g.open("{")
		g.pragma("atomic")
		g.line("%s_acc += %s;", p, v)
		g.close("}")
	case n == 3:
		t := g.name("t")
		g.open("{")
		g.line("unsigned long long %s;", t)
		g.pragma("atomic capture")
		g.line("%s = %s_acc += %s;", t, p, v)
		g.line("(void)%s;", t)
		g.close("}")
	case n == 4:
		g.pragma("atomic update")
		g.line("%s_acc = %s_acc + %s;", p, p, v)
	default:
		g.pragma("atomic")
		g.line("%s_acc += %s;", p, v)
	}
}

// addResult adds variable v, whose value is deterministic, to acc, or to
// bits where c repeats by team size.
func (g *gen) addResult(c ctx, v string) {
	g.pragma("atomic")
	if c.repl {
		g.line("%s_bits |= %s;", g.p, v)
	} else {
		g.line("%s_acc += %s;", g.p, v)
	}
}

// withIV returns c with loop variable iv in scope, run n more times.
func withIV(c ctx, iv string, n int) ctx {
	c.ivs = append(append([]string(nil), c.ivs...), iv)
	c.unique = false
	c.mult *= n
	return c
}

// loop writes a serial loop around a block; every thread of a team runs
// it alike, so team code stays team code.
func (g *gen) loop(c ctx) {
	iv := g.name("i")
	n := 2 + g.r.IntN(3)
	g.open("for (int %s = 0; %s < %d; %s++) {", iv, iv, n, iv)
	c = withIV(c, iv, n)
	c.depth++
	c.wsUnique = false
	g.block(c)
	g.close("}")
}

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
