// Package chrome turns a run's event stream into the slices a trace
// viewer shows, and writes them as Chrome trace-event JSON, which
// Perfetto and chrome://tracing open (json.go); internal/perfetto writes
// the same slices as Perfetto's protobuf trace. One track per team-tree
// thread, named by its path (0, 0.1, 0.1.1); the task a thread executes
// as a slice, split where it was suspended, with its open regions nested
// inside; one flow arrow per task instance from its creation to its first
// execution slice; a sampled run's samples (GOPARI_SAMPLE_HZ) as instant
// events on their threads' tracks.
//
// An export may be cut to a window of time and to some of the threads
// (Options): slices open at the window's start begin there, slices open
// at its end end there, and the replay stops at the window's end.
//
// The output is streamed as the replay goes: memory is proportional to
// the open slices, not to the events (a run's samples are read at once).
package chrome

import (
	"errors"
	"math"
	"strconv"

	"gopari/internal/events"
	"gopari/internal/profile"
	"gopari/internal/symbols"
	"gopari/internal/timeline"
)

// Stats says what was written.
type Stats struct {
	Records  int64 // stream records read
	Events   int64 // trace events written (JSON: metadata events too)
	Slices   int64 // slices begun
	Flows    int64 // flow arrows
	Samples  int64 // instant events of samples (GOPARI_SAMPLE_HZ)
	Timeline timeline.Stats
}

// An ArgKind is how an argument's value is shown.
type ArgKind uint8

const (
	Hex    ArgKind = iota // U, as "0x..."
	Int                   // I
	Float                 // F
	String                // S
)

// An Arg is a named value attached to a slice or an instant event.
type Arg struct {
	Key  string
	Kind ArgKind
	U    uint64
	I    int64
	F    float64
	S    string
}

// A Slice is a span on a track: its name, its category (task, barrier,
// region, create, parallel, chunk, function) and its arguments.
type Slice struct {
	Name, Cat string
	Args      []Arg
}

// An Encoder writes the tracks, slices, flows and instant events of an
// export in one trace format. Times are nanoseconds on the trace's time
// line; a track is a process's thread (tid: the location's index).
type Encoder interface {
	Process(pid int, name string, sort int)
	Track(pid, tid int, name string, sort int)
	Begin(pid, tid int, ns float64, s *Slice)
	// End ends the innermost open slice s of the track; args, if any,
	// are added to it.
	End(pid, tid int, ns float64, s *Slice, args []Arg)
	// Flow starts (start) or ends flow id in the slice the track began
	// last.
	Flow(pid, tid int, ns float64, id uint64, start bool)
	Instant(pid, tid int, ns float64, name string, args []Arg)
}

// Options cut an export.
type Options struct {
	// Window, when set, keeps what happens from From to To, in
	// nanoseconds on the trace's time line (since the run's start; a
	// job's since its first rank's start).
	Window   bool
	From, To float64
	// Threads, when not nil, keeps the tracks of these team paths.
	Threads map[string]bool
	// Progress, when not nil, is called every 1<<16 events with the
	// stream records read so far.
	Progress func(records int64)
}

// A Run is one process of an export: a run, or a rank of a job.
type Run struct {
	Exp   *events.Experiment
	Pid   int
	Name  string
	Sort  int
	OffNs float64 // added to the run's times: a job's ranks on one time line
	FlowX uint64  // flow IDs are task IDs xor this: unique across a job's ranks
}

// Runs returns the processes of a job's export: pid rank + 1, named
// "rank N: PROGRAM (pid P)", the ranks' times placed on one time line by
// the wall-clock time each recorded at its start, and flow IDs the task
// IDs with the rank in bits 48 and up, so that they stay unique in the
// job (the task IDs the slices show are the ranks' own). It returns the
// wall-clock time of the time line's origin.
func Runs(ranks []events.Rank) ([]Run, uint64, error) {
	origin := uint64(math.MaxUint64)
	for _, r := range ranks {
		if r.Exp.Clock.Realtime0Ns == 0 {
			return nil, 0, errors.New(r.Exp.Dir + ": its profile has no wall-clock time of its start (clock.realtime0_ns): the ranks cannot be aligned")
		}
		origin = min(origin, r.Exp.Clock.Realtime0Ns)
	}
	var runs []Run
	for _, r := range ranks {
		runs = append(runs, Run{Exp: r.Exp, Pid: r.Rank + 1, Sort: r.Rank,
			Name:  "rank " + strconv.Itoa(r.Rank) + ": " + r.Exp.Program + " (pid " + strconv.Itoa(r.Exp.PID) + ")",
			OffNs: float64(r.Exp.Clock.Realtime0Ns - origin), FlowX: uint64(r.Rank+1) << 48})
	}
	return runs, origin, nil
}

