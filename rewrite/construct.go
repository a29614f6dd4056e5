package rewrite

import (
	"fmt"
	"strings"

	"gopari/internal/constructs"
	"gopari/parser"
)

// A class says how the constructs of one parser.Class are instrumented
// (docs/design.md, "The order of POMP events"): its region kind, whose calls,
// --disable group and task scheduling point come from the one list of
// kinds, internal/constructs, and the code that places the calls.
// docs/design.md, "Adding a construct", says what goes where;
// TestTablesAgree checks this table against the parser's and the list.
type class struct {
	// Kind is the region kind: Enter and Exit wrap the directive and its
	// block, Save saves the current task before Enter and restores it
	// before Exit; Begin and End wrap the structured block, inside it,
	// and Cleanup calls End when cancellation leaves the block.
	*constructs.Kind

	// build places the calls; nil means enclose(Save) and then body.
	build func(*leafBuilder)

	named   bool // the directive's argument names the region: critical(name)
	creates bool // creates explicit tasks: untied, final and mergeable apply
}

// classes is indexed by parser.Class; classes without a kind are not
// instrumented as constructs (see construct).
var classes = [parser.NumClasses]class{
	parser.ClassParallel:          {Kind: constructs.Get(constructs.Parallel), build: (*leafBuilder).parallel},
	parser.ClassFor:               {Kind: constructs.Get(constructs.For), build: (*leafBuilder).worksharing},
	parser.ClassSections:          {Kind: constructs.Get(constructs.Sections), build: (*leafBuilder).worksharing},
	parser.ClassSingle:            {Kind: constructs.Get(constructs.Single), build: (*leafBuilder).worksharing},
	parser.ClassScope:             {Kind: constructs.Get(constructs.Scope), build: (*leafBuilder).worksharing},
	parser.ClassMaster:            {Kind: constructs.Get(constructs.Master)},
	parser.ClassCritical:          {Kind: constructs.Get(constructs.Critical), named: true},
	parser.ClassAtomic:            {Kind: constructs.Get(constructs.Atomic)},
	parser.ClassFlush:             {Kind: constructs.Get(constructs.Flush)},
	parser.ClassBarrier:           {Kind: constructs.Get(constructs.Barrier)},
	parser.ClassTaskwait:          {Kind: constructs.Get(constructs.Taskwait)},
	parser.ClassTaskyield:         {Kind: constructs.Get(constructs.Taskyield)},
	parser.ClassTask:              {Kind: constructs.Get(constructs.Task), build: (*leafBuilder).task, creates: true},
	parser.ClassTaskgroup:         {Kind: constructs.Get(constructs.Taskgroup)},
	parser.ClassTaskloop:          {Kind: constructs.Get(constructs.Taskloop), build: (*leafBuilder).taskloop, creates: true}, // taskloop.go
	parser.ClassOrdered:           {Kind: constructs.Get(constructs.Ordered)},
	parser.ClassSimd:              {Kind: constructs.Get(constructs.Simd)},
	parser.ClassLoop:              {Kind: constructs.Get(constructs.Loop)},
	parser.ClassCancel:            {Kind: constructs.Get(constructs.Cancel)},
	parser.ClassCancellationPoint: {Kind: constructs.Get(constructs.CancellationPoint)},
}

// ignored are the classes of directives that construct leaves as they
// are: they have no events (declarative directives, passthrough ones such
// as scan or depobj, unknown ones), or another construct's code handles
// them (section).
var ignored = [parser.NumClasses]bool{
	parser.ClassUnknown: true, parser.ClassDeclarative: true, parser.ClassPassthrough: true,
	parser.ClassSection: true, parser.ClassDeclTargetBegin: true, parser.ClassDeclTargetEnd: true,
	parser.ClassMeta: true,
}

// leafClasses gives the class of each leaf a combined construct splits
// into (parser's directive table, Leaves).
var leafClasses = map[string]parser.Class{
	"parallel": parser.ClassParallel,
	"for":      parser.ClassFor, "for simd": parser.ClassFor,
	"sections": parser.ClassSections,
	"master":   parser.ClassMaster, "masked": parser.ClassMaster,
	"loop":     parser.ClassLoop,
	"taskloop": parser.ClassTaskloop, "taskloop simd": parser.ClassTaskloop,
}

