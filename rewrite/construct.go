package rewrite

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"gopari/parser"
)

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

const (
	save    = "POMP_Task_handle pomp_old_task = POMP_Get_current_task();"
	restore = "POMP_Set_current_task(pomp_old_task);"
)

var kinds = map[parser.Class]string{
	parser.ClassParallel:          "POMP_PARALLEL",
	parser.ClassFor:               "POMP_FOR",
	parser.ClassSections:          "POMP_SECTIONS",
	parser.ClassSingle:            "POMP_SINGLE",
	parser.ClassScope:             "POMP_SCOPE",
	parser.ClassMaster:            "POMP_MASTER",
	parser.ClassCritical:          "POMP_CRITICAL",
	parser.ClassAtomic:            "POMP_ATOMIC",
	parser.ClassFlush:             "POMP_FLUSH",
	parser.ClassBarrier:           "POMP_BARRIER",
	parser.ClassTaskwait:          "POMP_TASKWAIT",
	parser.ClassTaskyield:         "POMP_TASKYIELD",
	parser.ClassTask:              "POMP_TASK",
	parser.ClassTaskgroup:         "POMP_TASKGROUP",
	parser.ClassTaskloop:          "POMP_TASKLOOP",
	parser.ClassOrdered:           "POMP_ORDERED",
	parser.ClassSimd:              "POMP_SIMD",
	parser.ClassLoop:              "POMP_LOOP",
	parser.ClassCancel:            "POMP_CANCEL",
	parser.ClassCancellationPoint: "POMP_CANCELLATION_POINT",
}

// groupOf maps a class to its --disable group.
var groupOf = map[parser.Class]string{}

func init() {
	for c, k := range kinds {
		groupOf[c] = strings.ToLower(strings.TrimPrefix(k, "POMP_"))
	}
	groupOf[parser.ClassCancel] = "cancel"
	groupOf[parser.ClassCancellationPoint] = "cancel"
}

func leafClass(name string) parser.Class {
	switch name {
	case "parallel":
		return parser.ClassParallel
	case "for", "for simd":
		return parser.ClassFor
	case "sections":
		return parser.ClassSections
	case "master", "masked":
		return parser.ClassMaster
	case "loop":
		return parser.ClassLoop
	case "taskloop", "taskloop simd":
		return parser.ClassTaskloop
	}
	panic("rewrite: unknown leaf " + name)
}

// construct instruments one construct.
func (g *gen) construct(c *parser.Construct) {
	d := c.Dir
	if c.NoCalls {
		return
	}
	switch d.Class() {
	case parser.ClassOffload:
		if g.offloads == 0 {
			g.offloadPos = d.Pos
		}
		g.offloads++
		return
	case parser.ClassUnknown, parser.ClassDeclarative, parser.ClassPassthrough, parser.ClassSection,
		parser.ClassDeclTargetBegin, parser.ClassDeclTargetEnd:
		return
	}
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
	g.buf = g.buf[:0]
	var allBuf [maxLeaves]parts
	var regBuf [maxLeaves]int
	all, regs := allBuf[:0], regBuf[:0]
	for _, s := range specs {
		p, r := g.leaf(c, s)
		all = append(all, p)
		regs = append(regs, r)
	}
	g.place(c, all)
	if last := specs[len(specs)-1]; last.class == parser.ClassSections && !g.disabled("sections") {
		g.sections(c, regs[len(regs)-1])
	}
}

// maxLeaves is the most leaves a combined construct splits into.
const maxLeaves = 4

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
		out = append(out, spec{
			name:          l.name,
			class:         leafClass(l.name),
			clauses:       l.clauses,
			combined:      true,
			afterParallel: i > 0 && leaves[i-1].name == "parallel",
		})
	}
	return out
}