// OneRun returns the process of a run's export.
func OneRun(exp *events.Experiment) Run {
	pid := exp.PID
	if pid == 0 {
		pid = 1
	}
	return Run{Exp: exp, Pid: pid, Name: exp.Program + " (pid " + strconv.Itoa(exp.PID) + ")"}
}

type track struct {
	open  []Slice        // the open slices, outermost first
	shown *timeline.Task // the task whose slices are open
	on    bool           // kept by Options.Threads
}

type writer struct {
	enc    Encoder
	opt    Options
	run    Run
	exp    *events.Experiment
	r      *timeline.Replay
	tracks []track
	in     bool // inside the window
	done   bool // past the window's end
	args   []Arg
	stats  Stats
	names  map[uint64]string // region and frame kind -> slice name
	funcs  map[uint64]string // function address -> slice name
	syms   *symbols.Resolver // the run's, made at its first function
	// The run's samples (GOPARI_SAMPLE_HZ in trace mode) by time, those
	// before next written, and their paths' names by profile node: the
	// innermost frame's, and the whole path.
	samples []events.Sample
	next    int
	paths   map[uint32][2]string
}

// errDone stops a replay at the window's end.
var errDone = errors.New("past the window")

// Export replays runs, one after the other, and hands their slices to
// enc, cut as opt says.
func Export(enc Encoder, runs []Run, opt Options) (Stats, error) {
	c := &writer{enc: enc, opt: opt}
	if !opt.Window {
		c.opt.From, c.opt.To = math.Inf(-1), math.Inf(1)
	}
	for _, r := range runs {
		if err := c.replay(r); err != nil {
			return c.stats, err
		}
	}
	return c.stats, nil
}

// replay replays one run.
func (c *writer) replay(run Run) error {
	r := timeline.New(run.Exp)
	c.run, c.exp, c.r, c.tracks = run, run.Exp, r, make([]track, len(r.Locs))
	c.names, c.funcs, c.syms, c.in, c.done = map[uint64]string{}, map[uint64]string{}, nil, false, false
	for i, l := range r.Locs {
		c.tracks[i].on = c.opt.Threads == nil || c.opt.Threads[l.Path]
	}
	c.meta()
	if err := c.loadSamples(run.Exp); err != nil {
		return err
	}
	base := c.stats.Records
	n := 0
	err := r.Run(func(ev *timeline.Event) error {
		if n++; n&0xffff == 0 && c.opt.Progress != nil {
			c.opt.Progress(base + r.Stats.Records)
		}
		c.samplesTo(ev.Time)
		return c.event(ev)
	})
	if errors.Is(err, errDone) {
		err = nil
	} else if err == nil {
		// Close what is still open, at each location's last time, then
		// mark what the streams lost at their end.
		for i := range c.tracks {
			c.hide(i, r.Locs[i].Last)
		}
		for _, g := range r.EndGaps() {
			c.gap(g)
		}
		c.samplesTo(math.MaxUint64)
	}
	c.stats.Records += r.Stats.Records
	c.stats.Timeline.Records += r.Stats.Records
	c.stats.Timeline.Dropped += r.Stats.Dropped
	c.stats.Timeline.Unmatched += r.Stats.Unmatched
	c.stats.Timeline.Clamped += r.Stats.Clamped
	return err
}

// meta names the process and the tracks kept.
func (c *writer) meta() {
	c.enc.Process(c.run.Pid, c.run.Name, c.run.Sort)
	c.stats.Events += 2
	for i, l := range c.r.Locs {
		if c.tracks[i].on {
			c.enc.Track(c.run.Pid, i, l.Path, i)
			c.stats.Events += 2
		}
	}
}

