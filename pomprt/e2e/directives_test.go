package e2e

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gopari/internal/profile"
)

// Directives that gopari instruments in more than one way (issue 10):
// worksharing constructs with task reductions, C++ attribute syntax and
// metadirectives. Each program runs instrumented and not at 1, 2 and 4
// threads, and its profile is checked against counts known by
// construction.

// TestReductionTask runs for, sections, scope, parallel for and parallel
// sections with reduction(task, ...): they keep their implicit barrier
// (nowait is not allowed with the task modifier) and are still measured.
func TestReductionTask(t *testing.T) {
	needTools(t)
	for _, c := range compilers {
		c := c
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p := build(t, c, "reduction_task.c")
			for _, threads := range []int{1, 2, 4} {
				prof, want := compareRun(t, p, []string{"OMP_NUM_THREADS=" + strconv.Itoa(threads)})
				if strings.TrimSpace(want.stdout) != "4950 3 45 3" {
					t.Fatalf("uninstrumented program printed %q", want.stdout)
				}
				// Worksharing regions by line: the 3 worksharing constructs
				// in the first region run once on every thread; the
				// combined ones once on each thread of their own team.
				ws := map[int]string{12: "for", 17: "sections", 35: "for", 40: "sections"}
				if c.name == "gcc" {
					ws[28] = "scope"
				}
				tasks := map[int]uint64{14: 100, 21: 1, 37: 10, 44: 1}
				if c.name == "gcc" {
					tasks[30] = uint64(threads)
				}
				checkWorksharing(t, prof, ws, threads)
				checkTasks(t, prof, tasks)
			}
		})
	}
}

// checkWorksharing checks that each region at the lines of ws, of the
// kind given, keeps its implicit barrier and was entered once by each of
// threads threads.
func checkWorksharing(t *testing.T, prof *profile.Profile, ws map[int]string, threads int) {
	t.Helper()
	found := map[int]bool{}
	for _, r := range prof.Regions {
		kind, ok := ws[r.BeginLine]
		if !ok || r.Kind != kind {
			continue
		}
		found[r.BeginLine] = true
		if !slices.Contains(r.Flags, "implicit_barrier") || slices.Contains(r.Flags, "nowait") || slices.Contains(r.Flags, "barrier") {
			t.Errorf("%s at line %d: flags %v, want implicit_barrier only", kind, r.BeginLine, r.Flags)
		}
		if got := regionVisits(prof, r.ID); got != uint64(threads) {
			t.Errorf("%d threads: %s at line %d entered %d times, want %d", threads, kind, r.BeginLine, got, threads)
		}
	}
	for line, kind := range ws {
		if !found[line] {
			t.Errorf("no %s region at line %d", kind, line)
		}
	}
}

// checkTasks checks the tasks created by the task regions at the lines
// of want.
func checkTasks(t *testing.T, prof *profile.Profile, want map[int]uint64) {
	t.Helper()
	got := map[int]uint64{}
	for _, task := range prof.Tasks {
		if r := prof.Region(task.Region); r != nil {
			got[r.BeginLine] += task.Created
		}
	}
	for line, n := range want {
		if got[line] != n {
			t.Errorf("task at line %d: %d created, want %d", line, got[line], n)
		}
	}
}

// regionVisits sums the construct visits of region id over all threads.
func regionVisits(prof *profile.Profile, id int) uint64 {
	var n uint64
	for _, s := range prof.Stats {
		if s.Region == id && s.Construct != nil {
			n += s.Construct.Visits
		}
	}
	return n
}

// TestAttributeSyntax runs a C++ program whose directives are all in
// attribute syntax ([[omp::directive(…)]], omp::sequence, using omp:),
// built with g++ and clang++, and checks every region's visits.
func TestAttributeSyntax(t *testing.T) {
	needTools(t)
	for _, c := range compilers {
		c := c
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p := build(t, c, "attributes.cpp")
			for _, threads := range []int{1, 2, 4} {
				prof, want := compareRun(t, p, []string{"OMP_NUM_THREADS=" + strconv.Itoa(threads)})
				if strings.TrimSpace(want.stdout) != fmt.Sprintf("%d 499501 110 5", threads) {
					t.Fatalf("uninstrumented program printed %q", want.stdout)
				}
				n := uint64(threads)
				checkVisits(t, prof, threads, map[string][2]uint64{
					"parallel:8": {1, n}, "atomic:10": {n, 0}, "barrier:11": {n, 0}, "single:12": {n, 1},
					"parallel:15": {1, 3}, "for:15": {3, 0},
					"parallel:18": {1, 2}, "sections:20": {2, 2}, "critical:23": {1, 1}, "critical:25": {1, 1},
					"master:27": {1, 0}, "taskgroup:27": {1, 1}, "atomic:31": {5, 0},
				})
				checkTasks(t, prof, map[int]uint64{30: 5})
			}
		})
	}
}

// checkVisits checks, for each region named "kind:line" in want, the
// construct and body visits summed over threads.
func checkVisits(t *testing.T, prof *profile.Profile, threads int, want map[string][2]uint64) {
	t.Helper()
	got := map[string][2]uint64{}
	for _, s := range prof.Stats {
		r := prof.Region(s.Region)
		key := fmt.Sprintf("%s:%d", r.Kind, r.BeginLine)
		v := got[key]
		if s.Construct != nil {
			v[0] += s.Construct.Visits
		}
		if s.Body != nil {
			v[1] += s.Body.Visits
		}
		got[key] = v
	}
	for key, w := range want {
		if got[key] != w {
			t.Errorf("%d threads: %s: construct and body visits %v, want %v", threads, key, got[key], w)
		}
	}
	for key := range got {
		if _, ok := want[key]; !ok && !strings.HasPrefix(key, "task:") {
			t.Errorf("%d threads: unexpected region %s", threads, key)
		}
	}
}

// TestMetadirective runs metadirectives whose variants gopari picks at
// compile time, with clang, which implements metadirectives, and checks
// the variants' regions. (GCC 12 ignores metadirectives; gopari cc then
// passes them through: cmd/gopari/testdata/script/cc_metadirective.txtar.)
func TestMetadirective(t *testing.T) {
	needTools(t)
	ran := false
	for _, c := range compilers {
		if c.name == "gcc" {
			continue
		}
		ran = true
		p := build(t, c, "metadirective.c")
		for _, threads := range []int{1, 2, 4} {
			prof, want := compareRun(t, p, []string{"OMP_NUM_THREADS=" + strconv.Itoa(threads)})
			if strings.TrimSpace(want.stdout) != "499500 45 1" {
				t.Fatalf("uninstrumented program printed %q", want.stdout)
			}
			n := uint64(threads)
			checkVisits(t, prof, threads, map[string][2]uint64{
				"parallel:9": {1, n}, "for:9": {n, 0},
				"parallel:12": {1, 2},
				"parallel:14": {1, 3}, "for:14": {3, 0},
			})
		}
	}
	if !ran {
		t.Skip("clang tests: " + noClang)
	}
}