// place puts the parts of a construct's leaves into the source.
func (g *gen) place(c *parser.Construct, all []parts) {
	d := c.Dir
	// opening: pre, pragma and open of every leaf in order; its tail
	// after the first pre and pragma is the code that opens the block.
	var ob, cb [5 * maxLeaves]seg
	opening := ob[:0]
	for _, p := range all {
		opening = append(opening, p.pre, p.pragma, p.open)
	}
	inner := opening[2:]
	closing := cb[:0]
	for i := len(all) - 1; i >= 0; i-- {
		closing = append(closing, all[i].close, all[i].post)
	}
	depth := c.Depth
	if c.Last < 0 {
		// A standalone directive: everything in its place.
		g.edits.replace(d.Pos, d.End, g.join(d.Pos, g.newlines(d.Pos, d.End), append(opening, closing...)...))
		return
	}
	if c.Hoist >= 0 {
		hoist := g.f.LineStart(g.f.Line(int(g.toks[c.Hoist].Pos)))
		g.lineInsert(hoist, g.join(hoist, 0, all[0].pre), openKey(depth))
		g.edits.replace(d.Pos, d.End, g.join(d.Pos, g.newlines(d.Pos, d.End), all[0].pragma))
		reopen := g.lineAfter(c.Reopen)
		if s := g.join(reopen, 0, inner...); !s.empty() {
			g.lineInsert(reopen, s, openKey(depth))
		}
	} else {
		g.edits.replace(d.Pos, d.End, g.join(d.Pos, g.newlines(d.Pos, d.End), opening...))
	}
	if c.Close >= 0 {
		at := g.lineAfter(c.Close)
		if s := g.join(at, 0, closing...); !s.empty() {
			g.lineInsert(at, s, closeKey(depth))
		}
	} else if !allEmpty(closing) {
		at := int(g.toks[c.Last].End)
		g.edits.insert(at, g.joinLead(at, closing...), closeKey(depth))
	}
}

func allEmpty(segs []seg) bool {
	for _, s := range segs {
		if !s.empty() {
			return false
		}
	}
	return true
}

// join copies segments of gen.buf into the edit arena, separated by
// blanks, followed by nl line breaks. at is the source offset where the
// text goes: #pragma lines resynchronize to its line.
func (g *gen) join(at, nl int, segs ...seg) seg {
	a := len(g.edits.arena)
	for _, s := range segs {
		if s.empty() {
			continue
		}
		text := g.buf[s.a:s.b]
		if len(g.edits.arena) > a && text[0] != '\n' {
			g.edits.arena = append(g.edits.arena, ' ')
		}
		for {
			k := bytes.IndexByte(text, resyncLine)
			if k < 0 {
				break
			}
			g.edits.arena = append(g.edits.arena, text[:k]...)
			g.edits.arena = g.marker(g.edits.arena, at)
			text = text[k+1:]
		}
		g.edits.arena = append(g.edits.arena, text...)
	}
	for i := 0; i < nl; i++ {
		g.edits.arena = append(g.edits.arena, g.nl...)
	}
	return seg{a, len(g.edits.arena)}
}

// joinLead is join with a leading blank, for code placed after a token.
func (g *gen) joinLead(at int, segs ...seg) seg {
	a := len(g.edits.arena)
	g.edits.arena = append(g.edits.arena, ' ')
	s := g.join(at, 0, segs...)
	return seg{a, s.b}
}

// part builds one part in gen.buf: build writes words with w, call and
// pragma, which separates them by blanks.
func (g *gen) part(build func()) seg {
	a := len(g.buf)
	g.partStart = a
	build()
	return seg{a, len(g.buf)}
}

// w writes words into the current part.
func (g *gen) w(words ...string) {
	for _, s := range words {
		g.sep()
		g.buf = append(g.buf, s...)
	}
}

func (g *gen) sep() {
	if len(g.buf) > g.partStart && !(g.opts.PragmaLines && g.buf[len(g.buf)-1] == resyncLine) {
		g.buf = append(g.buf, ' ')
	}
}

// call writes fn(pomp_r(reg), args...);
func (g *gen) call(fn string, reg int, args ...string) {
	g.sep()
	g.buf = append(g.buf, fn...)
	g.buf = append(g.buf, "(pomp_r("...)
	g.buf = itoa(g.buf, reg)
	g.buf = append(g.buf, ')')
	for _, a := range args {
		g.buf = append(g.buf, ", "...)
		g.buf = append(g.buf, a...)
	}
	g.buf = append(g.buf, ");"...)
}