// parts is the code gopari wraps around one leaf directive:
//
//	pre pragma open BODY close post
//
// pre opens a block of its own, post closes it; open and close go inside
// the structured block. Each is a range of gen.buf.
type parts struct {
	pre, pragma, open, close, post seg
}

// spec is one directive to instrument: a whole directive, or one leaf of a
// combined construct.
type spec struct {
	name    string // the leaf's directive name, e.g. "for simd"
	class   parser.Class
	arg     string // critical(name), flush(list)
	hasArg  bool
	clauses []parser.Clause
	// afterParallel is set for the leaf that follows "parallel" in a
	// combined construct: the parallel region's implicit barrier follows
	// it directly.
	afterParallel bool
	combined      bool
}

// maxLeaves is the most leaves a combined construct splits into.
const maxLeaves = 4

// construct instruments one construct.
func (g *gen) construct(c *parser.Construct) {
	d := c.Dir
	if c.NoCalls {
		return
	}
	if d.Class() == parser.ClassOffload {
		if g.offloads == 0 {
			g.offloadPos = d.Pos
		}
		g.offloads++
		return
	}
	if ignored[d.Class()] {
		if e := c.Enclosed; e != nil {
			// begin metadirective whose variant is nothing: both go.
			g.edits.replace(d.Pos, d.End, g.join(d.Pos, d.End))
			g.edits.replace(e.Pos, e.End, g.join(e.Pos, e.End))
		}
		return
	}
	if c.Depth > maxDepth {
		g.errorf(d.Pos, "'#pragma omp %s' is nested %d constructs deep; gopari handles at most %d", d.Name, c.Depth, maxDepth)
		return
	}
	g.pragmaLines = g.lineLayout(d)
	var specBuf [maxLeaves]spec
	specs := g.specs(c, specBuf[:0])
	enabled := false
	for _, s := range specs {
		if !g.off[s.class] {
			enabled = true
		}
	}
	if !enabled {
		return
	}
	g.resetBuf()
	var allBuf [maxLeaves]parts
	var regBuf [maxLeaves]int
	all, regs := allBuf[:0], regBuf[:0]
	for i, s := range specs {
		g.setLocals(c.Depth, i)
		p, r := g.leaf(c, s)
		all = append(all, p)
		regs = append(regs, r)
	}
	g.place(c, all)
	if last := specs[len(specs)-1]; last.class == parser.ClassSections && !g.disabled("sections") {
		g.sections(c, regs[len(regs)-1])
	}
}

// specs appends the directives a construct consists of to out: itself, or
// the leaves of a combined construct.
func (g *gen) specs(c *parser.Construct, out []spec) []spec {
	d := c.Dir
	if d.Class() != parser.ClassCombined {
		return append(out, spec{name: d.Name, class: d.Class(), arg: d.Arg, hasArg: d.HasArg, clauses: d.Clauses})
	}
	leaves, warns := splitCombined(d)
	for _, w := range warns {
		g.warnf(d.NameOff, "%s", w)
	}
	for i, l := range leaves {
		class, ok := leafClasses[l.name]
		if !ok {
			panic("rewrite: unknown leaf " + l.name)
		}
		out = append(out, spec{
			name:          l.name,
			class:         class,
			clauses:       l.clauses,
			combined:      true,
			afterParallel: i > 0 && leaves[i-1].name == "parallel",
		})
	}
	return out
}

// leaf returns the parts of one directive and registers its region.
func (g *gen) leaf(c *parser.Construct, s spec) (parts, int) {
	if g.off[s.class] {
		return parts{pragma: g.part(func() { g.userPragma(c.Dir, &s, s.clauses) })}, -1
	}
	cl := &classes[s.class]
	if cl.Kind == nil {
		panic("rewrite: no instrumentation for " + s.name)
	}
	// One builder serves every leaf: a fresh one per leaf would escape to
	// the heap through the closures of its parts.
	b := &g.leaf1
	*b = leafBuilder{g: g, c: c, s: s, cl: cl, r: len(g.regions), reg: g.newRegion(c, s, cl), clauses: s.clauses}
	if cl.creates {
		b.clauses = g.untied(s.clauses, &b.reg)
	}
	if cl.build != nil {
		cl.build(b)
	} else {
		b.enclose(cl.Save)
		b.body()
	}
	return b.p, g.addRegion(b.reg)
}

