package e2e

import (
	"strconv"
	"strings"
	"testing"

	"gopari/internal/events"
	"gopari/internal/grains"
	"gopari/internal/timeline"
)

// TestGrains is part of issue 14's acceptance: fib(18) with cutoff 6 run
// with GOPARI_GRAINS=1 gives exactly the task grains of the model, each
// with its lineage and the parent whose lineage is its own less the last
// step; the taskloop's grains cover its 100 iterations exactly once, as
// many as the profile says the runtime made. At 1, 2 and 4 threads with
// every compiler.
func TestGrains(t *testing.T) {
	needTools(t)
	// The model: lineage R.p0 is the team; a call above the cutoff makes
	// children .0 (fib(n-1)) and .1 (fib(n-2)).
	want := map[string]bool{}
	var model func(n int, lin string)
	model = func(n int, lin string) {
		if n < 2 || n <= 6 {
			return
		}
		for k, m := range []int{n - 1, n - 2} {
			l := lin + "." + strconv.Itoa(k)
			want[l] = true
			model(m, l)
		}
	}
	model(18, "R.p0")
	for _, c := range compilers {
		c := c
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p := build(t, c, "grainfib.c")
			for _, threads := range []string{"1", "2", "4"} {
				env := []string{"OMP_NUM_THREADS=" + threads, "GOPARI_GRAINS=1"}
				orig, got := run(t, p.orig, env), run(t, p.inst, env)
				if got.stdout != orig.stdout || got.code != orig.code {
					t.Fatalf("instrumented printed %q, original %q\n%s", got.stdout, orig.stdout, got.stderr)
				}
				exp, err := events.OpenExperiment(got.dir)
				if err != nil {
					t.Skipf("no event stream (the runtime's grains mode): %v", err)
				}
				prof := readProfile(t, got)
				var tasks []grains.Grain
				seen := make([]int, 100)
				var taskloop int
				if _, err := grains.Extract(exp, func(g *grains.Grain, _ *timeline.Event) {
					switch g.Kind {
					case grains.Task:
						tasks = append(tasks, *g)
					case grains.Taskloop:
						taskloop++
						for i := g.First; i <= g.Last && i >= 0 && i < 100; i++ {
							seen[i]++
						}
					}
				}, nil); err != nil {
					t.Fatal(err)
				}
				if len(tasks) != len(want) {
					t.Errorf("%s threads: %d task grains, want %d", threads, len(tasks), len(want))
				}
				byID := map[uint64]string{}
				for _, g := range tasks {
					byID[g.ID] = g.Lineage
					if !want[g.Lineage] {
						t.Errorf("%s threads: grain with lineage %s", threads, g.Lineage)
					}
				}
				// Each grain's parent is the grain one step up its lineage, or
				// the team (an implicit task) for the first two.
				for _, g := range tasks {
					pl, ok := byID[g.Parent]
					i := strings.LastIndexByte(g.Lineage, '.')
					switch {
					case ok && pl != g.Lineage[:i]:
						t.Errorf("grain %s has parent %s", g.Lineage, pl)
					case !ok && g.Lineage[:i] != "R.p0":
						t.Errorf("grain %s: its parent is no grain", g.Lineage)
					}
				}
				for i, n := range seen {
					if n != 1 {
						t.Errorf("%s threads: iteration %d in %d taskloop grains", threads, i, n)
					}
				}
				var made uint64
				for _, ts := range prof.Tasks {
					if r := prof.Region(ts.Region); r != nil && r.Kind == "taskloop" {
						made += ts.Executed
					}
				}
				if uint64(taskloop) != made {
					t.Errorf("%s threads: %d taskloop grains, the runtime made %d tasks", threads, taskloop, made)
				}
			}
		})
	}
}
