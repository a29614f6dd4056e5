package profile

import "fmt"

// Where is a region's place in the source: file:line or file:first-last,
// and an MPI call's file name.
func (r *Region) Where() string {
	if r.BeginLine == 0 { // not a source construct: an MPI call
		return r.File
	}
	if r.EndLine > r.BeginLine {
		return fmt.Sprintf("%s:%d-%d", r.File, r.BeginLine, r.EndLine)
	}
	return fmt.Sprintf("%s:%d", r.File, r.BeginLine)
}

// Label is a region's kind, with its name where it has one of its own.
func (r *Region) Label() string {
	s := r.Kind
	if r.Name != r.Kind && r.Kind != "user" && r.Kind != "lock" {
		s += " (" + r.Name + ")"
	}
	if r.SubName != "" {
		s += " " + r.SubName
	}
	return s
}