// newRegion returns the region of a leaf, with the flags its clauses set.
func (g *gen) newRegion(c *parser.Construct, s spec, cl *class) region {
	d := c.Dir
	reg := region{
		kind:    cl.Const,
		file:    g.fileAt(d.Pos),
		begin:   g.line(d.Pos),
		end:     g.line(d.Pos),
		name:    d.Name,
		arg:     s.arg,
		hasArg:  s.hasArg,
		clauses: s.clauses,
	}
	if c.Last >= 0 {
		reg.end = g.line(int(c.LastToken.Pos))
	}
	if cl.named && s.hasArg {
		reg.sub, reg.hasArg = s.arg, false
	}
	if s.combined {
		reg.flags |= flagCombined
	}
	if has(s.clauses, "if") {
		reg.flags |= flagIf
	}
	if has(s.clauses, "depend") || has(s.clauses, "doacross") {
		reg.flags |= flagDepend
	}
	if cl.creates && has(s.clauses, "final") {
		reg.flags |= flagFinal
	}
	if cl.creates && has(s.clauses, "mergeable") {
		reg.flags |= flagMergeable
	}
	return reg
}

// untied applies --untied to the clauses of a task or taskloop.
func (g *gen) untied(cs []parser.Clause, reg *region) []parser.Clause {
	var at *parser.Clause
	for i := range cs {
		if cs[i].Name == "untied" {
			at = &cs[i]
		}
	}
	if at == nil {
		return cs
	}
	switch g.opts.Untied {
	case UntiedKeep:
		reg.flags |= flagUntied
		return cs
	case UntiedError:
		g.errorf(at.Off, "untied task: task identities are exact only for tied tasks (use --untied=tie or --untied=keep)")
		return cs
	}
	if g.untieds == 0 {
		g.untiedPos = at.Off
	}
	g.untieds++
	reg.flags |= flagTied
	out := make([]parser.Clause, 0, len(cs)-1)
	for _, c := range cs {
		if c.Name != "untied" {
			out = append(out, c)
		}
	}
	return out
}

// A leafBuilder builds the parts of one leaf from its class.
type leafBuilder struct {
	g       *gen
	c       *parser.Construct
	s       spec
	cl      *class
	r       int             // the region's index
	reg     region          // the region, registered when the parts are done
	clauses []parser.Clause // the clauses written out, after --untied
	p       parts
	chunk   *chunkPlan // --chunks: the leaf's chunk code (chunks.go)
}

// pragma builds the directive itself, with extra clauses added.
func (b *leafBuilder) pragma(extra ...string) seg {
	return b.g.part(func() { b.g.userPragma(b.c.Dir, &b.s, b.clauses, extra...) })
}

// enclose surrounds the directive with the class's enter and exit calls,
// in a block of their own, saving and restoring the current task around
// them if save is set.
func (b *leafBuilder) enclose(save bool) {
	g, enter, exit := b.g, b.cl.Enter.Name, b.cl.Exit.Name
	b.p.pre = g.part(func() {
		g.w("{")
		if save {
			g.w(g.saveTask())
		}
		if enter != "" {
			g.call(enter, b.r)
		}
		b.chunksPre()
	})
	b.p.pragma = b.pragma()
	b.p.post = g.part(func() {
		if save {
			g.w(g.restoreTask())
		}
		b.chunksPost()
		if exit != "" {
			g.call(exit, b.r)
		}
		g.w("}")
	})
}

// body wraps the structured block, if there is one, in the class's begin
// and end calls; args follow the region in the begin call.
func (b *leafBuilder) body(args ...string) {
	g, cl, r := b.g, b.cl, b.r
	if cl.Begin.Name == "" || b.c.Last < 0 {
		return
	}
	if b.c.Cancellable {
		fn := cl.Cleanup
		if fn == "" {
			fn = constructs.BodyCleanup
		}
		b.p.open = g.part(func() { g.w("{"); g.cleanupVar(fn, r); g.call(cl.Begin.Name, r, args...) })
		b.p.close = g.part(func() { g.w("}") })
		b.reg.flags |= flagCleanup
		return
	}
	b.p.open = g.part(func() { g.w("{"); g.call(cl.Begin.Name, r, args...) })
	b.p.close = g.part(func() { g.call(cl.End.Name, r); g.w("}") })
}

