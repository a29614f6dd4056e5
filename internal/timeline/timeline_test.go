package timeline

import (
	"path/filepath"
	"testing"

	"gopari/internal/events"
	"gopari/internal/events/evtest"
)

func replay(t *testing.T, dir string, handle func(*Event)) *Replay {
	t.Helper()
	exp, err := events.OpenExperiment(dir)
	if err != nil {
		t.Fatal(err)
	}
	r := New(exp)
	if err := r.Run(func(ev *Event) error {
		if handle != nil {
			handle(ev)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return r
}

// TestFib replays fib scenarios and checks tasks, lineage, suspensions
// and execution times against what the scenario recorded.
func TestFib(t *testing.T) {
	for _, tc := range []struct {
		n, cutoff, threads int
		undeferred         func(int) bool
	}{
		{10, 3, 1, nil},
		{12, 4, 2, nil},
		{12, 2, 4, func(n int) bool { return n == 3 }},
	} {
		dir := filepath.Join(t.TempDir(), "exp")
		_, want, err := evtest.Fib(dir, tc.n, tc.cutoff, tc.threads, 50, tc.undeferred)
		if err != nil {
			t.Fatal(err)
		}
		var begun, ended, undeferred, susp, implicit int
		lineages := map[string]bool{}
		r := replay(t, dir, func(ev *Event) {
			switch ev.Type {
			case events.TaskBegin:
				begun++
				if ev.Task.Undeferred {
					undeferred++
				}
				if lineages[ev.Task.Lineage] {
					t.Errorf("lineage %s twice", ev.Task.Lineage)
				}
				lineages[ev.Task.Lineage] = true
			case events.TaskEnd:
				ended++
				susp += ev.Task.Suspensions
				if ev.Task.Exec > ev.Task.End-ev.Task.Begin {
					t.Errorf("task %x: exec %d > %d", ev.Task.ID, ev.Task.Exec, ev.Task.End-ev.Task.Begin)
				}
			case events.ImplicitBegin:
				implicit++
			}
		})
		if begun != want.Tasks || ended != want.Tasks || undeferred != want.Undeferred || susp != want.Suspensions || implicit != tc.threads {
			t.Errorf("fib(%d) cutoff %d on %d threads: begun %d ended %d undeferred %d suspensions %d implicit %d, want %d tasks, %d undeferred, %d suspensions, %d implicit",
				tc.n, tc.cutoff, tc.threads, begun, ended, undeferred, susp, implicit, want.Tasks, want.Undeferred, want.Suspensions, tc.threads)
		}
		for l := range want.Lineages {
			if !lineages[l] {
				t.Errorf("lineage %s missing", l)
			}
		}
		if r.Stats.Unmatched != 0 || r.Stats.Clamped != 0 {
			t.Errorf("stats %+v", r.Stats)
		}
		if len(r.Live()) != 1 { // the initial task, and nothing else
			t.Errorf("%d tasks live at the end", len(r.Live()))
		}
	}
}
