package timeline

import "gopari/internal/events"

// Function calls (event format 5): FUNC_ENTER and FUNC_EXIT records are
// frames of kind FrameFunc on the task current where the call began
// (their ID the function's address), so that a call stays with its task
// when the task is suspended or moves, nested with the task's region
// frames as the runtime's per-task call stacks are.
//
// The OpenMP runtime calls a task's outlined function before the task's
// begin record, and returns from it after the task's end. The runtime
// takes such calls into the task (FUNC_ADOPT, then the begin record), and
// so does the replay: a thread's FUNC_ENTER records are held until its
// next record that is neither LOC nor FUNC_ADOPT; a FUNC_ADOPT of n keeps
// the n innermost held for the task whose begin follows, where they open
// at its begin (its time and location: where the call-path profile
// counts their visits), and hands on the others first. A record that
// takes a task from another thread (RESUME, JOIN) hands on that thread's
// held calls first, in the task they began in. A task's end ends
// the calls it still has open (Event.Calls); their FUNC_EXIT records,
// which follow on the same thread, close nothing more. Held records wait
// for the thread's next record only: memory is the call depth.

// A heldCall is a FUNC_ENTER not handed on yet, with its location.
type heldCall struct {
	rec events.Record
	loc int
	src int
}

// callState is an OS thread's calls in flight.
type callState struct {
	held  []heldCall
	adopt bool     // the held calls go to the task whose begin comes next
	ended []uint64 // functions whose calls a task's end ended, outermost first
}

// isBegin reports whether typ begins a task that may adopt calls.
func isBegin(typ events.Type) bool {
	return typ == events.ImplicitBegin || typ == events.TaskBegin || typ == events.TaskloopBegin
}

// callRecord applies the function records and what comes before any
// other: it reports whether rec was handled.
func (r *Replay) callRecord(x *events.Reader, th *thread, src int, rec events.Record) (bool, error) {
	cs := &th.calls
	switch typ := rec.Type; {
	case typ == events.FuncEnter:
		if th.loc < 0 {
			return true, r.errf(x, "%v record before any LOC", rec.Type)
		}
		cs.held = append(cs.held, heldCall{rec, th.loc, src})
		cs.ended = cs.ended[:0]
		return true, nil
	case typ == events.FuncAdopt:
		n := len(cs.held)
		if want := rec.Args[0]; want < uint64(n) {
			n = int(want)
		} else if want > uint64(n) {
			r.Stats.Unmatched += int64(want) - int64(n) // calls handed on already
		}
		if err := r.flushCalls(th, len(cs.held)-n); err != nil {
			return true, err
		}
		cs.adopt = n > 0
		return true, nil
	case typ == events.FuncExit:
		if err := r.flushCalls(th, len(cs.held)); err != nil {
			return true, err
		}
		return true, r.exitCall(x, th, src, rec)
	case typ == events.Loc:
		return false, nil
	case isBegin(typ) && cs.adopt:
		cs.ended = cs.ended[:0]
		return false, nil // afterBegin opens the held calls in the task
	}
	cs.ended = cs.ended[:0]
	if err := r.flushCalls(th, len(cs.held)); err != nil {
		return false, err
	}
	return false, r.flushTaken(th, rec)
}