// worksharing builds for, sections, single and scope. Their implicit
// barrier becomes an explicit, measured one where that keeps the
// meaning, and is kept otherwise.
func (b *leafBuilder) worksharing() {
	g, s, c, r := b.g, &b.s, b.c, b.r
	b.chunk = b.chunks()
	if p := b.chunk; p != nil {
		b.reg.shape = fmt.Sprintf("chunks counting=%v strip=%v size=%v", p.counting, p.strip, p.size != "0")
	}
	switch {
	case has(s.clauses, "nowait"):
		b.reg.flags |= flagNowait
		b.enclose(false)
	case s.afterParallel && !c.Cancellable && !taskReduction(s.clauses):
		// The parallel region's barrier follows at once.
		b.enclose(false)
		b.p.pragma = b.pragma("nowait")
	case c.Cancellable || has(s.clauses, "copyprivate") || taskReduction(s.clauses) || g.disabled("barrier"):
		// cancel needs the implicit barrier; copyprivate and a reduction
		// with the task modifier forbid nowait.
		b.reg.flags |= flagImplicitBarrier
		b.enclose(true)
	default:
		b.reg.flags |= flagBarrier
		b.p.pre = g.part(func() { g.w("{"); g.call(b.cl.Enter.Name, r); b.chunksPre() })
		b.p.pragma = b.pragma("nowait")
		b.p.post = g.part(func() {
			b.chunksPost()
			g.call(b.cl.Exit.Name, r)
			g.w("{", g.saveTask())
			g.call(constructs.ImplicitBarrier.Enter.Name, r)
			g.pragma("barrier", "", false, nil)
			g.w(g.restoreTask())
			g.call(constructs.ImplicitBarrier.Exit.Name, r)
			g.w("}", "}")
		})
	}
	b.chunkHook()
	b.body()
}

// taskReduction reports whether cs holds a reduction clause with the
// task modifier, reduction(task, +: x), which OpenMP forbids together
// with nowait.
func taskReduction(cs []parser.Clause) bool {
	for _, c := range cs {
		if c.Name == "reduction" {
			if mod, _, ok := strings.Cut(c.Args, ","); ok && strings.TrimSpace(mod) == "task" {
				return true
			}
		}
	}
	return false
}

// parallel builds a parallel region: the team's context is handed to
// every implicit task with the encountering task's handle.
func (b *leafBuilder) parallel() {
	g, r := b.g, b.r
	old, team := g.word(wOldTask), g.word(wTeam)
	b.p.pre = g.part(func() {
		g.w("{", g.saveTask(), g.word(wTeamDecl))
		g.call(b.cl.Enter.Name, r, old)
	})
	b.p.pragma = b.pragma(g.word(wParallelFP))
	b.body(old, team)
	b.p.post = g.part(func() { g.call(b.cl.Exit.Name, r, old); g.w(g.restoreTask(), "}") })
}

// task builds an explicit task: the new task's ID and its creation
// context, which holds the creator's handle, go to the new task as
// firstprivate scalars (a struct would make GCC copy them with a function
// of its own).
func (b *leafBuilder) task() {
	g, r := b.g, b.r
	id, ctx := g.word(wTaskID), g.word(wTaskCtx)
	b.p.pre = g.part(func() {
		g.w("{", g.word(wTaskDecl))
		if it := g.taskIteration(b.c); it != nil {
			g.call(constructs.TaskCreateIter.Name, r, append([]string{g.word(wTaskCtxRef)}, it...)...) // iteration.go
		} else {
			g.call(b.cl.Enter.Name, r, g.word(wTaskCtxRef))
		}
		g.w(g.saveTask())
	})
	b.p.pragma = b.pragma(g.word(wTaskFP))
	b.body(id, ctx)
	b.p.post = g.part(func() { g.w(g.restoreTask()); g.call(b.cl.Exit.Name, r, ctx); g.w("}") })
}
