package evtest

import "gopari/internal/events"

// Tiny writes the stream of Lorenz et al.'s tiny-task program: in a parallel
// region of threads threads, thread 0 creates tasks tasks in a single
// construct, and the team executes them round robin, each taking work
// ticks. It writes about 4 records per task, straight to disk: the
// generator's memory does not grow with tasks.
func Tiny(dir string, tasks, threads int, work uint64) (*Sim, error) {
	s, err := New(dir)
	if err != nil {
		return nil, err
	}
	s.BlockSize = 1 << 20
	par := s.Region("parallel", "tiny.c", 10)
	single := s.Region("single", "tiny.c", 12)
	task := s.Region("task", "tiny.c", 14)
	th := make([]*Thread, threads)
	for i := range th {
		th[i] = s.Thread()
		th[i].Step = 2
	}
	m := th[0]
	m.Put(events.Loc, 0, s.Loc("0", 0))
	m.Put(events.Fork, par, 0)
	ids := make([]uint64, threads)
	for i, t := range th {
		t.T = m.T
		t.Put(events.Loc, 0, s.Loc("0."+Itoa(i), i))
		ids[i] = t.NewID()
		t.Put(events.ImplicitBegin, par, ids[i], 0)
	}
	m.Put(events.EnterConstruct, single)
	m.Put(events.EnterBody, single)
	for i := 0; i < tasks; i++ {
		id := m.NewID()
		m.Put(events.CreateBegin, task, id)
		m.Put(events.CreateEnd, task, id)
		e := th[i%threads]
		if e.T < m.T {
			e.T = m.T
		}
		e.Put(events.TaskBegin, task, id, ids[0])
		e.Wait(work)
		e.Put(events.TaskEnd, task, id)
	}
	m.Put(events.ExitBody, single)
	m.Put(events.ExitConstruct, single)
	end := m.T
	for _, t := range th {
		end = max(end, t.T)
	}
	for i, t := range th {
		t.T = end
		t.Put(events.ImplicitEnd, par, ids[i])
	}
	m.Put(events.Loc, 0, s.Loc("0", 0))
	m.Put(events.Join, par, 0)
	return s, s.Close()
}