// pragma writes an OpenMP directive as a _Pragma operator, which may
// stand in the middle of a line, so the user's lines keep their numbers.
func (g *gen) pragma(name, arg string, hasArg bool, clauses []parser.Clause, extra ...string) {
	g.sep()
	g.tmp = append(g.tmp[:0], "omp "...)
	g.tmp = append(g.tmp, name...)
	if hasArg {
		g.tmp = append(g.tmp, '(')
		g.tmp = append(g.tmp, arg...)
		g.tmp = append(g.tmp, ')')
	}
	g.tmp = appendClauses(g.tmp, clauses, true)
	for _, e := range extra {
		g.tmp = append(g.tmp, ' ')
		g.tmp = append(g.tmp, e...)
	}
	if g.opts.PragmaLines {
		// A #pragma line, ended by resyncLine: join turns that into a
		// newline and a line marker for the insertion point.
		g.buf = append(g.buf, "\n#pragma "...)
		g.buf = append(g.buf, g.tmp...)
		g.buf = append(g.buf, resyncLine)
		return
	}
	g.buf = append(g.buf, "_Pragma("...)
	g.buf = appendQuoted(g.buf, g.tmp)
	g.buf = append(g.buf, ')')
}

// resyncLine stands in generated code for the end of a #pragma line; join
// replaces it with a newline and a line marker restoring the line of the
// insertion point.
const resyncLine = '\x01'

func has(cs []parser.Clause, name string) bool {
	for _, c := range cs {
		if c.Name == name {
			return true
		}
	}
	return false
}

