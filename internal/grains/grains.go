// Package grains reconstructs grains from a run's event stream: every
// task instance, taskloop task and loop chunk, with its creation,
// scheduling and execution times, lineage and place in the fork-join
// structure. It computes the metrics of the grain-graph method
// (Muddukrishna et al., PPoPP 2016; seeds 001 and 003): parallel
// benefit, work deviation against a 1-thread baseline, instantaneous
// parallelism along the critical path, load balance of a loop's chunks
// and scatter of siblings; and writes them as CSV, as a grain graph (DOT
// and GraphML) and as a summary of the grains to fix.
//
// Grains are streamed: memory is proportional to the live tasks and to
// what is output (the graph's nodes, up to a limit; per-family and
// per-loop results), never to the number of events.
package grains

import (
	"sort"
	"strconv"

	"gopari/internal/events"
	"gopari/internal/timeline"
)

// A Kind is what a grain is.
type Kind uint8

const (
	Task     Kind = iota // a task construct's instance
	Taskloop             // a task a taskloop generated
	Chunk                // a chunk of a worksharing loop
)

var kindNames = [...]string{"task", "taskloop", "chunk"}

func (k Kind) String() string { return kindNames[k] }

// A Grain is one task instance or loop chunk, as the stream shows it.
// Times are in ticks of the run's clock.
type Grain struct {
	Kind    Kind
	Region  uint32
	ID      uint64 // task ID; for a chunk, its implicit task's
	Parent  uint64 // the creating task (for a chunk, the implicit task)
	Lineage string
	Loc     int // team-tree location that executed it (first)
	// Locs are every location it executed at, in order, when it moved
	// (an untied task); nil otherwise.
	Locs []int
	// Iterations: logical numbers, for chunks and taskloop tasks, and
	// for chunks the loop variable's values where it is an integer
	// (else events.UnknownIteration).
	First, Last           int64
	FirstValue, LastValue int64
	HasIters              bool
	Begin, End            uint64
	Exec                  uint64 // ticks executing: suspended time and waits in taskwait/taskgroup excluded
	Wait                  uint64 // ticks waiting in taskwait or taskgroup (not suspended)
	Create                uint64 // creation cost: until queued, or (undeferred) until it begins
	Sched                 uint64 // scheduling or dispatch cost observed on the executing thread
	// CreateLoc is the location that created the task (-1 unknown);
	// CreateBegin and CreateEnd the creation's span, in ticks.
	CreateLoc              int
	CreateBegin, CreateEnd uint64
	Suspensions            int
	Children               int
	Undeferred             bool
	// Structure: the family (parent task ID, or the loop instance) and
	// the synchronisation epoch of the parent at creation.
	Epoch int
	Loop  LoopKey // chunks: their loop instance
	Team  int     // serial number of the team the grain ran in, -1 outside any
	// ParentRegion is the region of the parent task, 0 for an implicit or
	// initial task; TeamSize the size of the grain's team (chunks).
	ParentRegion uint32
	TeamSize     int
}

// LoopKey names one execution of a worksharing loop by one team.
type LoopKey struct {
	Team   int
	Region uint32
	N      int // the how-many-th execution of the loop by the team
}

// taskState is what the extractor keeps per live task.
type taskState struct {
	locs    []int  // the locations it executed at
	waits   int    // taskwait / taskgroup ends so far: the epoch of new children
	wait    uint64 // execution ticks spent waiting in taskwait and taskgroup
	waitAt  uint64 // execution ticks at the start of the current wait
	pending bool   // ended before its (undeferred) creation ended
	epoch   int    // the epoch it was created in
	sched   uint64
	loops   map[uint32]*loopRun // implicit tasks: the loops they run
	chunk   *chunkState
	team    int
	hasTeam bool
}

type loopRun struct {
	n         int    // executions so far
	lastFirst int64  // first iteration of its last chunk
	lastEnd   uint64 // end of its last chunk
	started   bool
	// entered is set when the stream marks executions with ENTER records
	// of the loop (the runtime's --chunks): enter is when this one began,
	// dispatch the time from there to its first chunk, chunks its chunks
	// so far.
	entered  bool
	enter    uint64
	dispatch uint64
	chunks   int
}

type chunkState struct {
	region   uint32
	first    int64
	firstV   int64
	vstep    int64 // a counting chunk's value per iteration
	counting bool  // its iterations are known at its end
	begin    uint64
	exec0    uint64 // the implicit task's execution ticks at the chunk's begin
	sched    uint64
	hook     bool // its time holds one dispatch: it ends when the next begins, or begins where the previous ended
	loop     LoopKey
}

