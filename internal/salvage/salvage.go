// Package salvage tells what a run killed before it wrote its profile
// did, from what it left: its event stream up to each thread's last
// complete block (events.Killed). It replays the stream
// (internal/timeline) and counts, per region, the visits, tasks, loop
// chunks and creations whose beginning and end are both in the stream,
// with their time, and what was still open when the stream ends.
//
// Every number is exact for the part of the run the stream holds, and
// partial for the run: each thread's last block, which the kill lost, and
// everything after it are missing. A grains stream (GOPARI_GRAINS=1)
// holds tasks, taskloops, loop chunks, parallel regions and the waits of
// taskwait and taskgroup; a trace every region.
package salvage

import (
	"sort"

	"gopari/internal/events"
	"gopari/internal/timeline"
)

// A Span is a count of complete intervals and their time, summed.
type Span struct {
	N  int64
	Ns float64
}

func (s *Span) add(ns float64) {
	s.N++
	s.Ns += ns
}

// A Region is what the stream holds of one region, summed over threads.
type Region struct {
	ID uint32
	// Phases are the complete visits of its phases (events.Phase:
	// construct, body, barrier, wait), ENTER to EXIT. A visit nested in
	// another of the same region, on one thread, counts again.
	Phases [4]Span
	// Forks are a parallel region's forks that joined, on the
	// encountering thread; Implicit its implicit tasks that ended their
	// body, with the body's time.
	Forks, Implicit Span
	// Tasks: creations begun (Created) and ended (Creations, their time),
	// instances begun (Begun) and completed (Exec, their execution time,
	// suspended time excluded).
	Created, Begun int64
	Creations      Span
	Exec           Span
	// Chunks are a loop's chunks that ended, with their time.
	Chunks Span
	// Locks counts acquisitions (lock routines, critical sections).
	Locks int64
	// Open counts what was begun and not ended when the stream ends:
	// visits, forks, implicit and explicit tasks, creations, chunks.
	Open int64
}

// Visits returns the region's complete visits and their time, counted as
// the profile's report counts a region of kind: a parallel region's
// forks and its team's work, a task's instances and their execution,
// another construct's entries and its time with its implicit barrier.
func (g *Region) Visits(kind string) (visits int64, ns float64) {
	switch kind {
	case "parallel":
		if g.Implicit.N > 0 {
			return g.Forks.N, g.Implicit.Ns // the team's work
		}
		return g.Forks.N, g.Forks.Ns
	case "task", "taskloop":
		return g.Exec.N, g.Exec.Ns
	}
	if ph := g.Phases[events.PhaseConstruct]; ph.N > 0 {
		return ph.N, ph.Ns + g.Phases[events.PhaseBarrier].Ns
	}
	for _, ph := range g.Phases {
		if ph.N > 0 {
			return ph.N, ph.Ns
		}
	}
	return 0, 0
}

// A Thread is one OS thread's stream: the time of its first and its last
// record, in ns since the run's start.
type Thread struct {
	OS             int
	Records        int64
	FirstNs, EndNs float64
}

// A Summary is what a killed run's stream tells.
type Summary struct {
	Regions []*Region // the regions the stream names, by id
	Threads []Thread  // by OS thread
	// EndNs is the time of the stream's last record.
	EndNs float64
	// Records read (TIME records excepted); Dropped, those the runtime
	// said it dropped (DROPPED records); Unmatched, ends without their
	// begin.
	Records, Dropped, Unmatched int64
}

// Read replays exp's stream and summarises it.
func Read(exp *events.Experiment) (*Summary, error) {
	r := timeline.New(exp)
	c := &collector{exp: exp, regions: map[uint32]*Region{}, threads: map[int]*Thread{}}
	if err := r.Run(c.event); err != nil {
		return nil, err
	}
	c.countOpen(r)
	s := c.summary()
	s.Records, s.Dropped, s.Unmatched = r.Stats.Records, r.Stats.Dropped, r.Stats.Unmatched
	return s, nil
}

