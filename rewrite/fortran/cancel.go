package fortran

import "gopari/internal/constructs"

// cancel and cancellation point. C's instrumentation closes the bodies
// that cancellation leaves with cleanup handlers; Fortran has none, so
// the directive's region is entered and left just before it: its visits
// are counted, its time (a flag's test, or the jump) is not, and no frame
// is left open when cancellation jumps to the end of the cancelled
// region. A body that the jump leaves (parallel, section, single, task,
// taskgroup) is closed by the runtime at its thread's next event, as
// unmatched (docs/fortran.md); a do loop's has no end event, so
// cancel do is measured as in C.
func (r *rw) cancel(k int) {
	d := r.its[k].dir
	kind := constructs.Get(d.info.kind)
	reg := r.newRegion(k, k, d.info.kind, "", d.clauses)
	r.addBefore(r.its[k].first, r.open(call(kind.Enter.Name, reg), call(kind.Exit.Name, reg), "end block"))
}

// cancellable says whether the construct at k, whose body ends at e,
// holds a cancel or cancellation point directive of construct type typ
// ("do", "sections"): a cancelled worksharing construct must not have
// nowait (gfortran warns "cancel for inside nowait for construct"), so
// gopari keeps its implicit barrier, as for C.
func (r *rw) cancellable(k, e int, typ string) bool {
	for j := k + 1; j < e && j < len(r.its); j++ {
		d := r.its[j].dir
		if d == nil || d.end || (d.name != "cancel" && d.name != "cancellation point") {
			continue
		}
		if len(d.clauses) > 0 && d.clauses[0].name == typ {
			return true
		}
	}
	return false
}