type threadState struct {
	last     uint64
	lastType events.Type
}

// extractor turns replay events into grains.
type extractor struct {
	r       *timeline.Replay
	exp     *events.Experiment
	emit    func(*Grain, *timeline.Event)
	threads map[int]*threadState
	teams   map[*timeline.Team]int
	nteams  int
	g       Grain
}

// Extract replays exp and calls emit for every grain as it completes,
// with the replay event that completed it. The grain is reused: copy it
// to keep it.
func Extract(exp *events.Experiment, emit func(*Grain, *timeline.Event), observe func(*timeline.Replay, *timeline.Event)) (*timeline.Replay, error) {
	x := &extractor{exp: exp, emit: emit, threads: map[int]*threadState{}, teams: map[*timeline.Team]int{}}
	x.r = timeline.New(exp)
	err := x.r.Run(func(ev *timeline.Event) error {
		x.event(ev)
		if observe != nil {
			observe(x.r, ev)
		}
		th := x.threads[ev.OS]
		if th == nil {
			th = &threadState{}
			x.threads[ev.OS] = th
		}
		th.last, th.lastType = ev.Time, ev.Type
		return nil
	})
	if err == nil {
		x.flushPending()
	}
	return x.r, err
}

// flushPending emits the tasks that ended where the stream does not hold
// the end of their creation: a run killed, or ended, between the two. An
// undeferred task's creation ends when the task does (docs/events.md),
// so its grain is whole; a task run by another thread than its creator's
// keeps an unknown creation end (and no creation cost).
func (x *extractor) flushPending() {
	var ts []*timeline.Task
	for _, t := range x.r.Live() {
		if s, ok := t.Data.(*taskState); ok && s.pending {
			ts = append(ts, t)
		}
	}
	sort.Slice(ts, func(i, j int) bool { return ts[i].ID < ts[j].ID })
	for _, t := range ts {
		state(t).pending = false
		if t.Undeferred {
			t.CreateEnd, t.CreateDone = t.End, true
		}
		x.task(&timeline.Event{Record: events.Record{Type: events.CreateEnd, Region: t.Region, Time: t.End}, OS: -1, Loc: t.Loc, Task: t, From: -1})
	}
}

func state(t *timeline.Task) *taskState {
	if t == nil {
		return nil
	}
	if s, ok := t.Data.(*taskState); ok {
		return s
	}
	s := &taskState{}
	t.Data = s
	return s
}

func (x *extractor) teamOf(t *timeline.Task) int {
	s := state(t)
	if s.hasTeam {
		return s.team
	}
	s.hasTeam = true
	s.team = -1
	if t.Team != nil {
		n, ok := x.teams[t.Team]
		if !ok {
			n = x.nteams
			x.nteams++
			x.teams[t.Team] = n
		}
		s.team = n
	}
	return s.team
}

// dispatchGap returns the time since the OS thread's previous record if
// that record ended a grain: back-to-back dispatch, the runtime's cost of
// handing out the next grain. Other gaps may hold idle waiting.
func (x *extractor) dispatchGap(os int, t uint64) uint64 {
	th := x.threads[os]
	if th == nil || t < th.last {
		return 0
	}
	switch th.lastType {
	case events.TaskEnd, events.TaskloopEnd, events.ChunkEnd:
		return t - th.last
	}
	return 0
}

func (x *extractor) event(ev *timeline.Event) {
	switch typ := ev.Type; {
	case typ == events.CreateBegin:
		state(ev.Task).epoch = state(ev.Other).waits
	case typ == events.EnterConstruct || typ == events.EnterWait:
		if x.isWait(ev) {
			state(ev.Task).waitAt = ev.Task.Running(ev.Time)
		}
		if typ == events.EnterConstruct {
			x.loopEnter(ev)
		}
	case typ == events.ExitConstruct || typ == events.ExitWait:
		// The end of a taskwait, or of a taskgroup's wait: children
		// created after it belong to the next epoch, and the time the
		// task spent there, less the tasks it ran meanwhile, is
		// synchronisation, not work.
		if x.isWait(ev) {
			s := state(ev.Task)
			s.waits++
			if now := ev.Task.Running(ev.Time); now >= s.waitAt {
				s.wait += now - s.waitAt
			}
		}
	case typ == events.CreateEnd:
		if s := state(ev.Task); s.pending {
			s.pending = false
			x.task(ev)
		}
	case typ == events.Resume:
		x.moved(ev)
	case typ == events.TaskBegin, typ == events.TaskloopBegin:
		s := state(ev.Task)
		s.locs = append(s.locs[:0], ev.Loc)
		if !ev.Task.Undeferred {
			s.sched = x.dispatchGap(ev.OS, ev.Time)
		}
		s.team = -1
		if p := x.r.Live()[ev.Task.Parent]; p != nil {
			if typ == events.TaskloopBegin {
				s.epoch = state(p).waits
			}
			switch p.Kind {
			case timeline.Implicit:
				s.team = x.teamOf(p)
			case timeline.Explicit, timeline.Taskloop:
				s.team = state(p).team
			}
		}
	case typ == events.TaskEnd, typ == events.TaskloopEnd:
		if ev.Task.Created && !ev.Task.CreateDone {
			state(ev.Task).pending = true // undeferred: its creation ends later
			break
		}
		x.task(ev)
	case typ == events.ChunkBegin:
		x.chunkBegin(ev)
	case typ == events.ChunkEnd:
		x.chunkEnd(ev)
	}
}

