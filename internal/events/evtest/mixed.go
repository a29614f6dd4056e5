package evtest

import "gopari/internal/events"

// Mixed writes a two-thread run that uses every record type: a parallel
// region with a nested one, a critical section and a lock, a loop in
// chunks, a taskgroup whose task another thread resumes (RESUME), an
// undeferred task, a taskloop and dropped records.
func Mixed(dir string) (*Sim, error) {
	s, err := New(dir)
	if err != nil {
		return nil, err
	}
	par := s.Region("parallel", "mixed.c", 10)
	inner := s.Region("parallel", "mixed.c", 12)
	crit := s.Region("critical", "mixed.c", 14)
	lock := s.Region("lock", "mixed.c", 16)
	loop := s.Region("for", "mixed.c", 18)
	tg := s.Region("taskgroup", "mixed.c", 20)
	task := s.Region("task", "mixed.c", 21)
	tl := s.Region("taskloop", "mixed.c", 24)
	yield := s.Region("taskyield", "mixed.c", 22)
	a, b, ia, ib := s.team(par)
	mixedLocks(a, b, crit, lock)
	mixedLoop(a, b, loop)

	// Thread b forks a nested team of one thread.
	b.Put(events.Fork, inner, ib)
	b.Put(events.Loc, 0, s.Loc("0.1.0", 1))
	in := b.NewID()
	b.Put(events.ImplicitBegin, inner, in, ib)
	b.Put(events.ImplicitEnd, inner, in)
	b.Put(events.Loc, 0, s.Loc("0.1", 1))
	b.Put(events.Join, inner, ib)

	mixedTaskgroup(a, b, ia, tg, task, yield)

	// A taskloop of 8 iterations in two tasks, one per thread.
	a.Put(events.EnterConstruct, tl)
	sync(a, b)
	l1, l2 := a.NewID(), a.NewID()
	a.Put(events.TaskloopBegin, tl, l1, ia, 0)
	b.Put(events.TaskloopBegin, tl, l2, ia, 4)
	a.Put(events.TaskloopEnd, tl, l1, 3)
	b.Put(events.TaskloopEnd, tl, l2, 7)
	a.Put(events.ExitConstruct, tl)
	a.Put(events.Dropped, 0, 5)

	a.Put(events.ImplicitEnd, par, ia)
	b.Put(events.ImplicitEnd, par, ib)
	sync(a, b)
	a.Put(events.Loc, 0, s.Loc("0", 0))
	a.Put(events.Join, par, 0)
	return s, s.Close()
}

// team starts two OS threads and a team of two in parallel region par:
// thread a, at location 0, forks; a becomes 0.0 and b 0.1, and each
// begins its implicit task, whose IDs it returns.
func (s *Sim) team(par uint32) (a, b *Thread, ia, ib uint64) {
	a, b = s.Thread(), s.Thread()
	a.Put(events.Loc, 0, s.Loc("0", 0))
	a.Put(events.Fork, par, 0)
	b.T = a.T
	a.Put(events.Loc, 0, s.Loc("0.0", 0))
	b.Put(events.Loc, 0, s.Loc("0.1", 1))
	ia, ib = a.NewID(), b.NewID()
	a.Put(events.ImplicitBegin, par, ia, 0)
	b.Put(events.ImplicitBegin, par, ib, 0)
	return a, b, ia, ib
}

// mixedLocks: a critical section and lock routines, on both threads.
func mixedLocks(a, b *Thread, crit, lock uint32) {
	for _, t := range []*Thread{a, b} {
		t.Put(events.EnterConstruct, crit)
		t.Put(events.LockAcquired, crit, 0xc0ffee)
		t.Put(events.EnterBody, crit)
		t.Put(events.ExitBody, crit)
		t.Put(events.LockReleased, crit, 0xc0ffee)
		t.Put(events.ExitConstruct, crit)
		t.Put(events.EnterConstruct, lock)
		t.Put(events.LockAcquired, lock, 0x1000)
		t.Put(events.ExitConstruct, lock)
		t.Put(events.LockReleased, lock, 0x1000)
	}
}

// mixedLoop: a loop of 10 iterations, schedule(static, 3): chunks 0-2,
// 6-8 on a; 3-5, 9 on b; then its barrier.
func mixedLoop(a, b *Thread, loop uint32) {
	for i, t := range []*Thread{a, b} {
		t.Put(events.EnterConstruct, loop)
		for first := 3 * i; first < 10; first += 6 {
			last := min(first+2, 9)
			t.Put(events.ChunkBegin, loop, uint64(first))
			t.Wait(30)
			t.Put(events.ChunkEnd, loop, uint64(last))
		}
		t.Put(events.ExitConstruct, loop)
		t.Put(events.EnterBarrier, loop)
	}
	sync(a, b)
	a.Put(events.ExitBarrier, loop)
	b.Put(events.ExitBarrier, loop)
}

// mixedTaskgroup: a taskgroup on a: one deferred task, begun on a,
// suspended at a taskyield, resumed on b; one undeferred task.
func mixedTaskgroup(a, b *Thread, ia uint64, tg, task, yield uint32) {
	a.Put(events.EnterConstruct, tg)
	a.Put(events.EnterBody, tg)
	t1 := a.NewID()
	a.Put(events.CreateBegin, task, t1)
	a.Put(events.CreateEnd, task, t1)
	t2 := a.NewID()
	a.Put(events.CreateBegin, task, t2)
	a.Put(events.TaskBegin, task, t2, ia)
	a.Put(events.TaskEnd, task, t2)
	a.Put(events.CreateEnd, task, t2)
	a.Put(events.ExitBody, tg)
	a.Put(events.EnterWait, tg)
	a.Put(events.TaskBegin, task, t1, ia)
	a.Put(events.EnterConstruct, yield)
	sync(a, b)
	b.Put(events.Resume, 0, t1)
	b.Put(events.ExitConstruct, yield)
	b.Put(events.TaskEnd, task, t1)
	sync(a, b)
	a.Put(events.ExitWait, tg)
	a.Put(events.ExitConstruct, tg)
}

// sync sets both threads' clocks to the later one.
func sync(a, b *Thread) {
	if a.T < b.T {
		a.T = b.T
	} else {
		b.T = a.T
	}
}
