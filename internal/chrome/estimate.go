package chrome

import (
	"math"

	"gopari/internal/events"
	"gopari/internal/timeline"
)

// A Measurer is an Encoder that says how many bytes it has written.
type Measurer interface {
	Encoder
	Written() int64
}

// Estimate returns about how many bytes an export of runs, cut as opt,
// writes with the encoder m measures, given the census of each run's
// records that the cut keeps (timeline.Count). It encodes, into m (an
// encoder of its own, writing nowhere), the events each kind of record
// makes (an ENTER a slice's begin, a TASK_BEGIN the end of the slice it
// suspends, its own begin and the end of its flow, ...), named as the
// export names them, and counts each kind's bytes as many times as the
// census found it; a sampled run's samples, each path's instant as many
// times as the cut keeps its samples. What it cannot know (how many
// frames a task switch closes and reopens) it takes as one.
func Estimate(m Measurer, runs []Run, census []*timeline.Census, opt Options) int64 {
	var total int64
	for i, run := range runs {
		cs := census[i]
		c := &writer{enc: m, opt: opt, run: run, exp: run.Exp, names: map[uint64]string{}, funcs: map[uint64]string{}}
		before := m.Written()
		m.Process(run.Pid, run.Name, run.Sort)
		for j, l := range run.Exp.Threads {
			if opt.Threads == nil || opt.Threads[l.Path] {
				m.Track(run.Pid, j, l.Path, j)
			}
		}
		total += m.Written() - before
		tid := len(run.Exp.Threads) - 1
		total += estimateSamples(m, run, opt, tid)
		if cs.Kept == 0 {
			continue
		}
		ns := c.ns(cs.First/2 + cs.Last/2)
		for k, n := range cs.ByKey {
			c.sample(k, tid, ns) // the first use of a name may intern it
			before := m.Written()
			c.sample(k, tid, ns)
			total += n * (m.Written() - before)
		}
	}
	return total
}

// sample encodes the events a record of key k makes.
func (c *writer) sample(k timeline.Key, tid int, ns float64) {
	pid, m := c.run.Pid, c.enc
	frame := func(kind timeline.FrameKind, cat string, args ...Arg) *Slice {
		return &Slice{Name: c.frameName(timeline.Frame{Kind: kind, Region: k.Region, ID: k.Addr}), Cat: cat, Args: args}
	}
	const id = 0x100000005 // a task ID of a thread other than the first
	task := &Slice{Name: c.where(k.Region), Cat: "task", Args: []Arg{{Key: "id", Kind: Hex, U: id},
		{Key: "lineage", Kind: String, S: "R.p1.12.3"}, {Key: "parent", Kind: Hex, U: id}}}
	wait := &Slice{Name: task.Name + " (wait)", Cat: "region"}
	switch typ := k.Type; {
	case typ.IsEnter():
		m.Begin(pid, tid, ns, frame(timeline.FrameKind(typ.PhaseOf()), "region"))
	case typ.IsExit():
		m.End(pid, tid, ns, frame(timeline.FrameKind(typ.PhaseOf()), "region"), nil)
	case typ == events.Fork:
		m.Begin(pid, tid, ns, frame(timeline.FrameFork, "parallel"))
	case typ == events.Join:
		m.End(pid, tid, ns, frame(timeline.FrameFork, "parallel"), nil)
	case typ == events.ChunkBegin:
		m.Begin(pid, tid, ns, frame(timeline.FrameChunk, "chunk", Arg{Key: "first", Kind: Int, I: 1000}))
	case typ == events.ChunkEnd:
		m.End(pid, tid, ns, frame(timeline.FrameChunk, "chunk"), []Arg{{Key: "last", Kind: Int, I: 1000}})
	case typ == events.FuncEnter:
		m.Begin(pid, tid, ns, frame(timeline.FrameFunc, "function"))
	case typ == events.FuncExit:
		m.End(pid, tid, ns, frame(timeline.FrameFunc, "function"), nil)
	case typ == events.CreateBegin:
		m.Begin(pid, tid, ns, frame(timeline.FrameCreate, "create", Arg{Key: "task", Kind: Hex, U: id}))
		m.Flow(pid, tid, ns, id, true)
	case typ == events.CreateEnd:
		m.End(pid, tid, ns, frame(timeline.FrameCreate, "create"), nil)
	case typ == events.TaskBegin:
		// It suspends a task inside a frame (a taskwait, a creation).
		m.End(pid, tid, ns, wait, nil)
		m.End(pid, tid, ns, task, nil)
		m.Begin(pid, tid, ns, task)
		m.Flow(pid, tid, ns, id, false)
	case typ == events.TaskEnd:
		m.End(pid, tid, ns, task, nil)
		m.Begin(pid, tid, ns, task)
		m.Begin(pid, tid, ns, wait)
	case typ == events.ImplicitBegin, typ == events.ImplicitEnd:
		task.Name = "implicit task of " + task.Name
		fallthrough
	case typ == events.TaskloopBegin, typ == events.TaskloopEnd, typ == events.Resume:
		m.End(pid, tid, ns, task, nil)
		m.Begin(pid, tid, ns, task)
	case typ == events.LockAcquired, typ == events.LockReleased:
		m.Instant(pid, tid, ns, "lock acquired", []Arg{{Key: "lock", Kind: Hex, U: id}, {Key: "where", Kind: String, S: c.where(k.Region)}})
	case typ == events.Dropped:
		m.Instant(pid, tid, ns, "10 records dropped", []Arg{{Key: "dropped_records", Kind: Int, I: 10},
			{Key: "from_us", Kind: Float, F: ns / 1e3}, {Key: "to_us", Kind: Float, F: ns / 1e3}})
	}
}

// Census counts, for each run, the records that the cut opt keeps
// (timeline.Count): the input of Estimate.
func Census(runs []Run, opt Options) ([]*timeline.Census, error) {
	var out []*timeline.Census
	for _, run := range runs {
		exp := run.Exp
		from, to := math.Inf(-1), math.Inf(1)
		if opt.Window {
			from, to = opt.From, opt.To
		}
		on := make([]bool, len(exp.Threads))
		for i, l := range exp.Threads {
			on[i] = opt.Threads == nil || opt.Threads[l.Path]
		}
		ns := func(t uint64) float64 { return run.OffNs + exp.Clock.Ns(t) }
		keep := func(loc int, t uint64) bool {
			if loc >= len(on) || !on[loc] {
				return false
			}
			x := ns(t)
			return x >= from && x <= to
		}
		end := uint64(math.MaxUint64)
		if !math.IsInf(to, 1) && exp.Clock.NsPerTick > 0 {
			d := (to - run.OffNs) / exp.Clock.NsPerTick
			end = exp.Clock.Tick0 + uint64(max(0, d))
		}
		cs, err := timeline.Count(exp, keep, end)
		if err != nil {
			return nil, err
		}
		out = append(out, cs)
	}
	return out, nil
}