// isWait reports whether ev enters or exits a taskwait, or a taskgroup's
// wait phase.
func (x *extractor) isWait(ev *timeline.Event) bool {
	r := x.exp.Region(ev.Region)
	if r == nil {
		return false
	}
	switch ev.Type {
	case events.EnterConstruct, events.ExitConstruct:
		return r.Kind == "taskwait"
	case events.EnterWait, events.ExitWait:
		return r.Kind == "taskgroup"
	}
	return false
}

func (x *extractor) task(ev *timeline.Event) {
	t := ev.Task
	s := state(t)
	g := &x.g
	*g = Grain{Kind: Task, Region: t.Region, ID: t.ID, Parent: t.Parent, Lineage: t.Lineage, Loc: t.Loc,
		Begin: t.Begin, End: t.End, Exec: t.Exec - min(s.wait, t.Exec), Wait: s.wait, Sched: s.sched, Suspensions: t.Suspensions, Children: t.Children,
		Undeferred: t.Undeferred, Epoch: s.epoch, Team: -1, FirstValue: events.UnknownIteration, LastValue: events.UnknownIteration}
	if t.Kind == timeline.Taskloop {
		// Logical iterations, or unknown when gopari could not number
		// them (docs/events.md).
		g.Kind, g.First, g.Last, g.HasIters = Taskloop, t.First, t.Last, t.First != events.UnknownIteration
	}
	// Creation runs until the task is queued, or for an undeferred task
	// until it begins, as in the profile: never its execution.
	if t.Created && t.CreateDone && t.CreateEnd >= t.CreateBegin {
		g.Create = t.CreateEnd - t.CreateBegin
		if t.Undeferred && t.Begin >= t.CreateBegin {
			g.Create = t.Begin - t.CreateBegin
		}
	}
	g.Team = s.team
	g.CreateLoc = -1
	if t.Created {
		g.CreateLoc, g.CreateBegin, g.CreateEnd = t.CreateLoc, t.CreateBegin, t.CreateEnd
	}
	if len(s.locs) > 1 {
		g.Locs = s.locs
	}
	if p := x.r.Live()[t.Parent]; p != nil && (p.Kind == timeline.Explicit || p.Kind == timeline.Taskloop) {
		g.ParentRegion = p.Region
	}
	x.emit(g, ev)
}

// moved notes the location a resumed task continues at.
func (x *extractor) moved(ev *timeline.Event) {
	if ev.Task == nil || ev.Task.Kind == timeline.Implicit || ev.Task.Kind == timeline.Initial {
		return
	}
	s := state(ev.Task)
	if n := len(s.locs); n == 0 || s.locs[n-1] != ev.Loc {
		s.locs = append(s.locs, ev.Loc)
	}
}

// loop returns the implicit task's record of loop region.
func (x *extractor) loop(t *timeline.Task, region uint32) *loopRun {
	s := state(t)
	if s.loops == nil {
		s.loops = map[uint32]*loopRun{}
	}
	lr := s.loops[region]
	if lr == nil {
		lr = &loopRun{}
		s.loops[region] = lr
	}
	return lr
}

// loopEnter starts an execution of a for loop whose chunks are recorded.
func (x *extractor) loopEnter(ev *timeline.Event) {
	if r := x.exp.Region(ev.Region); r == nil || r.Kind != "for" || ev.Task == nil {
		return
	}
	lr := x.loop(ev.Task, ev.Region)
	if lr.started {
		lr.n++
	}
	lr.started, lr.entered, lr.enter, lr.chunks = true, true, ev.Time, 0
}

