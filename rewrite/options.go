package rewrite

import (
	"fmt"
	"sort"
	"strings"
)

// Groups are the names --disable accepts. Single constructs name
// themselves; the others stand for several.
var Groups = map[string][]string{
	"parallel": {"parallel"}, "for": {"for"}, "sections": {"sections"}, "single": {"single"},
	"scope": {"scope"}, "master": {"master"}, "critical": {"critical"}, "atomic": {"atomic"},
	"flush": {"flush"}, "barrier": {"barrier"}, "taskwait": {"taskwait"}, "taskyield": {"taskyield"},
	"task": {"task"}, "taskgroup": {"taskgroup"}, "taskloop": {"taskloop"}, "ordered": {"ordered"},
	"simd": {"simd"}, "loop": {"loop"}, "cancel": {"cancel"}, "locks": {"locks"}, "user": {"user"},

	"sync":        {"atomic", "barrier", "critical", "flush", "locks", "ordered", "taskwait", "taskyield"},
	"tasks":       {"task", "taskwait", "taskyield", "taskgroup", "taskloop"},
	"worksharing": {"for", "sections", "single", "scope", "master", "loop"},
	"omp": {"parallel", "for", "sections", "single", "scope", "master", "critical", "atomic", "flush",
		"barrier", "taskwait", "taskyield", "task", "taskgroup", "taskloop", "ordered", "simd", "loop",
		"cancel", "locks"},
}

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