// A collector gathers the regions and threads of a stream as it is
// replayed.
type collector struct {
	exp     *events.Experiment
	regions map[uint32]*Region
	threads map[int]*Thread
}

// reg returns region id's entry, made when the stream first names it.
func (c *collector) reg(id uint32) *Region {
	g := c.regions[id]
	if g == nil {
		g = &Region{ID: id}
		c.regions[id] = g
	}
	return g
}

// dur returns the time from a to b, 0 if b is before a.
func (c *collector) dur(a, b uint64) float64 {
	if b < a {
		return 0
	}
	return c.exp.Clock.Dur(b - a)
}

// event counts one event of the replay.
func (c *collector) event(ev *timeline.Event) error {
	t := ev.Time
	ns := c.exp.Clock.Ns(t)
	th := c.threads[ev.OS]
	if th == nil {
		th = &Thread{OS: ev.OS, FirstNs: ns}
		c.threads[ev.OS] = th
	}
	th.Records++
	th.EndNs = max(th.EndNs, ns)
	switch typ := ev.Type; {
	case typ.IsExit():
		c.reg(ev.Frame.Region).Phases[typ.PhaseOf()].add(c.dur(ev.Frame.Start, t))
	case typ == events.Join:
		c.reg(ev.Frame.Region).Forks.add(c.dur(ev.Frame.Start, t))
	case typ == events.ImplicitEnd:
		c.reg(ev.Task.Region).Implicit.add(c.dur(ev.Task.Begin, t))
	case typ == events.CreateBegin:
		c.reg(ev.Task.Region).Created++
	case typ == events.CreateEnd:
		c.reg(ev.Task.Region).Creations.add(c.dur(ev.Frame.Start, t))
	case typ == events.TaskBegin, typ == events.TaskloopBegin:
		c.reg(ev.Task.Region).Begun++
	case typ == events.TaskEnd, typ == events.TaskloopEnd:
		c.reg(ev.Task.Region).Exec.add(c.exp.Clock.Dur(ev.Task.Exec))
	case typ == events.ChunkEnd:
		c.reg(ev.Frame.Region).Chunks.add(c.dur(ev.Frame.Start, t))
	case typ == events.LockAcquired:
		c.reg(ev.Region).Locks++
	case typ == events.Fork, typ == events.ImplicitBegin, typ.IsEnter(), typ == events.ChunkBegin:
		c.reg(ev.Region) // named: it ran
	}
	return nil
}

// countOpen counts what was open when the stream ended.
func (c *collector) countOpen(r *timeline.Replay) {
	stacks, teams := r.Unfinished()
	for _, st := range stacks {
		for _, tk := range st {
			for _, f := range tk.Open {
				if f.Kind != timeline.FrameFunc { // a call is no region
					c.reg(f.Region).Open++
				}
			}
			if tk.Kind != timeline.Initial && !(tk.Kind == timeline.Implicit && tk.Ended) {
				c.reg(tk.Region).Open++
			}
		}
	}
	for _, tm := range teams {
		if tm.Encountering == nil || tm.Loc < 0 {
			c.reg(tm.Region).Open++ // a fork whose frame no stack holds
		}
	}
	for _, tk := range r.Live() {
		if tk.Created && tk.CreateDone && !tk.Begun && tk.Kind == timeline.Explicit {
			c.reg(tk.Region).Open++ // queued, never begun in the stream
		}
	}
}

// summary returns the regions by id and the threads by OS thread.
func (c *collector) summary() *Summary {
	s := &Summary{}
	for _, g := range c.regions {
		s.Regions = append(s.Regions, g)
	}
	sort.Slice(s.Regions, func(i, j int) bool { return s.Regions[i].ID < s.Regions[j].ID })
	for _, th := range c.threads {
		s.Threads = append(s.Threads, *th)
		s.EndNs = max(s.EndNs, th.EndNs)
	}
	sort.Slice(s.Threads, func(i, j int) bool { return s.Threads[i].OS < s.Threads[j].OS })
	return s
}