// ns returns the trace time of tick t.
func (c *writer) ns(t uint64) float64 { return c.run.OffNs + c.exp.Clock.Ns(t) }

// at returns the trace time of tick t, within the window.
func (c *writer) at(t uint64) float64 { return min(max(c.ns(t), c.opt.From), c.opt.To) }

// window opens the window at the first event inside it, showing there
// the slices open on each track, and closes it at the first event past
// it; it reports false past the window.
func (c *writer) window(t uint64) bool {
	ns := c.ns(t)
	if !c.in && !c.done && ns >= c.opt.From {
		c.in = true
		for i := range c.tracks {
			tr := &c.tracks[i]
			for j := range tr.open {
				c.begin(i, c.opt.From, &tr.open[j])
			}
		}
	}
	if ns > c.opt.To && !c.done {
		for i := range c.tracks {
			tr := &c.tracks[i]
			for j := len(tr.open) - 1; j >= 0; j-- {
				c.end(i, c.opt.To, &tr.open[j], nil)
			}
		}
		c.in, c.done = false, true
	}
	return !c.done
}

func (c *writer) begin(loc int, ns float64, s *Slice) {
	if c.tracks[loc].on && c.in {
		c.enc.Begin(c.run.Pid, loc, ns, s)
		c.stats.Events++
		c.stats.Slices++
	}
}

func (c *writer) end(loc int, ns float64, s *Slice, args []Arg) {
	if c.tracks[loc].on && c.in {
		c.enc.End(c.run.Pid, loc, ns, s, args)
		c.stats.Events++
	}
}

// shows reports whether an event at tick t on loc is in the export.
func (c *writer) shows(loc int, t uint64) bool {
	if !c.tracks[loc].on || !c.in {
		return false
	}
	ns := c.ns(t)
	return ns >= c.opt.From && ns <= c.opt.To
}

// where is a region's "kind file:line".
func (c *writer) where(region uint32) string {
	r := c.exp.Region(region)
	if r == nil {
		return "region " + strconv.Itoa(int(region))
	}
	if r.Kind == "mpi" { // a call, not a place in the source
		return label(r)
	}
	return label(r) + " " + r.File + ":" + strconv.Itoa(r.BeginLine)
}

// label is a region's kind, or its name where that says more: masked
// (kind master; of a combined construct, its leaf), MPI_Send (kind mpi).
func label(r *profile.Region) string {
	s := r.Kind
	if r.Kind == "master" && r.Name != "" {
		s = r.Directive()
	}
	if r.Kind == "mpi" && r.Name != "" {
		s = r.Name
	}
	if r.SubName != "" {
		s += " " + r.SubName
	}
	return s
}

// frameName names a frame's slice: "taskwait fib.c:14", "single body
// fib.c:22", "create task fib.c:10", ...
func (c *writer) frameName(f timeline.Frame) string {
	if f.Kind == timeline.FrameFunc {
		return c.funcName(f.ID)
	}
	key := uint64(f.Region)<<8 | uint64(f.Kind)
	if s, ok := c.names[key]; ok {
		return s
	}
	w := c.where(f.Region)
	var s string
	switch f.Kind {
	case timeline.FrameConstruct:
		s = w
	case timeline.FrameCreate:
		s = "create " + w
	case timeline.FrameFork:
		s = w + " (fork-join)"
	case timeline.FrameChunk:
		s = "chunk of " + w
	default:
		s = w + " (" + f.Kind.String() + ")"
	}
	c.names[key] = s
	return s
}

// funcName names the slice of a call of the function at address fn: its
// demangled name (internal/symbols, through the run's mappings), or its
// address where the run's files do not say.
func (c *writer) funcName(fn uint64) string {
	if s, ok := c.funcs[fn]; ok {
		return s
	}
	if c.syms == nil {
		c.syms = symbols.Of(c.exp.Profile)
	}
	s := c.syms.Frame(fn).Func
	c.funcs[fn] = s
	return s
}

func (c *writer) taskName(t *timeline.Task) string {
	switch t.Kind {
	case timeline.Initial:
		return "initial task"
	case timeline.Implicit:
		if t.Ended {
			return "closing barrier of " + c.where(t.Region)
		}
		return "implicit task of " + c.where(t.Region)
	}
	return c.where(t.Region)
}

