// How every command names a region and prints its times.

package main

import (
	"fmt"

	"gopari/internal/profile"
)

// where is a region's place in the source: file:line or file:first-last.
func where(r *profile.Region) string {
	if r.BeginLine == 0 { // not a source construct: an MPI call
		return r.File
	}
	if r.EndLine > r.BeginLine {
		return fmt.Sprintf("%s:%d-%d", r.File, r.BeginLine, r.EndLine)
	}
	return fmt.Sprintf("%s:%d", r.File, r.BeginLine)
}

// label is a region's kind, with its name where it has one of its own.
func label(r *profile.Region) string {
	s := r.Kind
	if r.Name != r.Kind && r.Kind != "user" && r.Kind != "lock" {
		s += " (" + r.Name + ")"
	}
	if r.SubName != "" {
		s += " " + r.SubName
	}
	return s
}

// ms and us print nanoseconds as milliseconds and microseconds.
func ms(ns uint64) string { return fmt.Sprintf("%.3f", float64(ns)/1e6) }

func us(ns float64) string { return fmt.Sprintf("%.2f", ns/1e3) }
