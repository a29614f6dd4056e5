package timeline

import (
	"fmt"
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

// TestGaps replays a run that lost records in every way (evtest.Gaps):
// the DROPPED record's gap runs from its thread's previous event (not
// the LOC record before it) to the record; the records lost after each
// thread's last block are end gaps, from its last event (the run's
// start for the thread without a file) to the end of the run, on its
// location; the gaps add up to profile.json's events.dropped.
func TestGaps(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "exp")
	s, err := evtest.Gaps(dir)
	if err != nil {
		t.Fatal(err)
	}
	last := map[int]uint64{} // OS thread -> time of its last event
	var gaps []Gap
	r := replay(t, dir, func(ev *Event) {
		switch ev.Type {
		case events.Loc:
		case events.Dropped:
			gaps = append(gaps, ev.Gap)
			if ev.Gap.From != last[ev.OS] || ev.Gap.To != ev.Time || ev.Gap.End {
				t.Errorf("gap %+v: want from %d (the thread's previous event) to %d", ev.Gap, last[ev.OS], ev.Time)
			}
		default:
			last[ev.OS] = ev.Time
		}
	})
	end := s.Tick0 + evtest.GapsWallNs
	want := []Gap{
		{Loc: 1, From: last[0], To: end, Records: 3, End: true}, // a, at 0.0
		{Loc: 2, From: last[1], To: end, Records: 7, End: true}, // b, at 0.1
		{Loc: 3, From: s.Tick0, To: end, Records: 11, End: true},
	}
	if got := r.EndGaps(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("end gaps %+v, want %+v", got, want)
	}
	gaps = append(gaps, r.EndGaps()...)
	var sum int64
	for _, g := range gaps {
		sum += g.Records
	}
	if len(gaps) != 4 || gaps[0].Records != 5 || sum != 26 || r.Stats.Dropped != 26 {
		t.Errorf("gaps %+v, %d records; stats %+v; want 4 gaps of 26 records", gaps, sum, r.Stats)
	}
}
