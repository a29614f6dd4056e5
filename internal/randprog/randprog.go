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
	// schedule(dynamic) (the last value is often lost), and tasks in
	// nested teams: libomp 14 crashes now and then when a worker steals
	// from the deque of the nested team's primary thread while it joins
	// (llvm-project issue 87307, fixed in LLVM 19), the uninstrumented
	// program as much as the instrumented one.
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
	levels   int // parallel regions around this code
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
	tasks := sched && !(g.clang && c.levels > 1)
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
		{tasks, 3, g.task},
		{tasks && !c.repl, 1, g.taskDepend},
		{tasks, 1, g.taskloop},
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
