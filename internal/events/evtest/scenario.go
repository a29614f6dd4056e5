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
	c := FibCounts{Threads: threads, Lineages: map[string]bool{}}
	par := s.Region("parallel", "fib.c", 20)
	single := s.Region("single", "fib.c", 22)
	task1 := s.Region("task", "fib.c", 10)
	task2 := s.Region("task", "fib.c", 12)
	wait := s.Region("taskwait", "fib.c", 14)
	root := s.Loc("0", 0)
	th := make([]*Thread, threads)
	for i := range th {
		th[i] = s.Thread()
	}
	m := th[0]
	m.Put(events.Loc, 0, root)
	m.Put(events.Fork, par, 0)
	implicit := make([]uint64, threads)
	for i, t := range th {
		if t.T < m.T {
			t.T = m.T
		}
		t.Put(events.Loc, 0, s.Loc("0."+Itoa(i), i))
		implicit[i] = t.NewID()
		t.Put(events.ImplicitBegin, par, implicit[i], 0)
	}
	rr := 0
	var leaf func(n int) int
	leaf = func(n int) int {
		if n < 2 {
			return n
		}
		return leaf(n-1) + leaf(n-2)
	}
	// fib runs on thread t as task id (lineage lin) at depth d.
	var fib func(t *Thread, n, d int, lin string) int
	fib = func(t *Thread, n, d int, lin string) int {
		if d > c.MaxDepth {
			c.MaxDepth = d
		}
		if n < 2 || n <= cutoff {
			t.Wait(leafTicks)
			return leaf(n)
		}
		type child struct {
			n      int
			id     uint64
			region uint32
			ready  uint64
			lin    string
		}
		var kids []child
		var sum int
		for k, cn := range []int{n - 1, n - 2} {
			region := task1
			if k == 1 {
				region = task2
			}
			id := t.NewID()
			parent := t.cur
			clin := lin + "." + Itoa(k)
			if lin == "" {
				clin = "R.p0." + Itoa(t.s.rootChildren)
				t.s.rootChildren++
			}
			c.Tasks++
			c.Lineages[clin] = true
			t.Put(events.CreateBegin, region, id)
			t.Wait(t.s.CreateTicks)
			if undeferred != nil && undeferred(cn) {
				c.Undeferred++
				c.Suspensions += suspendOf(parent)
				t.Put(events.TaskBegin, region, id, parent)
				t.cur = id
				sum += fib(t, cn, d+1, clin)
				t.Put(events.TaskEnd, region, id)
				t.cur = parent
				t.Put(events.CreateEnd, region, id)
				continue
			}
			t.Put(events.CreateEnd, region, id)
			kids = append(kids, child{cn, id, region, t.T, clin})
		}
		c.Taskwaits++
		t.Put(events.EnterConstruct, wait)
		end := t.T
		for _, k := range kids {
			e := th[rr%threads]
			rr++
			if e.T < k.ready {
				e.T = k.ready
			}
			prev := e.cur
			c.Suspensions += suspendOf(prev)
			e.Put(events.TaskBegin, k.region, k.id, t.cur)
			e.cur = k.id
			sum += fib(e, k.n, d+1, k.lin)
			e.Put(events.TaskEnd, k.region, k.id)
			e.cur = prev
			if e.T > end {
				end = e.T
			}
		}
		if t.T < end {
			t.T = end
		}
		t.Put(events.ExitConstruct, wait)
		return sum
	}
	for i, t := range th {
		t.cur = implicit[i]
		t.implicit = true
	}
	m.Put(events.EnterConstruct, single)
	m.Put(events.EnterBody, single)
	m.cur = implicit[0]
	fib(m, n, 0, "")
	m.Put(events.ExitBody, single)
	m.Put(events.ExitConstruct, single)
	join := m.T
	for i, t := range th {
		t.Put(events.ImplicitEnd, par, implicit[i])
		if t.T > join {
			join = t.T
		}
	}
	m.T = join
	m.Put(events.Loc, 0, root)
	m.Put(events.Join, par, 0)
	return s, c, s.Close()
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
