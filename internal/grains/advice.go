package grains

import (
	"regexp"
	"strings"
)

// What the summary advises depends on what the code already does: a
// loop that is schedule(dynamic, 4) is not told to try schedule(dynamic),
// nor a static loop, whose chunks are as large as they get, to use
// larger chunks. The clauses are the region's, as written.

// A schedule is a loop's schedule clause: its kind (static, dynamic,
// guided, auto, runtime; "" without one) and its chunk size as written
// ("" without one).
type schedule struct{ kind, chunk string }

var scheduleRE = regexp.MustCompile(`\bschedule\s*\(\s*(?:[a-z_]+\s*(?:,\s*[a-z_]+\s*)?:\s*)?([a-z_]+)\s*(?:,\s*([^)]*?)\s*)?\)`)

func parseSchedule(clauses string) schedule {
	m := scheduleRE.FindStringSubmatch(clauses)
	if m == nil {
		return schedule{}
	}
	return schedule{m[1], m[2]}
}

// clauseArg returns the argument of clause name (grainsize, num_tasks)
// as written, without a modifier such as strict:, or "".
func clauseArg(clauses, name string) string {
	m := regexp.MustCompile(`\b` + name + `\s*\(([^)]*)\)`).FindStringSubmatch(clauses)
	if m == nil {
		return ""
	}
	arg := m[1]
	if i := strings.LastIndexByte(arg, ':'); i >= 0 {
		arg = arg[i+1:]
	}
	return strings.TrimSpace(arg)
}

// benefitAdvice says what to try for grains that cost more to hand out
// than they run.
func benefitAdvice(k Kind, clauses string) string {
	switch k {
	case Chunk:
		s := parseSchedule(clauses)
		switch {
		case s.kind == "" || (s.kind == "static" && s.chunk == ""):
			return "its chunks are already one per thread: the loop is too short to share (an if clause, or fuse it with a neighbour)"
		case s.kind == "runtime":
			return "set a larger chunk size in OMP_SCHEDULE"
		case s.kind == "auto":
			return "try schedule(static) or schedule(dynamic, k) with a large k"
		case s.chunk == "":
			return "give schedule(" + s.kind + ") a chunk size (larger chunks)"
		}
		return "use chunks larger than " + s.chunk
	case Taskloop:
		if g := clauseArg(clauses, "grainsize"); g != "" {
			return "raise grainsize above " + g
		}
		if n := clauseArg(clauses, "num_tasks"); n != "" {
			return "lower num_tasks below " + n
		}
		return "give it a grainsize (create fewer, larger tasks)"
	}
	return "raise the cutoff (create fewer, larger tasks)"
}

// balanceAdvice says what to try for a loop whose threads worked unevenly.
func balanceAdvice(clauses string) string {
	s := parseSchedule(clauses)
	switch s.kind {
	case "", "static":
		if s.chunk == "" {
			return "try schedule(dynamic) or schedule(static, k) with a small k"
		}
		return "try schedule(dynamic, " + s.chunk + ") or chunks smaller than " + s.chunk
	case "dynamic":
		if s.chunk == "" || s.chunk == "1" {
			return "it already hands out one iteration at a time: split its costly iterations"
		}
		return "try chunks smaller than " + s.chunk
	case "guided":
		return "try schedule(dynamic) with small chunks, or a smaller minimum chunk"
	case "runtime":
		return "set OMP_SCHEDULE to dynamic with small chunks"
	}
	return "try schedule(dynamic) or smaller chunks" // auto: the runtime's choice
}
