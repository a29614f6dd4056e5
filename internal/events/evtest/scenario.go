package evtest

import (
	"gopari/internal/events"
)

// FibCounts is what a fib scenario recorded, by construction.
type FibCounts struct {
	Tasks       int // explicit tasks created (and executed)
	Undeferred  int // of them, executed by their creator at once
	Suspensions int // suspensions of explicit tasks
	Taskwaits   int // taskwait visits
	Threads     int
	MaxDepth    int
	Lineages    map[string]bool
}

// Fib writes the stream of a program that computes fib(n) with tasks in
// a single construct of a parallel region of threads threads:
//
//	fib(n): if n < 2 or n <= cutoff: compute serially
//	        else task fib(n-1); task fib(n-2); taskwait
//
// Tasks for which undeferred(n) holds run at once in their creator (an
// if(0) clause). Deferred children are executed, round robin over the
// team, inside their parent's taskwait when they fall to the parent's
// thread, or by the other threads, which wait in the taskwait of an
// ancestor or in the closing barrier. Work is leafTicks per leaf call.
func Fib(dir string, n, cutoff, threads int, leafTicks uint64, undeferred func(n int) bool) (*Sim, FibCounts, error) {
	return FibCreate(dir, n, cutoff, threads, leafTicks, 0, undeferred)
}

// FibCreate is Fib with task creations that take createTicks.
func FibCreate(dir string, n, cutoff, threads int, leafTicks, createTicks uint64, undeferred func(n int) bool) (*Sim, FibCounts, error) {
	s, err := New(dir)
	if err != nil {
		return nil, FibCounts{}, err
	}
	s.CreateTicks = createTicks
	g := &fibGen{s: s, c: FibCounts{Threads: threads, Lineages: map[string]bool{}}, cutoff: cutoff, leafTicks: leafTicks,
		undeferred: undeferred}
	par := s.Region("parallel", "fib.c", 20)
	single := s.Region("single", "fib.c", 22)
	g.task1 = s.Region("task", "fib.c", 10)
	g.task2 = s.Region("task", "fib.c", 12)
	g.wait = s.Region("taskwait", "fib.c", 14)
	root := s.Loc("0", 0)
	g.th = make([]*Thread, threads)
	for i := range g.th {
		g.th[i] = s.Thread()
	}
	m := g.th[0]
	m.Put(events.Loc, 0, root)
	m.Put(events.Fork, par, 0)
	implicit := make([]uint64, threads)
	for i, t := range g.th {
		if t.T < m.T {
			t.T = m.T
		}
		t.Put(events.Loc, 0, s.Loc("0."+Itoa(i), i))
		implicit[i] = t.NewID()
		t.Put(events.ImplicitBegin, par, implicit[i], 0)
		t.cur = implicit[i]
		t.implicit = true
	}
	m.Put(events.EnterConstruct, single)
	m.Put(events.EnterBody, single)
	g.fib(m, n, 0, "")
	m.Put(events.ExitBody, single)
	m.Put(events.ExitConstruct, single)
	join := m.T
	for i, t := range g.th {
		t.Put(events.ImplicitEnd, par, implicit[i])
		join = max(join, t.T)
	}
	m.T = join
	m.Put(events.Loc, 0, root)
	m.Put(events.Join, par, 0)
	return s, g.c, s.Close()
}

// fibGen writes a fib scenario's tasks.
type fibGen struct {
	s                  *Sim
	c                  FibCounts
	th                 []*Thread
	rr                 int // the next thread to run a deferred child
	cutoff             int
	leafTicks          uint64
	undeferred         func(n int) bool
	task1, task2, wait uint32
}

// fibChild is a deferred child task, created and not yet run.
type fibChild struct {
	n      int
	id     uint64
	region uint32
	ready  uint64
	lin    string
}

func leaf(n int) int {
	if n < 2 {
		return n
	}
	return leaf(n-1) + leaf(n-2)
}

// fib runs fib(n) on thread t as its current task (lineage lin) at depth
// d: it creates the two children, runs the undeferred ones at once, and
// the deferred ones in its taskwait, round robin over the team.
func (g *fibGen) fib(t *Thread, n, d int, lin string) int {
	g.c.MaxDepth = max(g.c.MaxDepth, d)
	if n < 2 || n <= g.cutoff {
		t.Wait(g.leafTicks)
		return leaf(n)
	}
	var kids []fibChild
	var sum int
	for k, cn := range []int{n - 1, n - 2} {
		v, kid := g.create(t, k, cn, d, lin)
		if kid == nil {
			sum += v
		} else {
			kids = append(kids, *kid)
		}
	}
	g.c.Taskwaits++
	t.Put(events.EnterConstruct, g.wait)
	end := t.T
	for _, k := range kids {
		e := g.th[g.rr%len(g.th)]
		g.rr++
		e.T = max(e.T, k.ready)
		prev := e.cur
		g.c.Suspensions += suspendOf(prev)
		e.Put(events.TaskBegin, k.region, k.id, t.cur)
		e.cur = k.id
		sum += g.fib(e, k.n, d+1, k.lin)
		e.Put(events.TaskEnd, k.region, k.id)
		e.cur = prev
		end = max(end, e.T)
	}
	t.T = max(t.T, end)
	t.Put(events.ExitConstruct, g.wait)
	return sum
}

// create creates child k (fib(cn)) of the task t runs: an undeferred
// child runs at once and create returns its value; a deferred one is
// returned to run later.
func (g *fibGen) create(t *Thread, k, cn, d int, lin string) (int, *fibChild) {
	region := g.task1
	if k == 1 {
		region = g.task2
	}
	id := t.NewID()
	parent := t.cur
	clin := lin + "." + Itoa(k)
	if lin == "" {
		clin = "R.p0.w0." + Itoa(t.s.rootChildren) // the single of the region
		t.s.rootChildren++
	}
	g.c.Tasks++
	g.c.Lineages[clin] = true
	t.Put(events.CreateBegin, region, id)
	t.Wait(t.s.CreateTicks)
	if g.undeferred == nil || !g.undeferred(cn) {
		t.Put(events.CreateEnd, region, id)
		return 0, &fibChild{cn, id, region, t.T, clin}
	}
	g.c.Undeferred++
	g.c.Suspensions += suspendOf(parent)
	t.Put(events.TaskBegin, region, id, parent)
	t.cur = id
	v := g.fib(t, cn, d+1, clin)
	t.Put(events.TaskEnd, region, id)
	t.cur = parent
	t.Put(events.CreateEnd, region, id)
	return v, nil
}

// suspendOf counts the suspension of the task a thread executes when
// another task begins there: implicit tasks' suspensions are not explicit
// tasks' suspensions.
func suspendOf(cur uint64) int {
	if cur&0xffffffff == 1 { // the first ID of a thread: its implicit task here
		return 0
	}
	return 1
}