// leaf returns the parts of one directive and registers its region.
func (g *gen) leaf(c *parser.Construct, s spec) (parts, int) {
	d := c.Dir
	if g.off[s.class] {
		return parts{pragma: g.part(func() { g.pragma(s.name, s.arg, s.hasArg, s.clauses) })}, -1
	}
	reg := region{
		kind:    kinds[s.class],
		file:    g.fileAt(d.Pos),
		begin:   g.line(d.Pos),
		end:     g.line(d.Pos),
		name:    d.Name,
		arg:     s.arg,
		hasArg:  s.hasArg,
		clauses: s.clauses,
	}
	if c.Last >= 0 {
		reg.end = g.line(int(g.toks[c.Last].Pos))
	}
	if s.class == parser.ClassCritical && s.hasArg {
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
	clauses := s.clauses
	if s.class == parser.ClassTask || s.class == parser.ClassTaskloop {
		clauses = g.untied(d, clauses, &reg)
		if has(s.clauses, "final") {
			reg.flags |= flagFinal
		}
		if has(s.clauses, "mergeable") {
			reg.flags |= flagMergeable
		}
	}
	var p parts
	rg := len(g.regions)
	cleanup := c.Cancellable
	prag := func(extra ...string) seg {
		return g.part(func() { g.pragma(s.name, s.arg, s.hasArg, clauses, extra...) })
	}
	// body wraps the structured block in begin and end events.
	body := func(begin, end string, args ...string) {
		if cleanup {
			fn := "POMP_Body_end_cleanup"
			switch s.class {
			case parser.ClassParallel:
				fn = "POMP_Parallel_end_cleanup"
			case parser.ClassTask:
				fn = "POMP_Task_end_cleanup"
			}
			p.open = g.part(func() { g.w("{"); g.cleanupVar(fn, rg); g.call(begin, rg, args...) })
			p.close = g.part(func() { g.w("}") })
			reg.flags |= flagCleanup
			return
		}
		p.open = g.part(func() { g.w("{"); g.call(begin, rg, args...) })
		p.close = g.part(func() { g.call(end, rg); g.w("}") })
	}
	// simple surrounds the directive with enter and exit events, saving
	// and restoring the current task around them if ids is set.
	simple := func(enter, exit string, ids bool) {
		p.pre = g.part(func() {
			g.w("{")
			if ids {
				g.w(save)
			}
			g.call(enter, rg)
		})
		p.pragma = prag()
		p.post = g.part(func() {
			if ids {
				g.w(restore)
			}
			g.call(exit, rg)
			g.w("}")
		})
	}
	// worksharing handles the implicit barrier of for, sections, single
	// and scope: turned into an explicit, measured barrier when that keeps
	// the meaning, kept otherwise.
	worksharing := func(enter, exit string) {
		switch {
		case has(s.clauses, "nowait"):
			reg.flags |= flagNowait
			simple(enter, exit, false)
		case s.afterParallel && !c.Cancellable:
			// The parallel region's barrier follows at once.
			simple(enter, exit, false)
			p.pragma = prag("nowait")
		case c.Cancellable || has(s.clauses, "copyprivate") || g.disabled("barrier"):
			// cancel needs the implicit barrier; copyprivate forbids nowait.
			reg.flags |= flagImplicitBarrier
			simple(enter, exit, true)
		default:
			reg.flags |= flagBarrier
			p.pre = g.part(func() { g.w("{"); g.call(enter, rg) })
			p.pragma = prag("nowait")
			p.post = g.part(func() {
				g.call(exit, rg)
				g.w("{", save)
				g.call("POMP_Implicit_barrier_enter", rg)
				g.pragma("barrier", "", false, nil)
				g.w(restore)
				g.call("POMP_Implicit_barrier_exit", rg)
				g.w("}", "}")
			})
		}
	}
	switch s.class {
	case parser.ClassParallel:
		p.pre = g.part(func() {
			g.w("{", save, "POMP_Task_info pomp_team =")
			g.call("POMP_Parallel_fork", rg, "pomp_old_task")
		})
		p.pragma = prag("firstprivate(pomp_old_task, pomp_team)")
		body("POMP_Parallel_begin", "POMP_Parallel_end", "pomp_old_task", "pomp_team")
		p.post = g.part(func() { g.call("POMP_Parallel_join", rg, "pomp_old_task"); g.w(restore, "}") })
	case parser.ClassFor:
		worksharing("POMP_For_enter", "POMP_For_exit")
	case parser.ClassSections:
		worksharing("POMP_Sections_enter", "POMP_Sections_exit")
	case parser.ClassSingle:
		worksharing("POMP_Single_enter", "POMP_Single_exit")
		body("POMP_Single_begin", "POMP_Single_end")
	case parser.ClassScope:
		worksharing("POMP_Scope_enter", "POMP_Scope_exit")
	case parser.ClassMaster:
		p.pre = g.part(func() { g.w("{") })
		p.pragma = prag()
		body("POMP_Master_begin", "POMP_Master_end")
		p.post = g.part(func() { g.w("}") })
	case parser.ClassCritical:
		simple("POMP_Critical_enter", "POMP_Critical_exit", false)
		body("POMP_Critical_begin", "POMP_Critical_end")
	case parser.ClassAtomic:
		simple("POMP_Atomic_enter", "POMP_Atomic_exit", false)
	case parser.ClassFlush:
		simple("POMP_Flush_enter", "POMP_Flush_exit", false)
	case parser.ClassBarrier:
		simple("POMP_Barrier_enter", "POMP_Barrier_exit", true)
	case parser.ClassTaskwait:
		simple("POMP_Taskwait_begin", "POMP_Taskwait_end", true)
	case parser.ClassTaskyield:
		simple("POMP_Taskyield_begin", "POMP_Taskyield_end", true)
	case parser.ClassTask:
		p.pre = g.part(func() {
			g.w("{", "POMP_Task_info pomp_task_info =")
			g.call("POMP_Task_create_begin", rg)
			g.w(save)
		})
		p.pragma = prag("firstprivate(pomp_old_task, pomp_task_info)")
		body("POMP_Task_begin", "POMP_Task_end", "pomp_old_task", "pomp_task_info")
		p.post = g.part(func() { g.w(restore); g.call("POMP_Task_create_end", rg); g.w("}") })
	case parser.ClassTaskgroup:
		simple("POMP_Taskgroup_enter", "POMP_Taskgroup_exit", true)
		body("POMP_Taskgroup_begin", "POMP_Taskgroup_end")
	case parser.ClassTaskloop:
		simple("POMP_Taskloop_enter", "POMP_Taskloop_exit", true)
	case parser.ClassOrdered:
		simple("POMP_Ordered_enter", "POMP_Ordered_exit", false)
		if c.Last >= 0 {
			body("POMP_Ordered_begin", "POMP_Ordered_end")
		}
	case parser.ClassSimd:
		simple("POMP_Simd_enter", "POMP_Simd_exit", false)
	case parser.ClassLoop:
		simple("POMP_Loop_enter", "POMP_Loop_exit", true)
	case parser.ClassCancel:
		simple("POMP_Cancel_enter", "POMP_Cancel_exit", false)
	case parser.ClassCancellationPoint:
		simple("POMP_Cancellation_point_enter", "POMP_Cancellation_point_exit", false)
	default:
		panic(fmt.Sprintf("rewrite: no instrumentation for %q", s.name))
	}
	return p, g.addRegion(reg)
}

// cleanupVar declares a variable whose cleanup handler delivers the end
// event when cancellation leaves a body.
func (g *gen) cleanupVar(fn string, reg int) {
	g.w("POMP_Region *pomp_end __attribute__((__cleanup__(" + fn + "))) =")
	g.sep()
	g.buf = append(g.buf, "pomp_r("...)
	g.buf = itoa(g.buf, reg)
	g.buf = append(g.buf, ");"...)
}

// untied applies --untied to the clauses of a task or taskloop.
func (g *gen) untied(d *parser.Directive, cs []parser.Clause, reg *region) []parser.Clause {
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
	g.notef(at.Off, "'untied' removed so that task identities stay exact (--untied=keep keeps it)")
	reg.flags |= flagTied
	out := make([]parser.Clause, 0, len(cs)-1)
	for _, c := range cs {
		if c.Name != "untied" {
			out = append(out, c)
		}
	}
	return out
}

// sections wraps every section of a sections construct in begin and end
// events. The end of a section is emitted just before the next section
// directive or the closing brace, so sections in #if branches stay
// balanced in every configuration.
func (g *gen) sections(c *parser.Construct, reg int) {
	if len(c.Sections) == 0 && !c.ImplicitFirst || reg < 0 {
		return
	}
	g.buf = g.buf[:0]
	open := g.part(func() {
		g.w("{")
		if c.Cancellable {
			g.cleanupVar("POMP_Body_end_cleanup", reg)
		}
		g.call("POMP_Section_begin", reg)
	})
	end := g.part(func() {
		if !c.Cancellable {
			g.call("POMP_Section_end", reg)
		}
		g.w("}")
	})
	section := g.part(func() { g.pragma("section", "", false, nil) })
	depth := c.Depth
	opened := false
	if c.ImplicitFirst {
		at := int(g.toks[c.First].End)
		g.edits.insert(at, g.joinLead(at, open), innerOpenKey(depth))
		opened = true
	}
	for _, k := range c.Sections {
		d := g.pr.Directives[g.dirIndex(k)]
		var text seg
		if opened {
			text = g.join(d.Pos, g.newlines(d.Pos, d.End), end, section, open)
		} else {
			text = g.join(d.Pos, g.newlines(d.Pos, d.End), section, open)
		}
		g.edits.replace(d.Pos, d.End, text)
		opened = true
	}
	if opened {
		at := int(g.toks[c.Last].Pos)
		s := g.join(at, 0, end)
		g.edits.arena = append(g.edits.arena, ' ')
		g.edits.insert(at, seg{s.a, s.b + 1}, innerCloseKey(depth))
	}
}

// dirIndex finds the directive whose token is k.
func (g *gen) dirIndex(k int) int {
	ds := g.pr.Directives
	i := sort.Search(len(ds), func(i int) bool { return ds[i].Tok >= k })
	if i == len(ds) || ds[i].Tok != k {
		panic("rewrite: no directive at token")
	}
	return i
}

// userRegion instruments #pragma pomp inst begin/end/altend.
func (g *gen) userRegion(u *parser.UserRegion) {
	if g.disabled("user") || u.NoCall {
		return
	}
	last := u.Begin
	if n := len(u.Ends); n > 0 {
		last = u.Ends[n-1]
	}
	i := g.addRegion(region{kind: "POMP_USER", file: g.fileAt(u.Begin.Pos), begin: g.line(u.Begin.Pos), end: g.line(last.Pos), name: "user region", sub: u.Name})
	g.buf = g.buf[:0]
	begin := g.part(func() { g.call("POMP_User_region_begin", i) })
	end := g.part(func() { g.call("POMP_User_region_end", i) })
	g.edits.replace(u.Begin.Pos, u.Begin.End, g.join(u.Begin.Pos, g.newlines(u.Begin.Pos, u.Begin.End), begin))
	for _, e := range u.Ends {
		g.edits.replace(e.Pos, e.End, g.join(e.Pos, g.newlines(e.Pos, e.End), end))
	}
}

// userControl instruments #pragma pomp inst init, on and off.
func (g *gen) userControl(d *parser.Directive) {
	if g.disabled("user") {
		return
	}
	fn := map[string]string{"inst init": "POMP_Init();", "inst on": "POMP_On();", "inst off": "POMP_Off();"}[d.Name]
	g.buf = g.buf[:0]
	text := g.part(func() { g.w(fn) })
	g.edits.replace(d.Pos, d.End, g.join(d.Pos, g.newlines(d.Pos, d.End), text))
}

var lockWrappers = map[string]string{
	"omp_init_lock": "POMP_Init_lock", "omp_init_lock_with_hint": "POMP_Init_lock_with_hint",
	"omp_destroy_lock": "POMP_Destroy_lock", "omp_set_lock": "POMP_Set_lock",
	"omp_unset_lock": "POMP_Unset_lock", "omp_test_lock": "POMP_Test_lock",
	"omp_init_nest_lock": "POMP_Init_nest_lock", "omp_init_nest_lock_with_hint": "POMP_Init_nest_lock_with_hint",
	"omp_destroy_nest_lock": "POMP_Destroy_nest_lock", "omp_set_nest_lock": "POMP_Set_nest_lock",
	"omp_unset_nest_lock": "POMP_Unset_nest_lock", "omp_test_nest_lock": "POMP_Test_nest_lock",
}

// lock turns a call of an OpenMP lock routine into a call of its wrapper,
// with the call site as first argument.
func (g *gen) lock(l parser.LockCall) {
	if g.disabled("locks") || !l.Call {
		return
	}
	if l.Paren+1 < len(g.toks) && g.toks[l.Paren+1].Kind == parser.Punct && g.toks[l.Paren+1].Sub == ')' {
		return // no arguments: leave the compiler's message to the user
	}
	i := g.addRegion(region{kind: "POMP_LOCK", file: g.fileAt(l.Offset), begin: g.line(l.Offset), end: g.line(l.Offset), name: "lock", sub: l.Name})
	t := g.toks[l.Tok]
	// A name split by backslash-newlines keeps its line breaks after the
	// wrapper's name, so that the lines keep their numbers.
	name := g.edits.add([]byte(lockWrappers[l.Name]))
	for k := g.newlines(int(t.Pos), int(t.End)); k > 0; k-- {
		g.edits.arena = append(g.edits.arena, g.nl...)
		name.b = len(g.edits.arena)
	}
	g.edits.replace(int(t.Pos), int(t.End), name)
	a := len(g.edits.arena)
	g.edits.arena = append(g.edits.arena, "pomp_r("...)
	g.edits.arena = itoa(g.edits.arena, i)
	g.edits.arena = append(g.edits.arena, "), "...)
	g.edits.insert(int(g.toks[l.Paren].End), seg{a, len(g.edits.arena)}, openKey(0))
}
