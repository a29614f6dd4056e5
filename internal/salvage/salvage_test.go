package salvage

import (
	"path/filepath"
	"testing"

	"gopari/internal/events"
	"gopari/internal/events/evtest"
)

// TestRead summarises a killed run whose stream is known by
// construction: a team of two threads; each creates and runs 5 tasks of
// 100 ticks (1 ns each), in a single of 3 visits on thread 0, and leaves
// a sixth task running, a critical section open and a creation
// unfinished when the stream ends.
func TestRead(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "exp")
	s, err := evtest.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	s.Killed = true
	par := s.Region("parallel", "k.c", 3)
	single := s.Region("single", "k.c", 4)
	task := s.Region("task", "k.c", 5)
	crit := s.Region("critical", "k.c", 7)
	a, b := s.Thread(), s.Thread()
	a.Put(events.Loc, 0, s.Loc("0", 0))
	a.Put(events.Fork, par, 0)
	for i, th := range []*evtest.Thread{a, b} {
		th.T = a.T
		th.Put(events.Loc, 0, s.Loc("0."+evtest.Itoa(i), i))
		imp := th.NewID()
		th.Put(events.ImplicitBegin, par, imp, 0)
		for j := 0; j < 5; j++ {
			id := th.NewID()
			th.Put(events.CreateBegin, task, id) // creations of 10 ticks
			th.Put(events.CreateEnd, task, id)
			th.Put(events.TaskBegin, task, id, imp)
			th.Wait(90)
			th.Put(events.TaskEnd, task, id) // 100 ticks
		}
		id := th.NewID()
		th.Put(events.CreateBegin, task, id)
		th.Put(events.CreateEnd, task, id)
		th.Put(events.TaskBegin, task, id, imp)
		if i == 0 {
			for k := 0; k < 3; k++ {
				th.Put(events.EnterConstruct, single)
				th.Wait(40)
				th.Put(events.ExitConstruct, single) // 50 ticks
			}
			th.Put(events.EnterConstruct, crit)
			th.Put(events.LockAcquired, crit, 7)
		} else {
			th.Put(events.CreateBegin, task, th.NewID())
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	exp, err := events.OpenExperiment(dir)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := Read(exp)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[uint32]*Region{}
	for _, g := range sum.Regions {
		byID[g.ID] = g
	}
	tk, sg, cr, pr := byID[task], byID[single], byID[crit], byID[par]
	if tk == nil || sg == nil || cr == nil || pr == nil {
		t.Fatalf("regions %v", sum.Regions)
	}
	// Tasks: 13 creations begun, 12 ended (10 ticks each), 12 begun, 10
	// completed (100 ticks each); open: the 2 tasks running and the
	// creation that never ended.
	if tk.Created != 13 || tk.Creations != (Span{12, 120}) || tk.Begun != 12 || tk.Exec != (Span{10, 1000}) || tk.Open != 3 {
		t.Errorf("task: %+v", *tk)
	}
	if sg.Phases[events.PhaseConstruct] != (Span{3, 150}) || sg.Open != 0 {
		t.Errorf("single: %+v", *sg)
	}
	if cr.Locks != 1 || cr.Open != 1 || cr.Phases[events.PhaseConstruct].N != 0 {
		t.Errorf("critical: %+v", *cr)
	}
	// The team never joined: the fork and both implicit tasks are open.
	if pr.Forks.N != 0 || pr.Implicit.N != 0 || pr.Open != 3 {
		t.Errorf("parallel: %+v", *pr)
	}
	if sum.Records != s.Records() || sum.Unmatched != 0 || len(sum.Threads) != 2 || sum.EndNs != float64(max(a.T, b.T)-s.Tick0-a.Step) {
		t.Errorf("records %d of %d, unmatched %d, threads %+v, end %v", sum.Records, s.Records(), sum.Unmatched, sum.Threads, sum.EndNs)
	}
}
