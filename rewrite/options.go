package rewrite

import (
	"fmt"
	"sort"
	"strings"

	"gopari/internal/constructs"
)

// Groups are the names --disable accepts. Single constructs name
// themselves; the others stand for several (internal/constructs's list,
// Group and Sets).
var Groups = constructs.Groups()

// ParseDisable turns a comma-separated --disable list into the set of
// construct groups not to instrument.
func ParseDisable(list string) (map[string]bool, error) {
	out := make(map[string]bool)
	for _, w := range strings.Split(list, ",") {
		w = strings.TrimSpace(w)
		if w == "" {
			continue
		}
		g, ok := Groups[w]
		if !ok {
			return nil, fmt.Errorf("unknown construct group %q in --disable; known: %s", w, strings.Join(GroupNames(), ", "))
		}
		for _, x := range g {
			out[x] = true
		}
	}
	return out, nil
}

// GroupNames lists the names --disable accepts, sorted.
func GroupNames() []string {
	var names []string
	for n := range Groups {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// ParseUntied parses the value of --untied.
func ParseUntied(s string) (Untied, error) {
	switch s {
	case "tie", "":
		return UntiedTie, nil
	case "keep":
		return UntiedKeep, nil
	case "error":
		return UntiedError, nil
	}
	return 0, fmt.Errorf("--untied must be keep, tie or error, not %q", s)
}
