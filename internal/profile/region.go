package profile

import (
	"slices"
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
