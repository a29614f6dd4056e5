package fortran

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"gopari/internal/constructs"
)

// A taskloop, as rewrite/taskloop.go writes it for C: the encountering
// task's handle is saved around it, each generated task gets a fresh copy
// of pomp_tl (firstprivate) that the first iteration it runs begins, and
// the loop is described to the runtime (bounds, step, grainsize or
// num_tasks), which then knows how many iterations each task got. Where C
// ends an iteration with a cleanup handler, Fortran calls
// POMP_Taskloop_iteration_end at the bottom of the body. Were it skipped,
// the task's end would be observed at its thread's next event, never
// later than the taskloop's end (unless nogroup). So that a CYCLE does not
// skip it, the body runs inside a DO loop of one trip, and a labeled
// CONTINUE that ends the loop (the target of a GO TO) becomes the call.

var tlSchedRx = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)^\s*(strict\s*:)?\s*(.*)$`) })

// taskloop instruments the taskloop at k whose loop ends with item last:
// a loop with a loop control that ends with END DO or a CONTINUE of its
// own (loop checks).
func (r *rw) taskloop(k, last int, cs []clause, tail func([]string)) {
	head := doHeadRx().FindStringSubmatch(r.its[k+1].raw)
	end := r.its[last]
	var flags []string
	if hasClause(cs, "untied") {
		if r.o.KeepUntied {
			flags = append(flags, "POMP_FLAG_UNTIED")
		} else {
			flags = append(flags, "POMP_FLAG_TIED")
			cs = without(cs, "untied")
		}
	}
	reg := r.newRegion(k, last, constructs.Taskloop, "", cs, flags...)
	pre := []string{declOld, "type(pomp_taskloop_info) :: pomp_tl", "integer(pomp_handle_kind) :: pomp_s0",
		"integer :: pomp_k", saveTask, call("POMP_Taskloop_enter", reg, "pomp_old_task", "pomp_tl")}
	pre = append(pre, describeTaskloop(head, cs)...)
	r.addBefore(r.its[k].first, r.open(pre...))
	r.setDirective(k, "taskloop", append(append([]clause(nil), cs...), clause{name: "firstprivate", args: "pomp_tl", hasArgs: true}))
	// The body runs in a loop of one trip, whose end a CYCLE reaches too.
	r.addAfter(r.its[k+1].last, r.code("call POMP_Taskloop_iteration(pomp_tl, int("+head[1]+", pomp_handle_kind))", "do pomp_k = 1, 1"))
	if end.label == "" {
		r.addBefore(end.first, r.code("end do", "call POMP_Taskloop_iteration_end(pomp_tl)"))
	} else {
		// A GO TO the label ends the iteration too: the label moves to
		// the call, which ends the DO in the CONTINUE's place.
		lines := r.code("end do")
		if r.o.Form == Fixed {
			lines = append(lines, fmt.Sprintf("%-5s call POMP_Taskloop_iteration_end(pomp_tl)", end.label))
		} else {
			lines = append(lines, end.label+" call POMP_Taskloop_iteration_end(pomp_tl)")
		}
		r.replace[end.first] = lines
		for i := end.first + 1; i <= end.last; i++ {
			r.drop[i] = true
		}
	}
	tail(r.code(restore, call("POMP_Taskloop_exit", reg), "end block"))
}

// taskloopOK reports whether gopari instruments the taskloop at k whose
// loop ends at item last, and warns when it does not.
func (r *rw) taskloopOK(k, last int) bool {
	why := ""
	for _, c := range r.its[k].dir.clauses {
		if c.name == "collapse" && strings.TrimSpace(c.args) != "1" {
			why = "it collapses a nest"
		}
	}
	if why == "" && (doHeadRx().FindStringSubmatch(r.its[k+1].raw) == nil || !r.endsOwnLoop(k+1, last)) {
		why = "its loop must have a loop control and end with END DO or a CONTINUE of its own"
	}
	if why != "" {
		r.warn(k, "!$omp taskloop left as written: %s", why)
	}
	return why == ""
}

// endsOwnLoop reports whether the loop at item do ends at item last with
// END DO, or with a CONTINUE, alone on its line, whose label no other DO
// names.
func (r *rw) endsOwnLoop(do, last int) bool {
	if isEndDo(r.its[last].norm) && r.its[last].label == "" {
		return true
	}
	lab := r.its[last].label
	if lab == "" || r.its[last].norm != "CONTINUE" || r.its[last-1].last >= r.its[last].first ||
		last+1 < len(r.its) && r.its[last+1].first <= r.its[last].last {
		return false
	}
	n := 0
	for j := do; j < last; j++ {
		if ok, l := doLabel(r.its[j].norm); ok && l == lab {
			n++
		}
	}
	return n == 1
}

// describeTaskloop returns the calls that describe a taskloop's loop and
// its grainsize or num_tasks clause.
func describeTaskloop(head []string, cs []clause) []string {
	b := splitTop(head[2])
	if len(b) < 2 {
		return nil
	}
	step := "1"
	if len(b) == 3 {
		step = b[2]
	}
	out := []string{"pomp_s0 = int(" + step + ", pomp_handle_kind)",
		"call POMP_Taskloop_loop(pomp_tl, 0_pomp_int_kind, int(" + b[0] + ", pomp_handle_kind), int(" + b[1] +
			", pomp_handle_kind), pomp_s0, merge(2_pomp_int_kind, 4_pomp_int_kind, pomp_s0 > 0))"}
	for _, c := range cs {
		kind := map[string]int{"num_tasks": 1, "grainsize": 2}[c.name]
		if kind == 0 || !c.hasArgs {
			continue
		}
		m := tlSchedRx().FindStringSubmatch(c.args)
		if m[1] != "" {
			kind += 2 // POMP_TL_NUM_TASKS_STRICT, POMP_TL_GRAINSIZE_STRICT
		}
		out = append(out, "call POMP_Taskloop_schedule(pomp_tl, "+string(rune('0'+kind))+"_pomp_int_kind, int("+
			strings.TrimSpace(m[2])+", pomp_handle_kind))")
	}
	return out
}
