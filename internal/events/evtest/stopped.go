package evtest

import "gopari/internal/events"

// Stopped writes a run that a signal ended in the middle: a team of two
// threads that never joined, a task still running in a taskwait, a
// critical section never left, a chunk never ended. Its profile says the
// stream is incomplete.
func Stopped(dir string) (*Sim, error) {
	s, err := New(dir)
	if err != nil {
		return nil, err
	}
	s.Extra = map[string]any{"exit": "SIGINT"}
	s.Incomplete = true
	par := s.Region("parallel", "stop.c", 3)
	single := s.Region("single", "stop.c", 5)
	task := s.Region("task", "stop.c", 7)
	wait := s.Region("taskwait", "stop.c", 9)
	crit := s.Region("critical", "stop.c", 11)
	loop := s.Region("for", "stop.c", 13)
	a, b, ia, _ := s.team(par)
	a.Put(events.EnterConstruct, single)
	a.Put(events.EnterBody, single)
	t := a.NewID()
	a.Put(events.CreateBegin, task, t)
	a.Put(events.CreateEnd, task, t)
	b.T = a.T
	b.Put(events.EnterConstruct, loop)
	b.Put(events.ChunkBegin, loop, 0)
	b.Put(events.TaskBegin, task, t, ia)
	b.Put(events.EnterConstruct, wait)
	a.Put(events.EnterConstruct, crit)
	a.Put(events.LockAcquired, crit, 7)
	a.Put(events.EnterBody, crit)
	return s, s.Close()
}
