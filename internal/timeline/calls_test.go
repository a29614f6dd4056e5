package timeline

import (
	"fmt"
	"path/filepath"
	"testing"

	"gopari/internal/events"
	"gopari/internal/events/evtest"
)

// TestCalls replays the function records of a parallel region whose
// single construct calls producer(), which creates a task that the same
// thread runs in its taskwait, as libpomp writes them: every outlined
// wrapper is adopted by its task (FUNC_ADOPT) and exits after the task's
// end. Each call must open and close once, at the location of its task,
// nested in it, and nothing be unmatched.
func TestCalls(t *testing.T) {
	const fnMain, fnPar, fnProd, fnTask, fnWork = 0x1000, 0x1100, 0x1200, 0x1300, 0x1400
	dir := filepath.Join(t.TempDir(), "exp")
	s, err := evtest.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	par := s.Region("parallel", "c.c", 10)
	single := s.Region("single", "c.c", 12)
	task := s.Region("task", "c.c", 14)
	tw := s.Region("taskwait", "c.c", 16)
	m, w := s.Thread(), s.Thread()
	m.Put(events.Loc, 0, s.Loc("0", 0))
	m.Put(events.FuncEnter, 0, fnMain)
	m.Put(events.Fork, par, 0)
	m.Put(events.FuncEnter, 0, fnPar)
	m.Put(events.Loc, 0, s.Loc("0.0", 0))
	m.Put(events.FuncAdopt, 0, 1)
	im := m.NewID()
	m.Put(events.ImplicitBegin, par, im, 0)
	w.T = m.T
	w.Put(events.Loc, 0, 0) // a worker's first block, before its team
	w.Put(events.FuncEnter, 0, fnPar)
	w.Put(events.Loc, 0, s.Loc("0.1", 1))
	w.Put(events.FuncAdopt, 0, 1)
	iw := w.NewID()
	w.Put(events.ImplicitBegin, par, iw, 0)
	m.Put(events.EnterConstruct, single)
	m.Put(events.EnterBody, single)
	m.Put(events.FuncEnter, 0, fnProd)
	id := m.NewID()
	m.Put(events.CreateBegin, task, id)
	m.Put(events.CreateEnd, task, id)
	m.Put(events.EnterConstruct, tw)
	m.Put(events.FuncEnter, 0, fnTask)
	m.Put(events.FuncAdopt, 0, 1)
	m.Put(events.TaskBegin, task, id, im)
	m.Put(events.FuncEnter, 0, fnWork)
	m.Put(events.FuncExit, 0, fnWork)
	m.Put(events.TaskEnd, task, id)
	m.Put(events.FuncExit, 0, fnTask)
	m.Put(events.ExitConstruct, tw)
	m.Put(events.FuncExit, 0, fnProd)
	m.Put(events.ExitBody, single)
	m.Put(events.ExitConstruct, single)
	w.T = m.T
	m.Put(events.ImplicitEnd, par, im)
	w.Put(events.ImplicitEnd, par, iw)
	m.Put(events.FuncExit, 0, fnPar)
	w.Put(events.FuncExit, 0, fnPar)
	m.T = max(m.T, w.T)
	m.Put(events.Loc, 0, s.Loc("0", 0))
	m.Put(events.Join, par, 0)
	m.Put(events.FuncExit, 0, fnMain)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	opened, closed := map[string]int{}, map[string]int{}
	key := func(loc int, fn uint64) string { return fmt.Sprintf("%d:%#x", loc, fn) }
	r := replay(t, dir, func(ev *Event) {
		switch ev.Type {
		case events.FuncEnter:
			opened[key(ev.Loc, ev.Frame.ID)]++
			if ev.Frame.ID == fnWork || ev.Frame.ID == fnTask {
				if ev.Task.Kind != Explicit {
					t.Errorf("%#x opens in a %v task", ev.Frame.ID, ev.Task.Kind)
				}
			}
			if ev.Frame.ID == fnPar && (ev.Task.Kind != Implicit || ev.Time != ev.Task.Begin) {
				t.Errorf("the parallel region's wrapper opens in a %v task at %d (its begin %d)", ev.Task.Kind, ev.Time, ev.Task.Begin)
			}
		}
		for _, f := range ev.Calls {
			closed[key(ev.Loc, f.ID)]++
		}
	})
	want := map[string]int{key(0, fnMain): 1, key(1, fnPar): 1, key(2, fnPar): 1, key(1, fnProd): 1, key(1, fnTask): 1, key(1, fnWork): 1}
	if fmt.Sprint(opened) != fmt.Sprint(want) || fmt.Sprint(closed) != fmt.Sprint(want) {
		t.Errorf("calls opened %v, closed %v; want %v each", opened, closed, want)
	}
	if r.Stats.Unmatched != 0 {
		t.Errorf("%d unmatched", r.Stats.Unmatched)
	}
}

