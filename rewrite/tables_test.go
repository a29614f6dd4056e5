package rewrite

import (
	"slices"
	"testing"

	"gopari/internal/constructs"
	omp "gopari/parser"
)

// TestTablesAgree checks the hand-written tables that adding a construct
// touches (docs/design.md, "Adding a construct") against each other and
// against the one list of kinds, internal/constructs: the parser's
// directive table, rewrite's construct classes, leaves and split clauses.
// What is generated from the list (pomp.h's enums and event functions,
// the runtime's JSON names, flags, --disable groups, OTF2 roles) is
// checked by the generator's own test; that pomp.h declares every call of
// the list and the runtime defines it, by pomprt/e2e's
// TestConstructCallsLink.
func TestTablesAgree(t *testing.T) {
	t.Run("directives", func(t *testing.T) { checkDirectives(t) })
	t.Run("kinds", func(t *testing.T) { checkKinds(t) })
	t.Run("groups", func(t *testing.T) { checkGroups(t) })
}

// checkDirectives checks that every directive the parser knows is either
// instrumented by a class of construct.go, split into leaves that are,
// counted as offload, deliberately ignored, or a POMP directive of
// user.go.
func checkDirectives(t *testing.T) {
	for _, d := range omp.Directives() {
		c := d.Class
		switch {
		case d.Pomp:
			if c == omp.ClassUserInit || c == omp.ClassUserOnOff {
				if controlCalls[d.Name] == "" {
					t.Errorf("pomp directive %q has no call in user.go's controlCalls", d.Name)
				}
			} else if c != omp.ClassUserBegin && c != omp.ClassUserEnd {
				t.Errorf("pomp directive %q has class %d, which user.go does not handle", d.Name, c)
			}
		case c == omp.ClassCombined:
			for _, l := range d.Leaves {
				lc, ok := leafClasses[l]
				switch {
				case !ok:
					t.Errorf("combined %q: leaf %q missing from construct.go's leafClasses", d.Name, l)
				case classes[lc].Kind == nil:
					t.Errorf("combined %q: leaf %q has a class without an entry in construct.go's classes", d.Name, l)
				}
				if leafClauses[l] == nil {
					t.Errorf("combined %q: leaf %q missing from split.go's leafClauses", d.Name, l)
				}
			}
		case c == omp.ClassOffload || ignored[c]:
			if classes[c].Kind != nil {
				t.Errorf("%q: class %d is both instrumented and passed over", d.Name, c)
			}
		case classes[c].Kind == nil:
			t.Errorf("directive %q (class %d) has no entry in construct.go's classes, and is not in ignored", d.Name, c)
		}
	}
	checkClassesReached(t)
}

// checkClassesReached checks the other direction: every class that
// construct.go instruments is the class of a directive in the parser's
// table, or of a leaf of a combined one. A directive dropped from the
// parser's table would otherwise leave its instrumentation unreachable.
func checkClassesReached(t *testing.T) {
	var reached [omp.NumClasses]bool
	for _, d := range omp.Directives() {
		reached[d.Class] = true
		for _, l := range d.Leaves {
			if lc, ok := leafClasses[l]; ok {
				reached[lc] = true
			}
		}
	}
	for c, cl := range classes {
		if cl.Kind != nil && !reached[c] {
			t.Errorf("construct.go's classes instruments class %d (kind %s), but no directive in parser/directive.go's table has it", c, cl.Const)
		}
	}
}

// checkKinds checks construct.go's classes against the list: every kind
// the list says rewrite writes for a construct is the kind of a class,
// and every class's kind is one the list says construct.go writes, with
// calls to place.
func checkKinds(t *testing.T) {
	written := map[string]bool{}
	for c, cl := range classes {
		if cl.Kind == nil {
			continue
		}
		written[cl.Const] = true
		if cl.Writer != constructs.ByRewrite {
			t.Errorf("class %d has kind %s, which internal/constructs's list says construct.go does not write (Writer)", c, cl.Const)
		}
		if cl.Enter.Name == "" && cl.Begin.Name == "" {
			t.Errorf("class %d (%s): the list gives its kind neither Enter nor Begin calls", c, cl.Const)
		}
		if (cl.Enter.Name == "") != (cl.Exit.Name == "") || (cl.Begin.Name == "") != (cl.End.Name == "") {
			t.Errorf("class %d (%s): the list gives its kind a call without its partner: %+v", c, cl.Const, *cl.Kind)
		}
		if cl.Cleanup != "" && cl.End.Name == "" {
			t.Errorf("class %d (%s): a cleanup handler without an End call", c, cl.Const)
		}
	}
	for _, k := range constructs.List {
		if k.Writer == constructs.ByRewrite && !written[k.Const] {
			t.Errorf("internal/constructs's list has kind %s written by construct.go (Writer), but no class of construct.go's classes has it", k.Const)
		}
	}
	if userKind.Writer != constructs.ByUser || lockKind.Writer != constructs.ByUser {
		t.Errorf("user.go writes kinds %s and %s, which the list gives other writers", userKind.Const, lockKind.Const)
	}
}

// checkGroups checks that every class's --disable group exists, names
// itself, and belongs to the group "omp".
func checkGroups(t *testing.T) {
	for c, cl := range classes {
		if cl.Kind == nil {
			continue
		}
		g := cl.Group
		if !slices.Contains(Groups[g], g) {
			t.Errorf("class %d (%s): --disable group %q missing from Groups, or not naming itself", c, cl.Const, g)
		}
		if !slices.Contains(Groups["omp"], g) {
			t.Errorf("class %d (%s): group %q missing from the group \"omp\" (the list's Sets)", c, cl.Const, g)
		}
	}
}