// open begins a slice on track loc.
func (c *writer) open(loc int, t uint64, name, cat string, args []Arg) {
	tr := &c.tracks[loc]
	if len(tr.open) < cap(tr.open) {
		tr.open = tr.open[:len(tr.open)+1]
	} else {
		tr.open = append(tr.open, Slice{})
	}
	s := &tr.open[len(tr.open)-1]
	s.Name, s.Cat, s.Args = name, cat, append(s.Args[:0], args...)
	c.begin(loc, c.at(t), s)
}

// close ends slices, innermost first, until the track has depth slices
// open; args go to the last one ended.
func (c *writer) close(loc int, t uint64, depth int, args []Arg) {
	tr := &c.tracks[loc]
	for len(tr.open) > depth {
		var a []Arg
		if len(tr.open) == depth+1 {
			a = args
		}
		c.end(loc, c.at(t), &tr.open[len(tr.open)-1], a)
		tr.open = tr.open[:len(tr.open)-1]
	}
}

// arg appends an argument to c.args.
func (c *writer) arg(a Arg) { c.args = append(c.args, a) }

// flowArg adds, in a job, the ID of the flow of task id to a slice's
// arguments: "flow", where it differs from the task's own.
func (c *writer) flowArg(id uint64) {
	if c.run.FlowX != 0 {
		c.arg(Arg{Key: "flow", Kind: Hex, U: id ^ c.run.FlowX})
	}
}

// show opens the slices of task t on track loc: its execution and its
// open frames.
func (c *writer) show(loc int, tk *timeline.Task, t uint64) {
	c.tracks[loc].shown = tk
	cat := "task"
	if tk.Kind == timeline.Implicit && tk.Ended {
		cat = "barrier"
	}
	c.args = append(c.args[:0], Arg{Key: "id", Kind: Hex, U: tk.ID}, Arg{Key: "lineage", Kind: String, S: tk.Lineage})
	if tk.Kind != timeline.Initial {
		c.arg(Arg{Key: "parent", Kind: Hex, U: tk.Parent})
	}
	c.flowArg(tk.ID)
	c.open(loc, t, c.taskName(tk), cat, c.args)
	for _, f := range tk.Open {
		c.openFrame(loc, f, t)
	}
}

func (c *writer) openFrame(loc int, f timeline.Frame, t uint64) {
	cat := "region"
	c.args = c.args[:0]
	switch f.Kind {
	case timeline.FrameCreate:
		cat = "create"
		c.arg(Arg{Key: "task", Kind: Hex, U: f.ID})
		c.flowArg(f.ID)
	case timeline.FrameFork:
		cat = "parallel"
	case timeline.FrameChunk:
		cat = "chunk"
		c.arg(Arg{Key: "first", Kind: Int, I: f.First})
	case timeline.FrameFunc:
		cat = "function"
	}
	c.open(loc, t, c.frameName(f), cat, c.args)
}

// hide closes every slice of track loc.
func (c *writer) hide(loc int, t uint64) {
	c.close(loc, t, 0, nil)
	c.tracks[loc].shown = nil
}

// display makes tk the task shown on loc.
func (c *writer) display(loc int, tk *timeline.Task, t uint64) {
	if c.tracks[loc].shown == tk {
		return
	}
	c.hide(loc, t)
	c.show(loc, tk, t)
}

// flowStart starts the flow of task tk's creation, at tick t on loc; a
// flow ends only where its start is in the export.
func (c *writer) flowStart(loc int, t uint64, tk *timeline.Task) {
	if c.shows(loc, t) {
		c.enc.Flow(c.run.Pid, loc, c.at(t), tk.ID^c.run.FlowX, true)
		c.stats.Events++
		c.stats.Flows++
	}
}

func (c *writer) flowEnd(loc int, t uint64, tk *timeline.Task) {
	if c.shows(loc, t) && tk.CreateLoc >= 0 && c.shows(tk.CreateLoc, tk.CreateBegin) {
		c.enc.Flow(c.run.Pid, loc, c.at(t), tk.ID^c.run.FlowX, false)
		c.stats.Events++
	}
}