func (x *extractor) chunkBegin(ev *timeline.Event) {
	t := ev.Task
	s := state(t)
	lr := x.loop(t, ev.Region)
	first := int64(ev.Args[0])
	c := &chunkState{region: ev.Region, first: first, firstV: arg(ev, 1), begin: ev.Time, exec0: t.Running(ev.Time)}
	exact, dispatchFirst := false, false
	switch {
	case first == events.UnknownIteration:
		// A counting chunk: the runtime says its iterations at its end.
		c.counting, c.vstep = true, int64(ev.Args[2])
	case ev.N >= 3 && ev.Args[2] == 1:
		exact = true // strip-mined, static: it ends where its iterations end
	case ev.N >= 3 && ev.Args[2] == 2:
		// Strip-mined, dynamic: it ends where its iterations end, and
		// begins with the runtime's dispatch of it, but for the thread's
		// first.
		dispatchFirst = true
	}
	switch {
	case lr.entered && exact:
		// The runtime's dispatch lies between the thread's chunks.
		if lr.chunks == 0 {
			c.sched = ev.Time - min(lr.enter, ev.Time)
		} else if ev.Time >= lr.lastEnd {
			c.sched = ev.Time - lr.lastEnd
		}
		lr.chunks++
	case lr.entered:
		// The stream marks executions; a chunk ends when its thread
		// begins the next one, so each holds one dispatch, estimated as
		// the time the thread took to get its first chunk. A dynamic
		// strip-mined chunk holds its own at its start instead, but for
		// the thread's first four, whose last three dispatches the
		// runtime times.
		if lr.chunks == 0 && ev.Time >= lr.enter {
			lr.dispatch = ev.Time - lr.enter
		}
		switch {
		case c.counting:
		case dispatchFirst && lr.chunks > 0 && ev.Time > lr.lastEnd:
			// A dispatch the runtime times, between the end of a chunk
			// and the beginning of the thread's next: the shortest is
			// the estimate of the others, so that a thread preempted in
			// one does not shorten every later chunk.
			c.sched = ev.Time - lr.lastEnd
			if lr.chunks == 1 || c.sched < lr.dispatch {
				lr.dispatch = c.sched
			}
		case dispatchFirst:
			c.sched, c.hook = lr.dispatch, lr.chunks > 0
		default:
			c.sched, c.hook = lr.dispatch, true
		}
		lr.chunks++
	case !lr.started || first <= lr.lastFirst:
		// A new execution of the loop when the iterations start over.
		if lr.started {
			lr.n++
		}
		lr.started = true
	case ev.Time >= lr.lastEnd:
		c.sched = ev.Time - lr.lastEnd
	}
	lr.lastFirst = first
	c.loop = LoopKey{Team: x.teamOf(t), Region: ev.Region, N: lr.n}
	s.chunk = c
}

func (x *extractor) chunkEnd(ev *timeline.Event) {
	t := ev.Task
	s := state(t)
	c := s.chunk
	if c == nil || c.region != ev.Region {
		return
	}
	s.chunk = nil
	if lr := s.loops[ev.Region]; lr != nil {
		lr.lastEnd = ev.Time
	}
	last, lastV := int64(ev.Args[0]), arg(ev, 1)
	first, firstV := c.first, c.firstV
	if c.counting {
		n := int64(ev.Args[2])
		if n <= 0 {
			return // the thread got no iteration
		}
		first, firstV = last-n+1, events.UnknownIteration
		if lastV != events.UnknownIteration && c.vstep != 0 {
			firstV = lastV - (n-1)*c.vstep
		}
	}
	exec := t.Running(ev.Time) - c.exec0
	if c.hook {
		exec -= min(c.sched, exec)
	}
	g := &x.g
	*g = Grain{Kind: Chunk, Region: ev.Region, ID: t.ID, Parent: t.ID, Loc: ev.Loc, First: first, Last: last,
		FirstValue: firstV, LastValue: lastV, HasIters: true, CreateLoc: -1,
		Begin: c.begin, End: ev.Time, Exec: exec, Sched: c.sched, Loop: c.loop, Team: c.loop.Team,
		Lineage: t.Lineage + ".c" + strconv.Itoa(int(ev.Region)) + "." + strconv.Itoa(c.loop.N) + "@" + strconv.FormatInt(first, 10)}
	if t.Team != nil {
		g.TeamSize = len(t.Team.Members)
	}
	x.emit(g, ev)
}

// arg returns payload word i of a chunk record as a loop variable's
// value: events.UnknownIteration when the record does not carry it
// (streams that give iterations only).
func arg(ev *timeline.Event, i int) int64 {
	if ev.N <= i {
		return events.UnknownIteration
	}
	return int64(ev.Args[i])
}
