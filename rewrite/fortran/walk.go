package fortran

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"gopari/internal/constructs"
)

// walk instruments the items in source order.
func (r *rw) walk() {
	for k := 0; k < len(r.its); k++ {
		if r.done[k] || k <= r.skip {
			continue
		}
		it := r.its[k]
		switch {
		case it.isPomp:
			r.pomp(k)
		case it.dir == nil:
			if !r.lockCall(k) {
				r.testCall(k)
			}
		default:
			r.directive(k)
		}
	}
}

// findEnd returns the index of the end directive of the block construct
// at k, or -1.
func (r *rw) findEnd(k int) int {
	name := r.its[k].dir.name
	depth := 0
	for j := k + 1; j < len(r.its); j++ {
		d := r.its[j].dir
		if d == nil || d.name != name {
			continue
		}
		switch {
		case !d.end:
			if last, end := r.strictBlock(j); last >= 0 {
				j = max(last, end) // a nested construct that may lack its end directive
			} else {
				depth++
			}
		case depth == 0:
			return j
		default:
			depth--
		}
	}
	return -1
}

var blockRx = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([A-Z][A-Z0-9_]*:)?BLOCK$`) })

// strictBlock returns, for a block construct at k whose body is a
// strictly structured block (BLOCK ... END BLOCK, OpenMP 5.1), the item
// of its END BLOCK and the end directive that follows it, if any (else
// -1); or -1, -1.
func (r *rw) strictBlock(k int) (last, end int) {
	d := r.its[k].dir
	if d.info.shape != sBlock || k+1 >= len(r.its) || !blockRx().MatchString(r.its[k+1].norm) {
		return -1, -1
	}
	depth := 0
	for j := k + 1; j < len(r.its); j++ {
		n := r.its[j].norm
		switch {
		case r.its[j].dir != nil || r.its[j].isPomp:
		case blockRx().MatchString(n):
			depth++
		case strings.HasPrefix(n, "ENDBLOCK") && !strings.HasPrefix(n, "ENDBLOCKDATA"):
			if depth--; depth == 0 {
				if e := j + 1; e < len(r.its) && r.its[e].dir != nil && r.its[e].dir.end && r.its[e].dir.name == d.name {
					return j, e
				}
				return j, -1
			}
		}
	}
	return -1, -1
}

// loopAt returns the item that ends the loop after the directive at k and
// the end directive that follows it, if any (else -1).
func (r *rw) loopAt(k int) (last, end int) {
	last = loopEnd(r.its, k+1)
	if last < 0 {
		return -1, -1
	}
	if e := last + 1; e < len(r.its) {
		if d := r.its[e].dir; d != nil && d.end && d.name == r.its[k].dir.name {
			return last, e
		}
	}
	return last, -1
}

func (r *rw) directive(k int) {
	d := r.its[k].dir
	if d.bad != "" {
		r.fail(k, "cannot read the directive: %s", d.bad)
		if !d.end && d.info.shape == sBlock {
			if e := r.findEnd(k); e >= 0 {
				r.done[e] = true // one error, not two
			}
		}
		return
	}
	if d.name == "" {
		r.warn(k, "unknown OpenMP directive %q left as written", d.words)
		return
	}
	if d.end {
		if d.info.shape != sLoop && d.info.shape != sAtomic {
			r.fail(k, "!$omp end %s without !$omp %s", d.name, d.name)
		}
		return // an end directive of a loop that findEnd did not claim: left as written
	}
	if d.info.shape == sOpaque || d.info.kind == 0 {
		r.passOver(k)
		return
	}
	if r.disabled(d.info.kind) && d.info.leaves == nil {
		r.passOver(k)
		return
	}
	switch {
	case d.info.leaves != nil:
		r.combined(k)
	case d.info.shape == sLoop:
		r.loop(k)
	case d.info.shape == sBlock:
		r.block(k)
	case d.info.shape == sAtomic:
		r.atomic(k)
	case d.info.kind == constructs.Cancel || d.info.kind == constructs.CancellationPoint:
		r.cancel(k)
	case d.info.shape == sNone:
		r.standalone(k)
	case d.info.shape == sSection:
		r.fail(k, "!$omp section outside !$omp sections")
	}
}

// passOver leaves a construct as written, and its insides when they are
// a simd loop or a target or teams region.
func (r *rw) passOver(k int) {
	d := r.its[k].dir
	switch d.info.shape {
	case sLoop:
		if d.info.inner {
			last, end := r.loopAt(k)
			r.skip = max(last, end)
		}
		if d.info.kind == 0 {
			r.warn(k, "!$omp %s is not instrumented in Fortran; left as written", d.name)
		}
	case sOpaque:
		if len(d.clauses) > 0 && (d.clauses[0].name == "update" || d.clauses[0].name == "enter" || d.clauses[0].name == "exit") {
			return
		}
		if e := r.findEnd(k); e >= 0 {
			r.skip = e
		} else if last, end := r.loopAt(k); last >= 0 {
			r.skip = max(last, end)
		}
	}
}

// flagsOf returns the region flags a directive's clauses say.
func flagsOf(cs []clause) []string {
	var f []string
	for _, c := range cs {
		switch c.name {
		case "if":
			f = append(f, "POMP_FLAG_IF")
		case "final":
			f = append(f, "POMP_FLAG_FINAL")
		case "mergeable":
			f = append(f, "POMP_FLAG_MERGEABLE")
		case "depend", "doacross":
			f = append(f, "POMP_FLAG_DEPEND")
		}
	}
	return f
}

// newRegion makes the region of the directive at k, which ends at item e.
func (r *rw) newRegion(k, e int, kind constructs.ID, name string, cs []clause, flags ...string) string {
	l := r.lines[r.its[k].first]
	d := r.its[k].dir
	sub := ""
	if d.hasArg && d.name == "critical" {
		sub = strings.ToLower(d.arg)
	}
	if name == "" {
		name = d.name
	}
	return r.addRegion(region{kind: kind, flags: append(flags, flagsOf(cs)...), begin: l.num, end: r.lineOf(e, true),
		file: l.file, name: name, sub: sub, c: clauseText(cs)})
}

// open starts the block that holds a construct's variables.
func (r *rw) open(vars ...string) []string {
	head := []string{"block", "use pomp_unit_" + r.unit}
	if r.body[1] > r.body[0] {
		head = append(head, r.ompUse(r.body[0], r.body[1])...)
	}
	return r.code(append(head, vars...)...)
}

const (
	declOld  = "integer(pomp_handle_kind) :: pomp_old_task"
	saveTask = "pomp_old_task = POMP_Get_current_task()"
	restore  = "call POMP_Set_current_task(pomp_old_task)"
)

func call(name, reg string, args ...string) string {
	return fmt.Sprintf("call %s(%s)", name, strings.Join(append([]string{reg}, args...), ", "))
}

// standalone: barrier, taskwait, taskyield, flush, ordered with depend.
func (r *rw) standalone(k int) {
	d := r.its[k].dir
	kind := constructs.Get(d.info.kind)
	cs := d.clauses
	name := d.name
	if d.hasArg {
		name += " (" + d.arg + ")"
	}
	reg := r.newRegion(k, k, d.info.kind, "", cs)
	if kind.Save {
		r.addBefore(r.its[k].first, r.open(declOld, saveTask, call(kind.Enter.Name, reg)))
		r.addAfter(r.its[k].last, r.code(restore, call(kind.Exit.Name, reg), "end block"))
	} else {
		r.addBefore(r.its[k].first, r.open(call(kind.Enter.Name, reg)))
		r.addAfter(r.its[k].last, r.code(call(kind.Exit.Name, reg), "end block"))
	}
	r.setDirective(k, name, cs)
}

// block: the constructs closed by an end directive.
func (r *rw) block(k int) {
	d := r.its[k].dir
	if d.name == "ordered" && (d.has("depend") || d.has("doacross")) {
		r.standalone(k)
		return
	}
	if last, end := r.strictBlock(k); last >= 0 {
		// Its end directive is optional: gopari writes one, since its
		// calls make the body more than the BLOCK construct.
		var endCs []clause
		if end >= 0 {
			r.done[end] = true
			endCs = r.its[end].dir.clauses
		}
		r.wrapBlock(k, last, end, d.name, d.clauses, endCs, true)
		return
	}
	e := r.findEnd(k)
	if e < 0 {
		r.fail(k, "!$omp %s without !$omp end %s", d.name, d.name)
		return
	}
	r.done[e] = true
	r.wrapBlock(k, e, -1, d.name, d.clauses, nil, false)
}

// wrapBlock instruments the construct name at k. For a block, e is its
// end directive; for a loop, e is the loop's last statement and endDir
// its end directive or -1. endCs are the clauses of the end directive.
func (r *rw) wrapBlock(k, e, endDir int, name string, cs, endCs []clause, loop bool) {
	d := r.its[k].dir
	r.body = [2]int{k, e}
	defer func() { r.body = [2]int{} }()
	kind := d.info.kind
	if !loop {
		endCs = r.its[e].dir.clauses
	}
	ws := kind == constructs.For || kind == constructs.Sections || kind == constructs.Single || kind == constructs.Scope
	if ws && !hasClause(endCs, "copyprivate") && !r.cancellable(k, e, name) {
		endCs = append(without(endCs, "nowait"), clause{name: "nowait"})
	}
	dirName := name
	if d.hasArg {
		dirName += " (" + d.arg + ")"
	}
	// The body's last lines and the lines after the end directive,
	// placed once the construct's code is known.
	var body, after []string
	bodyEnd := func(s []string) { body = append(body, s...) }
	tail := func(s []string) { after = append(after, s...) }
	defer func() {
		switch {
		case !loop:
			r.addBefore(r.its[e].first, body)
			r.addAfter(r.its[e].last, after)
		case endDir >= 0:
			r.addAfter(r.its[e].last, body)
			r.addAfter(r.its[endDir].last, after)
		case len(endCs) > 0 || d.info.shape == sBlock:
			r.addAfter(r.its[e].last, append(append(body, r.dirLines("end "+dirName, endCs)...), after...))
		default:
			r.addAfter(r.its[e].last, append(body, after...))
		}
	}()
	switch {
	case !loop:
		r.setDirective(e, "end "+dirName, endCs)
	case endDir >= 0:
		r.setDirective(endDir, "end "+dirName, endCs)
	}
	switch {
	case kind == constructs.Taskloop:
		r.taskloop(k, e, cs, tail)
	case kind == constructs.Parallel:
		r.parallel(k, e, name, cs, bodyEnd, tail)
	case kind == constructs.Task:
		r.task(k, e, cs, bodyEnd, tail)
	case ws:
		r.worksharing(k, e, kind, name, cs, endCs, bodyEnd, tail)
	default:
		spec := constructs.Get(kind)
		reg := r.newRegion(k, e, kind, "", cs)
		var pre, post []string
		if spec.Save {
			pre = append(pre, declOld, saveTask)
		}
		if spec.Enter.Name != "" {
			pre = append(pre, call(spec.Enter.Name, reg))
		}
		r.addBefore(r.its[k].first, r.open(pre...))
		r.setDirective(k, dirName, cs)
		if spec.Begin.Name != "" {
			r.addAfter(r.its[k].last, r.code(call(spec.Begin.Name, reg)))
			bodyEnd(r.code(call(spec.End.Name, reg)))
		}
		if spec.Save {
			post = append(post, restore)
		}
		if spec.Exit.Name != "" {
			post = append(post, call(spec.Exit.Name, reg))
		}
		tail(r.code(append(post, "end block")...))
	}
	if kind == constructs.Sections {
		r.sections(k, e, fmt.Sprintf("pomp_r(%d)", len(r.regions)-1), r.its[k].last, true)
	}
}

func (r *rw) parallel(k, e int, name string, cs []clause, bodyEnd, tail func([]string)) {
	reg := r.newRegion(k, e, constructs.Parallel, "", cs)
	r.addBefore(r.its[k].first, r.open(declOld, "type(pomp_task_info) :: pomp_team", saveTask,
		call("POMP_Parallel_fork", reg, "pomp_old_task", "pomp_team")))
	cs = append(append([]clause(nil), cs...), clause{name: "firstprivate", args: "pomp_old_task, pomp_team", hasArgs: true})
	r.setDirective(k, name, cs)
	r.addAfter(r.its[k].last, r.code(call("POMP_Parallel_begin", reg, "pomp_old_task", "pomp_team")))
	bodyEnd(r.code(call("POMP_Parallel_end", reg)))
	tail(r.code(call("POMP_Parallel_join", reg, "pomp_old_task"), restore, "end block"))
}

func (r *rw) task(k, e int, cs []clause, bodyEnd, tail func([]string)) {
	var flags []string
	if hasClause(cs, "untied") {
		if r.o.KeepUntied {
			flags = append(flags, "POMP_FLAG_UNTIED")
		} else {
			flags = append(flags, "POMP_FLAG_TIED")
			cs = without(cs, "untied")
		}
	}
	reg := r.newRegion(k, e, constructs.Task, "", cs, flags...)
	r.addBefore(r.its[k].first, r.open("integer(pomp_handle_kind) :: pomp_task_id, pomp_task_ctx", declOld,
		"pomp_task_id = POMP_Task_create_begin("+reg+", pomp_task_ctx)", saveTask))
	cs = append(append([]clause(nil), cs...), clause{name: "firstprivate", args: "pomp_task_id, pomp_task_ctx", hasArgs: true})
	r.setDirective(k, "task", cs)
	r.addAfter(r.its[k].last, r.code(call("POMP_Task_begin", reg, "pomp_task_id", "pomp_task_ctx")))
	bodyEnd(r.code(call("POMP_Task_end", reg)))
	tail(r.code(restore, call("POMP_Task_create_end", reg, "pomp_task_ctx"), "end block"))
}

func hasClause(cs []clause, name string) bool {
	for _, c := range cs {
		if c.name == name {
			return true
		}
	}
	return false
}

// worksharing: do, sections, single, workshare, scope. Their implicit
// barrier becomes an explicit one, measured, unless the user wrote
// nowait (endCs, the end directive's clauses as written, then carries
// it: the caller added nowait to the others) or single has copyprivate.
func (r *rw) worksharing(k, e int, kind constructs.ID, name string, cs, endCs []clause, bodyEnd, tail func([]string)) {
	spec := constructs.Get(kind)
	userNowait := hasClause(r.endClausesAsWritten(k, e), "nowait")
	keep := hasClause(endCs, "copyprivate") || r.cancellable(k, e, name)
	flags := []string{"POMP_FLAG_BARRIER"}
	switch {
	case userNowait:
		flags = []string{"POMP_FLAG_NOWAIT"}
	case keep:
		flags = []string{"POMP_FLAG_IMPLICIT_BARRIER"}
	}
	reg := r.newRegion(k, e, kind, name, cs, flags...)
	ck := r.chunkPlan(k, name, reg, cs)
	pre := append([]string{declOld}, ck.decls...)
	if keep {
		pre = append(pre, saveTask)
	}
	r.addBefore(r.its[k].first, r.open(append(append(pre, call(spec.Enter.Name, reg)), ck.init...)...))
	r.setDirective(k, name, cs)
	if ck.hook != nil {
		r.addAfter(r.its[k+1].last, r.code(ck.hook...))
	}
	if spec.Begin.Name != "" {
		r.addAfter(r.its[k].last, r.code(call(spec.Begin.Name, reg)))
		bodyEnd(r.code(call(spec.End.Name, reg)))
	}
	post := r.code(ck.close...)
	switch {
	case keep:
		post = append(post, r.code(restore, call(spec.Exit.Name, reg))...)
	case userNowait:
		post = append(post, r.code(call(spec.Exit.Name, reg))...)
	default:
		b := constructs.ImplicitBarrier
		post = append(post, r.code(call(spec.Exit.Name, reg), saveTask, call(b.Enter.Name, reg))...)
		post = append(post, r.dirLines("barrier", nil)...)
		post = append(post, r.code(restore, call(b.Exit.Name, reg))...)
	}
	tail(append(post, r.code("end block")...))
}

// endClausesAsWritten returns the clauses of the user's end directive of
// the construct at k (e: its end directive or its loop's last statement).
func (r *rw) endClausesAsWritten(k, e int) []clause {
	for _, j := range []int{e, e + 1} {
		if j < len(r.its) && j > k {
			if d := r.its[j].dir; d != nil && d.end && d.name == r.its[k].dir.name {
				return d.clauses
			}
		}
	}
	return nil
}

// sections numbers the sections of a sections construct whose body
// starts after line first and ends at item e (its end directive), with
// calls of region reg.
func (r *rw) sections(k, e int, reg string, first int, closeLast bool) {
	// The first section directive is optional; when it is written, the
	// first section begins after it, not before.
	depth, n := 0, -1
	if d := r.its[k+1].dir; k+1 >= e || d == nil || d.name != "section" {
		n = 0
		r.addAfter(first, r.code(fmt.Sprintf("call POMP_Section_begin(%s, %d_pomp_int_kind)", reg, n)))
	}
	for j := k + 1; j < e; j++ {
		d := r.its[j].dir
		if d == nil {
			continue
		}
		if d.name == "sections" || d.name == "parallel sections" {
			if d.end {
				depth--
			} else {
				depth++
			}
		}
		if d.name == "section" && depth == 0 {
			n++
			r.done[j] = true
			if n > 0 {
				r.addBefore(r.its[j].first, r.code(call("POMP_Section_end", reg)))
			}
			r.addAfter(r.its[j].last, r.code(fmt.Sprintf("call POMP_Section_begin(%s, %d_pomp_int_kind)", reg, n)))
		}
	}
	if closeLast {
		r.addBefore(r.its[e].first, r.code(call("POMP_Section_end", reg)))
	}
}

// loop: do, do simd, simd, loop.
func (r *rw) loop(k int) {
	d := r.its[k].dir
	last, end := r.loopAt(k)
	if last < 0 {
		r.fail(k, "!$omp %s is not followed by a DO loop", d.name)
		return
	}
	if d.info.kind == constructs.Taskloop && !r.taskloopOK(k, last) {
		return
	}
	var endCs []clause
	if end >= 0 {
		r.done[end] = true
		endCs = r.its[end].dir.clauses
	}
	if d.info.inner {
		r.skip = max(last, end)
	}
	r.wrapBlock(k, last, end, d.name, d.clauses, endCs, true)
}

// combined: parallel do, parallel do simd, parallel sections, parallel
// workshare. The directive becomes a parallel region whose body is the
// inner construct, ended by nowait: the region's own barrier follows.
func (r *rw) combined(k int) {
	d := r.its[k].dir
	defer func() { r.body = [2]int{} }()
	inner := d.info.leaves[1]
	par, in := split(d.clauses, inner)
	innerKind := map[string]constructs.ID{"do": constructs.For, "do simd": constructs.For,
		"sections": constructs.Sections, "workshare": constructs.For}[inner]
	last, end, e := r.combinedEnd(k)
	if e < 0 {
		return
	}
	r.body = [2]int{k, e}
	l := r.lines[r.its[k].first]
	parOn, innerOn := !r.disabled(constructs.Parallel), !r.disabled(innerKind)
	preg, ireg := "", ""
	var head, closing []string
	ck := &chunkPlan{}
	if parOn {
		preg = r.addRegion(region{kind: constructs.Parallel, flags: append([]string{"POMP_FLAG_COMBINED"}, flagsOf(par)...),
			begin: l.num, end: r.lineOf(e, true), file: l.file, name: d.name, c: clauseText(par)})
		r.addBefore(r.its[k].first, r.open(declOld, "type(pomp_task_info) :: pomp_team", saveTask,
			call("POMP_Parallel_fork", preg, "pomp_old_task", "pomp_team")))
		par = append(par, clause{name: "firstprivate", args: "pomp_old_task, pomp_team", hasArgs: true})
	}
	head = r.dirLines("parallel", par)
	if parOn {
		head = append(head, r.code(call("POMP_Parallel_begin", preg, "pomp_old_task", "pomp_team"))...)
	}
	spec := constructs.Get(innerKind)
	// A cancellable inner construct keeps its implicit barrier (cancel.go).
	keep := r.cancellable(k, e, inner)
	if innerOn {
		flags := []string{"POMP_FLAG_COMBINED"}
		var pre []string
		if keep {
			flags, pre = append(flags, "POMP_FLAG_IMPLICIT_BARRIER"), []string{declOld, saveTask}
		}
		ireg = r.addRegion(region{kind: innerKind, flags: append(flags, flagsOf(in)...),
			begin: l.num, end: r.lineOf(e, true), file: l.file, name: d.name, c: clauseText(in)})
		ck = r.chunkPlan(k, inner, ireg, in)
		head = append(head, r.open(append(append(append(pre, ck.decls...), call(spec.Enter.Name, ireg)), ck.init...)...)...)
		if ck.hook != nil {
			r.addAfter(r.its[k+1].last, r.code(ck.hook...))
		}
	}
	r.replaceItem(k, append(head, r.dirLines(inner, in)...))
	if innerOn && innerKind == constructs.Sections {
		r.sections(k, e, ireg, r.its[k].last, false)
		closing = append(closing, r.code(call("POMP_Section_end", ireg))...)
	}
	if keep {
		closing = append(closing, r.dirLines("end "+inner, nil)...)
	} else {
		closing = append(closing, r.dirLines("end "+inner, []clause{{name: "nowait"}})...)
	}
	if innerOn {
		post := ck.close
		if keep {
			post = append(append([]string(nil), post...), restore)
		}
		closing = append(closing, r.code(append(post, call(spec.Exit.Name, ireg), "end block")...)...)
	}
	closing = append(closing, r.parallelClose(preg)...)
	if end >= 0 {
		r.replaceItem(end, closing) // the user's end directive becomes the closing lines
		return
	}
	r.addAfter(r.its[last].last, closing)
}

// combinedEnd returns the loop's last statement (-1 for a block), the end
// directive (or -1) and the last item of the combined construct at k, or
// e = -1 after an error.
func (r *rw) combinedEnd(k int) (last, end, e int) {
	d := r.its[k].dir
	last, end = -1, -1
	if d.info.shape == sLoop {
		if last, end = r.loopAt(k); last < 0 {
			r.fail(k, "!$omp %s is not followed by a DO loop", d.name)
			return -1, -1, -1
		}
		if d.info.inner {
			r.skip = max(last, end)
		}
	} else if end = r.findEnd(k); end < 0 {
		r.fail(k, "!$omp %s without !$omp end %s", d.name, d.name)
		return -1, -1, -1
	}
	if end < 0 {
		return last, end, last
	}
	r.done[end] = true
	return last, end, end
}

// atomic: one statement, or a block closed by end atomic.
func (r *rw) atomic(k int) {
	d := r.its[k].dir
	e := -1
	for j := k + 1; j < len(r.its) && j <= k+3; j++ {
		if x := r.its[j].dir; x != nil {
			if x.end && x.name == "atomic" {
				e = j
			}
			break
		}
	}
	last := k + 1
	if e >= 0 {
		r.done[e] = true
		last = e
		r.setDirective(e, "end atomic", r.its[e].dir.clauses)
	}
	if last >= len(r.its) {
		r.fail(k, "!$omp atomic at the end of the file")
		return
	}
	reg := r.newRegion(k, last, constructs.Atomic, "", d.clauses)
	r.addBefore(r.its[k].first, r.open(call("POMP_Atomic_enter", reg)))
	r.setDirective(k, "atomic", d.clauses)
	r.addAfter(r.its[last].last, r.code(call("POMP_Atomic_exit", reg), "end block"))
}

// pomp: !$pomp inst begin(name) / end(name) / altend(name) / init / on / off.
func (r *rw) pomp(k int) {
	t := strings.ToLower(strings.Join(strings.Fields(r.its[k].pompText), " "))
	if !strings.HasPrefix(t, "inst ") {
		r.warn(k, "unknown !$pomp directive left as written")
		return
	}
	t = strings.TrimSpace(t[5:])
	switch t {
	case "init", "on", "off":
		fn := map[string]string{"init": "POMP_Init", "on": "POMP_On", "off": "POMP_Off"}[t]
		r.replace[r.its[k].first] = r.open("call "+fn+"()", "end block")
		return
	}
	op, name, ok := strings.Cut(t, "(")
	op = strings.TrimSpace(op)
	name = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(name), ")"))
	if !ok || name == "" || op != "begin" {
		if op == "end" || op == "altend" {
			return // handled with its begin
		}
		r.warn(k, "unknown !$pomp directive left as written")
		return
	}
	var ends []int
	for j := k + 1; j < len(r.its); j++ {
		if !r.its[j].isPomp {
			continue
		}
		u := strings.ToLower(strings.Join(strings.Fields(r.its[j].pompText), ""))
		if u == "instend("+name+")" || u == "instaltend("+name+")" {
			ends = append(ends, j)
			if strings.HasPrefix(u, "instend") {
				break
			}
		}
	}
	if len(ends) == 0 || !strings.HasPrefix(strings.ToLower(strings.Join(strings.Fields(r.its[ends[len(ends)-1]].pompText), "")), "instend") {
		r.fail(k, "!$pomp inst begin(%s) without !$pomp inst end(%s)", name, name)
		return
	}
	if r.disabled(constructs.User) {
		return
	}
	l := r.lines[r.its[k].first]
	reg := r.addRegion(region{kind: constructs.User, begin: l.num, end: r.lineOf(ends[len(ends)-1], true), file: l.file, name: "user region", sub: name})
	r.replace[r.its[k].first] = r.open(call("POMP_User_region_begin", reg), "end block")
	for _, j := range ends {
		r.replace[r.its[j].first] = r.open(call("POMP_User_region_end", reg), "end block")
	}
}

// chunkPlan returns the chunk code of a do loop under --chunks (an empty
// plan otherwise), and marks its region.
func (r *rw) chunkPlan(k int, name, reg string, cs []clause) *chunkPlan {
	if !r.o.Chunks || name != "do" {
		return &chunkPlan{}
	}
	p, why := r.chunks(k+1, reg, cs)
	if p == nil {
		r.warn(k, "no chunk grains for this loop: %s", why)
		return &chunkPlan{}
	}
	last := &r.regions[len(r.regions)-1]
	last.flags = append(last.flags, "POMP_FLAG_CHUNKS")
	return p
}

// parallelClose ends the parallel leaf of a combined construct: its
// region's calls around the end directive, when the leaf is measured
// (preg is its region).
func (r *rw) parallelClose(preg string) []string {
	if preg == "" {
		return r.dirLines("end parallel", nil)
	}
	out := append(r.code(call("POMP_Parallel_end", preg)), r.dirLines("end parallel", nil)...)
	return append(out, r.code(call("POMP_Parallel_join", preg, "pomp_old_task"), restore, "end block")...)
}
