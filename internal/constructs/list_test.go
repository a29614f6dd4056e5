package constructs

import (
	"strings"
	"testing"
)

// TestABIStable pins the values of the region kinds and flags that
// compiled instrumented objects carry: a kind or flag may be appended to
// the list, never inserted, moved or removed.
func TestABIStable(t *testing.T) {
	kinds := []string{"POMP_PARALLEL", "POMP_FOR", "POMP_SECTIONS", "POMP_SINGLE", "POMP_SCOPE", "POMP_MASTER",
		"POMP_CRITICAL", "POMP_ATOMIC", "POMP_FLUSH", "POMP_BARRIER", "POMP_TASKWAIT", "POMP_TASKYIELD",
		"POMP_TASK", "POMP_TASKGROUP", "POMP_TASKLOOP", "POMP_ORDERED", "POMP_SIMD", "POMP_LOOP",
		"POMP_CANCEL", "POMP_CANCELLATION_POINT", "POMP_USER", "POMP_LOCK", "POMP_MPI"}
	if len(List) < len(kinds) {
		t.Fatalf("the list has %d kinds; %d are part of the ABI", len(List), len(kinds))
	}
	for i, c := range kinds {
		if List[i].Const != c {
			t.Errorf("kind %d is %s, was %s: append new kinds, never insert", i+1, List[i].Const, c)
		}
	}
	flags := []string{"POMP_FLAG_NOWAIT", "POMP_FLAG_BARRIER", "POMP_FLAG_IMPLICIT_BARRIER", "POMP_FLAG_COMBINED",
		"POMP_FLAG_UNTIED", "POMP_FLAG_TIED", "POMP_FLAG_CLEANUP", "POMP_FLAG_IF", "POMP_FLAG_FINAL",
		"POMP_FLAG_MERGEABLE", "POMP_FLAG_DEPEND", "POMP_FLAG_CHUNKS"}
	if len(Flags) < len(flags) {
		t.Fatalf("the list has %d flags; %d are part of the ABI", len(Flags), len(flags))
	}
	for i, c := range flags {
		if Flags[i].Const != c {
			t.Errorf("flag bit %d is %s, was %s: append new flags, never insert", i, Flags[i].Const, c)
		}
	}
	// region.kind and region.flags are unsigned shorts in pomp.h.
	if len(Flags) > 16 {
		t.Errorf("%d flags do not fit POMP_Region's 16 bits", len(Flags))
	}
	if Get(Parallel).Const != "POMP_PARALLEL" || Get(MPI).Const != "POMP_MPI" {
		t.Error("ids_gen.go does not match the list: go generate ./internal/constructs")
	}
}

// TestListWellFormed checks what the generated tables rely on: unique
// names, calls named POMP_*, composite groups that exist, a group for
// every kind that rewrite writes.
func TestListWellFormed(t *testing.T) {
	seen := map[string]string{}
	once := func(what, s string) {
		if prev, ok := seen[s]; ok {
			t.Errorf("%s %q is also %s", what, s, prev)
		}
		seen[s] = what
	}
	sets := map[string]bool{SetOMP: true, SetSync: true, SetTasks: true, SetWorksharing: true}
	for _, k := range List {
		once("kind constant", k.Const)
		once("kind name", "name "+k.Name)
		if !strings.HasPrefix(k.Const, "POMP_") || strings.ToUpper(k.Const) != k.Const {
			t.Errorf("kind constant %q: want POMP_ and capitals", k.Const)
		}
		if k.Writer != ByMPI && k.Group == "" {
			t.Errorf("%s: rewrite writes it, but --disable has no group for it", k.Const)
		}
		for _, s := range k.Sets {
			if !sets[s] {
				t.Errorf("%s: unknown composite group %q", k.Const, s)
			}
		}
	}
	for _, c := range AllCalls() {
		if !strings.HasPrefix(c, "POMP_") {
			t.Errorf("call %q is not a POMP_ function", c)
		}
		once("call", "call "+c)
	}
	for _, f := range Flags {
		once("flag", f.Const)
		once("flag name", "flag "+f.Name)
	}
	if got := Wrapper("omp_test_nest_lock"); got != "POMP_Test_nest_lock" {
		t.Errorf("Wrapper(omp_test_nest_lock) = %s", got)
	}
}