// TestCallsMigrate: a call begun in an untied task that then moves to
// another thread (RESUME there) ends on that thread, in that task.
func TestCallsMigrate(t *testing.T) {
	const fnWork = 0x1400
	dir := filepath.Join(t.TempDir(), "exp")
	s, err := evtest.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	par := s.Region("parallel", "c.c", 10)
	task := s.Region("task", "c.c", 14)
	s.Flag(task, "untied")
	a, b := s.Thread(), s.Thread()
	a.Put(events.Loc, 0, s.Loc("0", 0))
	a.Put(events.Fork, par, 0)
	a.Put(events.Loc, 0, s.Loc("0.0", 0))
	ia := a.NewID()
	a.Put(events.ImplicitBegin, par, ia, 0)
	b.T = a.T
	b.Put(events.Loc, 0, s.Loc("0.1", 1))
	ib := b.NewID()
	b.Put(events.ImplicitBegin, par, ib, 0)
	id := a.NewID()
	a.Put(events.CreateBegin, task, id)
	a.Put(events.CreateEnd, task, id)
	a.Put(events.TaskBegin, task, id, ia)
	a.Put(events.FuncEnter, 0, fnWork)
	b.T = a.T
	b.Put(events.Resume, 0, id)
	b.Put(events.FuncExit, 0, fnWork)
	b.Put(events.TaskEnd, task, id)
	a.T = b.T
	a.Put(events.ImplicitEnd, par, ia)
	b.Put(events.ImplicitEnd, par, ib)
	a.T = max(a.T, b.T)
	a.Put(events.Loc, 0, s.Loc("0", 0))
	a.Put(events.Join, par, 0)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	var where []string
	r := replay(t, dir, func(ev *Event) {
		if ev.Type == events.FuncEnter || ev.Type == events.FuncExit {
			where = append(where, fmt.Sprintf("%v loc %d task %#x calls %d", ev.Type, ev.Loc, ev.Task.ID, len(ev.Calls)))
		}
	})
	want := fmt.Sprintf("[FUNC_ENTER loc 1 task %#x calls 0 FUNC_EXIT loc 2 task %#x calls 1]", id, id)
	if got := fmt.Sprint(where); got != want || r.Stats.Unmatched != 0 {
		t.Errorf("calls %s, %d unmatched; want %s, none", got, r.Stats.Unmatched, want)
	}
}

// TestCallsAtEnd: a call whose thread records nothing after it (a run
// that ended there) is handed on at the end of the stream, open.
func TestCallsAtEnd(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "exp")
	s, err := evtest.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	a := s.Thread()
	a.Put(events.Loc, 0, s.Loc("0", 0))
	a.Put(events.FuncEnter, 0, 0x1000)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	n := 0
	r := replay(t, dir, func(ev *Event) {
		if ev.Type == events.FuncEnter {
			n++
		}
	})
	stacks, _ := r.Unfinished()
	if n != 1 || len(stacks) != 1 || len(stacks[0][0].Open) != 1 || stacks[0][0].Open[0].Kind != FrameFunc {
		t.Errorf("%d calls handed on, left open %v", n, stacks)
	}
}
