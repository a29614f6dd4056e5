package profile

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Directive returns the directive of the region alone: its name, or for
// a leaf of a combined construct (flag "combined") the leaf's own
// directive, as the construct's name spells it: "for" of "parallel for",
// "for simd" of "parallel for simd", "masked" of "parallel masked
// taskloop". Score-P names the regions of a combined construct so: one
// per leaf.
func (r *Region) Directive() string {
	if !r.HasFlag("combined") {
		return r.Name
	}
	words := strings.Fields(r.Name)
	for i, w := range words {
		if w == r.Kind || (r.Kind == "master" && w == "masked") {
			if i+1 < len(words) && words[i+1] == "simd" {
				return w + " simd"
			}
			return w
		}
	}
	return r.Name
}

// HasFlag reports whether the region has flag f ("combined", "untied", …).
func (r *Region) HasFlag(f string) bool { return slices.Contains(r.Flags, f) }

// Where is a region's place in the source: file:line or file:first-last;
// the file alone for a region that is no source construct (an MPI call,
// whose file is "MPI"). Every view names regions so.
func (r *Region) Where() string {
	if r.BeginLine == 0 {
		return r.File
	}
	if r.EndLine > r.BeginLine {
		return fmt.Sprintf("%s:%d-%d", r.File, r.BeginLine, r.EndLine)
	}
	return fmt.Sprintf("%s:%d", r.File, r.BeginLine)
}

// Label is a region's kind, with its name where it has one of its own
// (the directive of a combined construct, an MPI call's name) and its
// sub-name (a critical section's name, a user region's, a lock routine).
func (r *Region) Label() string {
	s := r.Kind
	if r.Name != r.Kind && r.Name != "" && r.Kind != "user" && r.Kind != "lock" {
		s += " (" + r.Name + ")"
	}
	if r.SubName != "" {
		s += " " + r.SubName
	}
	return s
}

// FrameName names what ran of region r, as Score-P names OpenMP regions
// and every view of a frame names it (the OTF2 export, call paths,
// pprof): "!$omp critical @file.c:12", the leaves of a combined
// construct each by its own directive ("!$omp parallel @file.c:3" and
// "!$omp for @file.c:3"), MPI calls by their names ("MPI_Send"). frame
// is what ran: "construct" (or "", "fork", "implicit": the construct
// itself), "task" (a task's execution: "!$omp taskloop task" for a
// taskloop's), "barrier" (an implicit barrier: "!$omp implicit
// barrier"), "body", "wait" and "chunk" (the construct's name with
// " (body)", " (wait)", " (chunk)") or "create" ("!$omp create task").
func (r *Region) FrameName(frame string) string {
	if r.Kind == "mpi" {
		return r.Name
	}
	name := r.Directive()
	if (r.Kind == "lock" || r.Kind == "user") && r.SubName != "" {
		name = r.SubName
	}
	at := " @" + r.File + ":" + strconv.Itoa(r.BeginLine)
	s := "!$omp " + name + at
	switch {
	case r.Kind == "lock":
		s = name + at
	case r.Kind == "user":
		s = name
	case r.Kind == "critical" && r.SubName != "":
		s = "!$omp critical (" + r.SubName + ")" + at
	}
	switch frame {
	case "task":
		if r.Kind == "taskloop" {
			s = "!$omp taskloop task" + at
		}
	case "barrier":
		s = "!$omp implicit barrier" + at
	case "body", "wait", "chunk":
		s += " (" + frame + ")"
	case "create":
		s = "!$omp create task" + at
	}
	return s
}