func (c *writer) instant(loc int, t uint64, name string, args []Arg) {
	if c.shows(loc, t) {
		c.enc.Instant(c.run.Pid, loc, c.at(t), name, args)
		c.stats.Events++
	}
}

func (c *writer) event(ev *timeline.Event) error {
	loc, t := ev.Loc, ev.Time
	if !c.window(t) {
		return errDone
	}
	switch typ := ev.Type; {
	case typ.IsEnter(), typ == events.Fork, typ == events.ChunkBegin, typ == events.FuncEnter:
		if c.tracks[loc].shown != ev.Task {
			c.display(loc, ev.Task, t) // shows the new frame too
		} else {
			c.openFrame(loc, ev.Frame, t)
		}
	case typ == events.CreateBegin:
		if c.tracks[loc].shown != ev.Other {
			c.display(loc, ev.Other, t)
		} else {
			c.openFrame(loc, ev.Frame, t)
		}
		c.flowStart(loc, t, ev.Task)
	case typ.IsExit(), typ == events.CreateEnd, typ == events.ChunkEnd, typ == events.Join, typ == events.FuncExit:
		c.exit(ev)
	case typ == events.Resume:
		if ev.From >= 0 && ev.From != loc && c.tracks[ev.From].shown == ev.Task {
			at := c.r.Clamp(ev.From, t)
			c.hide(ev.From, at)
			if ev.FromTask != nil {
				c.show(ev.From, ev.FromTask, at)
			}
		}
		c.display(loc, ev.Task, t)
	case typ == events.ImplicitBegin, typ == events.TaskBegin, typ == events.TaskloopBegin:
		c.hide(loc, t)
		c.show(loc, ev.Task, t)
		if typ == events.TaskBegin && ev.Task.Created {
			c.flowEnd(loc, t, ev.Task)
		}
	case typ == events.ImplicitEnd:
		c.hide(loc, t)
		c.show(loc, ev.Task, t) // now its closing barrier
	case typ == events.TaskEnd, typ == events.TaskloopEnd:
		c.hide(loc, t)
		if ev.Other != nil {
			c.show(loc, ev.Other, t)
		}
	case typ == events.LockAcquired, typ == events.LockReleased:
		name := "lock acquired"
		if typ == events.LockReleased {
			name = "lock released"
		}
		c.args = append(c.args[:0], Arg{Key: "lock", Kind: Hex, U: ev.Args[0]}, Arg{Key: "where", Kind: String, S: c.where(ev.Region)})
		c.instant(loc, t, name, c.args)
	case typ == events.Dropped:
		c.gap(ev.Gap)
	}
	return nil
}

// exit ends what an EXIT, CREATE_END, CHUNK_END, JOIN or FUNC_EXIT
// closed.
func (c *writer) exit(ev *timeline.Event) {
	loc, t := ev.Loc, ev.Time
	tk := ev.Task
	if ev.Type == events.CreateEnd {
		tk = ev.Other
	}
	if ev.Type == events.Join {
		for _, m := range ev.Team.Members {
			if m.Loc >= 0 && c.tracks[m.Loc].shown == m {
				c.hide(m.Loc, c.r.Clamp(m.Loc, t))
			}
		}
	}
	if c.tracks[loc].shown != tk {
		c.display(loc, tk, t)
		return
	}
	var args []Arg
	if ev.Type == events.ChunkEnd {
		c.args = append(c.args[:0], Arg{Key: "last", Kind: Int, I: int64(ev.Args[0])})
		args = c.args
	}
	c.close(loc, t, 1+len(tk.Open), args)
}

// gap marks records the runtime dropped (timeline.Gap) with an instant
// event on their track where the gap begins, "N records dropped", whose
// arguments give the count and the times of the gap.
func (c *writer) gap(g timeline.Gap) {
	name := strconv.FormatInt(g.Records, 10) + " records dropped"
	if g.End {
		name += " (the stream stopped)"
	}
	c.args = append(c.args[:0], Arg{Key: "dropped_records", Kind: Int, I: g.Records},
		Arg{Key: "from_us", Kind: Float, F: c.ns(g.From) / 1e3}, Arg{Key: "to_us", Kind: Float, F: c.ns(g.To) / 1e3})
	c.instant(g.Loc, g.From, name, c.args)
}
