package grains

import (
	"maps"
	"math"
	"path/filepath"
	"strconv"
	"testing"

	"gopari/internal/events"
	"gopari/internal/events/evtest"
)

// matchRun writes the run of a program at threads threads and returns
// its directory. Each thread creates a task outside worksharing
// constructs (work 100 ticks, times scale) and one in a loop without
// --chunks (300); in a single, run by the last thread, a task (200) and
// a taskloop whose tasks run the iterations split gives them (10 each).
func matchRun(t *testing.T, threads int, scale uint64, split [][2]int64) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "exp")
	s, err := evtest.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	s.Kinds = []string{"grains"}
	par, task, loop := s.Region("parallel", "m.c", 1), s.Region("task", "m.c", 2), s.Region("for", "m.c", 3)
	single, tl := s.Region("single", "m.c", 4), s.Region("taskloop", "m.c", 5)
	th := make([]*evtest.Thread, threads)
	imp := make([]uint64, threads)
	for i := range th {
		th[i] = s.Thread()
	}
	th[0].Put(events.Loc, 0, s.Loc("0", 0))
	th[0].Put(events.Fork, par, 0)
	for i, w := range th {
		w.T = th[0].T
		w.Put(events.Loc, 0, s.Loc("0."+evtest.Itoa(i), i))
		imp[i] = w.NewID()
		w.Put(events.ImplicitBegin, par, imp[i], 0)
	}
	run := func(w *evtest.Thread, work uint64) {
		id := w.NewID()
		w.Put(events.CreateBegin, task, id)
		w.Put(events.CreateEnd, task, id)
		w.Put(events.TaskBegin, task, id, imp[indexOf(th, w)])
		w.Wait(work * scale)
		w.Put(events.TaskEnd, task, id)
	}
	for _, w := range th {
		run(w, 100)
		w.Put(events.EnterConstruct, loop)
		run(w, 300)
		w.Put(events.ExitConstruct, loop)
		w.Put(events.EnterConstruct, single)
	}
	m := th[len(th)-1] // the last thread runs the single
	m.Put(events.EnterBody, single)
	run(m, 200)
	m.Put(events.EnterConstruct, tl)
	for _, r := range split {
		id := m.NewID()
		m.Put(events.TaskloopBegin, tl, id, imp[len(th)-1], uint64(r[0]))
		m.Wait(uint64(10*(r[1]-r[0]+1)) * scale)
		m.Put(events.TaskloopEnd, tl, id, uint64(r[1]))
	}
	m.Put(events.ExitConstruct, tl)
	m.Put(events.ExitBody, single)
	for i, w := range th {
		w.Put(events.ExitConstruct, single)
		w.Put(events.ImplicitEnd, par, imp[i])
		th[0].T = max(th[0].T, w.T)
	}
	th[0].Put(events.Loc, 0, s.Loc("0", 0))
	th[0].Put(events.Join, par, 0)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return dir
}

func indexOf(th []*evtest.Thread, w *evtest.Thread) int {
	for i, x := range th {
		if x == w {
			return i
		}
	}
	return -1
}

// TestBaselineMatch checks how grains are matched with a 1-thread
// baseline's: by lineage (and a taskloop task's iterations), never when
// the lineage has a "?" (a task of a loop whose iterations the stream
// does not show) or names two grains of the baseline (then neither is
// compared), and never with a grain the baseline does not have (thread
// 1's task, taskloop tasks of other iterations); and that the summary
// line counts each kind.
func TestBaselineMatch(t *testing.T) {
	// The baseline's taskloop makes two tasks of iterations 8-9: a name
	// that is not unique.
	base := matchRun(t, 1, 1, [][2]int64{{0, 3}, {4, 7}, {8, 9}, {8, 9}})
	dir := matchRun(t, 2, 3, [][2]int64{{0, 3}, {4, 9}})
	_, res, rows, sum := analyze(t, dir, Options{Baseline: open(t, base)}, nil)
	// Work deviation by lineage: about 3 (the run's work is 3 times the
	// baseline's), or none. The loop's tasks of both threads are
	// R.p0.w0?.0: the team's first worksharing construct, an iteration
	// the stream does not show.
	want := map[string]bool{
		"R.p0.t0.0":      true,  // thread 0's task
		"R.p0.t1.0":      false, // thread 1's: not in the baseline
		"R.p0.w0?.0":     false, // a task in the loop: unknown iteration
		"R.p0.w1.0":      true,  // the single's, run by another thread
		"R.p0.w1.tl0.l0": true,  // the same iterations
		"R.p0.w1.tl0.l4": false, // others
	}
	lin, dev := column(rows, "lineage"), column(rows, "work_deviation")
	got := map[string]bool{}
	for _, r := range rows[1:] {
		l, d := r[lin], r[dev]
		v, err := strconv.ParseFloat(d, 64)
		got[l] = err == nil
		if d != "" && (err != nil || math.Abs(v-3) > 0.5) {
			t.Errorf("grain %s: deviation %q, want about 3", l, d)
		}
	}
	if !maps.Equal(got, want) {
		t.Errorf("grains with a deviation: %v, want %v", got, want)
	}
	if res.ByMatch != [4]int64{0, 3, 2, 2} {
		t.Errorf("matched %v, want 3 matched, 2 ambiguous, 2 not in the baseline", res.ByMatch)
	}
	const line = "7 grains: 5 tasks, 2 taskloop tasks, 0 chunks; against the baseline: 3 matched, 2 ambiguous, 2 not in it\n"
	if len(sum) < len(line) || sum[:len(line)] != line {
		t.Errorf("summary:\n%s\nwant its first line %q", sum, line)
	}
	// A baseline grain whose name two grains have is compared with
	// neither: the run of the baseline's own split.
	_, res, _, _ = analyze(t, base, Options{Baseline: open(t, base)}, nil)
	if res.ByMatch != [4]int64{0, 4, 3, 0} {
		t.Errorf("the baseline against itself: %v, want the two tasks of 8-9 and the loop's ambiguous, the others matched", res.ByMatch)
	}
}