// flushTaken hands on the held calls of the other threads whose tasks
// rec takes away: a task that RESUME moves here, the implicit tasks of a
// team that JOIN ends. Their calls began in those tasks.
func (r *Replay) flushTaken(th *thread, rec events.Record) error {
	flush := func(os int) error {
		if os < 0 || os == th.os {
			return nil
		}
		o := r.threadOf(os)
		if o.calls.adopt || len(o.calls.held) == 0 {
			return nil
		}
		return r.flushCalls(o, len(o.calls.held))
	}
	switch rec.Type {
	case events.Resume:
		if task := r.live[rec.Args[0]]; task != nil {
			return flush(task.os)
		}
	case events.Join:
		if team := r.teams[rec.Args[0]]; team != nil {
			for _, m := range team.Members {
				if err := flush(m.os); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// flushCalls hands on the first n held calls of th, each on the task
// current, at the location and time it began there.
func (r *Replay) flushCalls(th *thread, n int) error {
	cs := &th.calls
	for i := 0; i < n; i++ {
		h := cs.held[i]
		t := r.Clamp(h.loc, h.rec.Time)
		th.last, th.seen = t, true
		r.maxTime = max(r.maxTime, t)
		if err := r.openCall(th, r.current(th), h, h.loc, t); err != nil {
			return err
		}
	}
	cs.held = append(cs.held[:0], cs.held[n:]...)
	cs.adopt = false
	return nil
}

// openCall opens held call h on task c at location loc and time t.
func (r *Replay) openCall(th *thread, c *Task, h heldCall, loc int, t uint64) error {
	f := Frame{Kind: FrameFunc, Start: t, ID: h.rec.Args[0]}
	c.Open = append(c.Open, f)
	h.rec.Time = t
	r.ev = Event{Record: h.rec, Src: h.src, OS: th.os, Loc: loc, From: -1, Task: c, Frame: f}
	return r.handle(&r.ev)
}

// afterBegin opens the calls that the task begun by rec adopts.
func (r *Replay) afterBegin(th *thread, rec events.Record) error {
	cs := &th.calls
	if !cs.adopt || !isBegin(rec.Type) {
		return nil
	}
	cs.adopt = false
	c := th.top()
	if c == nil || c.ID != rec.Args[0] {
		return r.flushCalls(th, len(cs.held)) // a begin the replay refused
	}
	for _, h := range cs.held {
		if err := r.openCall(th, c, h, th.loc, c.Begin); err != nil {
			return err
		}
	}
	cs.held = cs.held[:0]
	return nil
}

// exitCall ends the innermost open call of the function of rec in the
// current task, and the calls left open above it.
func (r *Replay) exitCall(x *events.Reader, th *thread, src int, rec events.Record) error {
	if th.loc < 0 {
		return r.errf(x, "%v record before any LOC", rec.Type)
	}
	fn := rec.Args[0]
	cs := &th.calls
	if n := len(cs.ended); n > 0 && cs.ended[n-1] == fn {
		cs.ended = cs.ended[:n-1] // its task's end ended it
		return nil
	}
	cs.ended = cs.ended[:0]
	rec.Time = r.Clamp(th.loc, rec.Time)
	th.last, th.seen = rec.Time, true
	r.maxTime = max(r.maxTime, rec.Time)
	c := r.current(th)
	i := len(c.Open) - 1
	for i >= 0 && (c.Open[i].Kind != FrameFunc || c.Open[i].ID != fn) {
		i--
	}
	if i < 0 {
		r.Stats.Unmatched++
		return nil
	}
	r.calls = r.calls[:0]
	for j := len(c.Open) - 1; j >= i; j-- {
		if c.Open[j].Kind == FrameFunc {
			r.calls = append(r.calls, c.Open[j])
		}
	}
	r.Stats.Unmatched += int64(len(r.calls) - 1)
	f := c.Open[i]
	keep := c.Open[:i]
	for _, g := range c.Open[i+1:] {
		if g.Kind != FrameFunc {
			keep = append(keep, g)
		}
	}
	c.Open = keep
	r.ev = Event{Record: rec, Src: src, OS: th.os, Loc: th.loc, From: -1, Task: c, Frame: f, Calls: r.calls}
	return r.handle(&r.ev)
}

// endCalls ends the calls task c has open at its end, on thread th:
// they are in r.ev.Calls, innermost first, and their FUNC_EXIT records
// are expected next.
func (r *Replay) endCalls(th *thread, c *Task) {
	cs := &th.calls
	cs.ended = cs.ended[:0]
	r.calls = r.calls[:0]
	for j := len(c.Open) - 1; j >= 0; j-- {
		if f := c.Open[j]; f.Kind == FrameFunc {
			r.calls = append(r.calls, f)
			cs.ended = append(cs.ended, 0)
		}
	}
	for k, f := range r.calls {
		cs.ended[len(r.calls)-1-k] = f.ID // outermost first
	}
	keep := c.Open[:0]
	for _, f := range c.Open {
		if f.Kind != FrameFunc {
			keep = append(keep, f)
		}
	}
	c.Open = keep
	r.ev.Calls = r.calls
}
