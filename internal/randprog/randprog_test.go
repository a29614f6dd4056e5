package randprog

import (
	"bytes"
	"strings"
	"testing"
)

// TestDeterministic checks that a seed always gives the same program and
// that seeds differ.
func TestDeterministic(t *testing.T) {
	a := Generate(Config{Seed: 7})
	if !bytes.Equal(a, Generate(Config{Seed: 7})) {
		t.Fatal("seed 7 gave two programs")
	}
	if bytes.Equal(a, Generate(Config{Seed: 8})) {
		t.Fatal("seeds 7 and 8 gave the same program")
	}
}

// TestCoverage checks that a few hundred programs use every construct
// the generator knows, so that none is dead by a mistake in its rules.
func TestCoverage(t *testing.T) {
	var all strings.Builder
	for s := uint64(1); s <= 300; s++ {
		all.Write(Generate(Config{Seed: s}))
	}
	text := all.String()
	for _, want := range []string{
		"omp parallel", "omp for", "omp parallel for", "omp sections", "omp section", "omp parallel sections",
		"omp single", "copyprivate(", "omp master", "omp masked", "omp scope", "omp barrier",
		"omp task", "depend(out:", "untied", "mergeable", "final(", "priority(", "omp taskloop", "nogroup",
		"master taskloop", "omp taskwait", "omp taskgroup", "omp critical", "hint(1)", "omp atomic",
		"atomic capture", "atomic write", "atomic update", "omp ordered", "omp simd", "for simd",
		"omp flush", "cancel parallel", "cancel for", "cancel sections", "cancel taskgroup", "cancellation point", "lastprivate(", "reduction(+:", "collapse(2)",
		"schedule(dynamic", "schedule(guided", "schedule(runtime)", "num_threads(", "parallel master",
		"omp_set_lock", "_Pragma(", "\\\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("300 programs never contain %q", want)
		}
	}
}

// TestClang checks that programs for clang avoid what clang 14 and its
// libomp get wrong, tasks in nested teams among them, which programs for
// gcc do have.
func TestClang(t *testing.T) {
	nestedTasks := 0
	for s := uint64(1); s <= 300; s++ {
		p := string(Generate(Config{Seed: s, Clang: true}))
		for _, bad := range []string{"untied", "omp scope", "(monotonic: static"} {
			if strings.Contains(p, bad) {
				t.Fatalf("seed %d: a clang program contains %q", s, bad)
			}
		}
		if line := taskInNestedTeam(p); line > 0 {
			t.Fatalf("seed %d: line %d of a clang program creates tasks in a nested team", s, line)
		}
		if taskInNestedTeam(string(Generate(Config{Seed: s}))) > 0 {
			nestedTasks++
		}
	}
	if nestedTasks == 0 {
		t.Error("no program for gcc creates tasks in a nested team: the check above proves nothing")
	}
}

// taskInNestedTeam returns the first line of program p whose directive
// creates tasks (task, taskloop) inside two parallel regions, or 0. A
// parallel directive's region is the next block opened.
func taskInNestedTeam(p string) int {
	var open []bool // per open brace: a parallel region's block
	pending := false
	for i, line := range strings.Split(p, "\n") {
		line = strings.TrimSpace(line)
		dir := ""
		if rest, ok := strings.CutPrefix(line, "#pragma omp "); ok {
			dir = rest
		} else if rest, ok := strings.CutPrefix(line, `_Pragma("omp `); ok {
			dir = rest
		}
		words := strings.FieldsFunc(dir, func(r rune) bool { return r == ' ' || r == '(' || r == '"' })
		if len(words) > 0 && words[0] == "parallel" {
			pending = true
		}
		for k, w := range words {
			if k < 2 && (w == "task" || w == "taskloop") {
				levels := 0
				for _, par := range open {
					if par {
						levels++
					}
				}
				if levels > 1 {
					return i + 1
				}
			}
		}
		for _, r := range line {
			switch r {
			case '{':
				open = append(open, pending)
				pending = false
			case '}':
				if len(open) > 0 {
					open = open[:len(open)-1]
				}
			}
		}
	}
	return 0
}
