// Package chrome writes a run's event stream as Chrome trace-event JSON,
// which Perfetto and chrome://tracing open: one track per team-tree
// thread, named by its path (0, 0.1, 0.1.1); the task a thread executes
// as a slice, split where it was suspended, with its open regions nested
// inside; one flow arrow per task instance from its creation to its first
// execution slice; a sampled run's samples (GOPARI_SAMPLE_HZ) as instant
// events on their threads' tracks.
//
// The JSON is streamed as the replay goes: memory is proportional to the
// open slices, not to the events (the samples are read at once).
package chrome

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"gopari/internal/callpath"
	"gopari/internal/events"
	"gopari/internal/experiment"
	"gopari/internal/profile"
	"gopari/internal/symbols"
	"gopari/internal/timeline"
)

// Stats says what was written.
type Stats struct {
	Records  int64 // stream records read
	Events   int64 // JSON trace events written
	Slices   int64 // B events
	Flows    int64 // flow arrows ("s" and "f" pairs)
	Samples  int64 // instant events of samples (GOPARI_SAMPLE_HZ)
	Timeline timeline.Stats
}

type track struct {
	names []string       // the open slices' names, outermost first
	shown *timeline.Task // the task whose slices are open
}

type writer struct {
	w      *bufio.Writer
	exp    *events.Experiment
	r      *timeline.Replay
	tracks []track
	pid    int
	offNs  float64 // added to the run's times: a job's ranks on one time line
	flowX  uint64  // flow IDs are task IDs xor this: unique across a job's ranks
	first  bool
	buf    []byte
	stats  Stats
	names  map[uint64]string // region and frame kind -> slice name
	quoted map[string]string // slice name -> JSON string
	funcs  map[uint64]string // function address -> slice name
	syms   *symbols.Resolver // the run's, made at its first function
	// The run's samples (GOPARI_SAMPLE_HZ in trace mode) by time, those
	// before next written, and their paths' names by profile node.
	samples []events.Sample
	next    int
	paths   map[uint32][2]string
}

// Write replays exp and writes its Chrome JSON to w.
func Write(w io.Writer, exp *events.Experiment) (Stats, error) {
	c := &writer{w: bufio.NewWriterSize(w, 1<<16), first: true}
	c.w.WriteString(`{"displayTimeUnit":"ns","traceEvents":[`)
	pid := exp.PID
	if pid == 0 {
		pid = 1
	}
	if err := c.run(exp, pid, fmt.Sprintf("%s (pid %d)", exp.Program, exp.PID), 0); err != nil {
		return c.stats, err
	}
	fmt.Fprintf(c.w, "\n],\"otherData\":{\"program\":%s,\"pid\":%d,\"clock\":%s,\"dropped_records\":%d,\"complete\":%t,\"unmatched\":%d}}\n",
		strconv.Quote(exp.Program), exp.PID, strconv.Quote(exp.Clock.Name), c.stats.Timeline.Dropped, exp.Events.Complete, c.stats.Timeline.Unmatched)
	return c.stats, c.w.Flush()
}

// WriteJob writes the ranks of the MPI job named job as one Chrome trace:
// a process per rank (pid rank + 1, named "rank N: PROGRAM (pid P)"),
// with its team-tree threads as tracks. The ranks' times are placed on
// one time line by the wall-clock time each recorded at its start, and
// flow IDs are the task IDs with the rank in bits 48 and up, so that
// they stay unique in the job (the task IDs the slices show are the
// ranks' own).
func WriteJob(w io.Writer, job string, ranks []events.Rank) (Stats, error) {
	c := &writer{w: bufio.NewWriterSize(w, 1<<16), first: true}
	c.w.WriteString(`{"displayTimeUnit":"ns","traceEvents":[`)
	origin := uint64(math.MaxUint64)
	for _, r := range ranks {
		if r.Exp.Clock.Realtime0Ns == 0 {
			return c.stats, fmt.Errorf("%s: its profile has no wall-clock time of its start (clock.realtime0_ns): the ranks cannot be aligned", r.Exp.Dir)
		}
		origin = min(origin, r.Exp.Clock.Realtime0Ns)
	}
	complete := true
	for _, r := range ranks {
		c.offNs = float64(r.Exp.Clock.Realtime0Ns - origin)
		c.flowX = uint64(r.Rank+1) << 48
		name := fmt.Sprintf("rank %d: %s (pid %d)", r.Rank, r.Exp.Program, r.Exp.PID)
		if err := c.run(r.Exp, r.Rank+1, name, r.Rank); err != nil {
			return c.stats, err
		}
		complete = complete && r.Exp.Events.Complete
	}
	fmt.Fprintf(c.w, "\n],\"otherData\":{\"job\":%s,\"ranks\":%d,\"realtime0_ns\":%d,\"dropped_records\":%d,\"complete\":%t,\"unmatched\":%d}}\n",
		strconv.Quote(job), len(ranks), origin, c.stats.Timeline.Dropped, complete, c.stats.Timeline.Unmatched)
	return c.stats, c.w.Flush()
}

// run replays exp as process pid, named name, sorted at index sort.
func (c *writer) run(exp *events.Experiment, pid int, name string, sort int) error {
	r := timeline.New(exp)
	c.exp, c.r, c.pid, c.tracks, c.names, c.quoted = exp, r, pid, make([]track, len(r.Locs)), map[uint64]string{}, map[string]string{}
	c.funcs, c.syms = map[uint64]string{}, nil
	c.meta(name, sort)
	if err := c.loadSamples(exp); err != nil {
		return err
	}
	err := r.Run(func(ev *timeline.Event) error {
		c.samplesTo(ev.Time)
		return c.event(ev)
	})
	// Close what is still open, at each location's last time, then mark
	// what the streams lost at their end.
	for i := range c.tracks {
		c.hide(i, r.Locs[i].Last)
	}
	if err == nil {
		for _, g := range r.EndGaps() {
			c.gap(g)
		}
	}
	c.samplesTo(math.MaxUint64)
	c.stats.Records += r.Stats.Records
	c.stats.Timeline.Records += r.Stats.Records
	c.stats.Timeline.Dropped += r.Stats.Dropped
	c.stats.Timeline.Unmatched += r.Stats.Unmatched
	c.stats.Timeline.Clamped += r.Stats.Clamped
	return err
}

// meta names the process and one track per location.
func (c *writer) meta(name string, sort int) {
	c.begin("M", 0, 0)
	c.buf = append(c.buf, `,"name":"process_name","args":{"name":`...)
	c.buf = strconv.AppendQuote(c.buf, name)
	c.end("}")
	c.begin("M", 0, 0)
	c.buf = append(c.buf, `,"name":"process_sort_index","args":{"sort_index":`...)
	c.buf = strconv.AppendInt(c.buf, int64(sort), 10)
	c.end("}")
	for i, l := range c.r.Locs {
		c.begin("M", i, 0)
		c.buf = append(c.buf, `,"name":"thread_name","args":{"name":`...)
		c.buf = strconv.AppendQuote(c.buf, l.Path)
		c.end("}")
		c.begin("M", i, 0)
		c.buf = append(c.buf, `,"name":"thread_sort_index","args":{"sort_index":`...)
		c.buf = strconv.AppendInt(c.buf, int64(i), 10)
		c.end("}")
	}
}

// begin starts an event of phase ph on track tid at tick t.
func (c *writer) begin(ph string, tid int, t uint64) {
	c.buf = c.buf[:0]
	if !c.first {
		c.buf = append(c.buf, ",\n"...)
	} else {
		c.buf = append(c.buf, '\n')
	}
	c.first = false
	c.buf = append(c.buf, `{"ph":"`...)
	c.buf = append(c.buf, ph...)
	c.buf = append(c.buf, `","pid":`...)
	c.buf = strconv.AppendInt(c.buf, int64(c.pid), 10)
	c.buf = append(c.buf, `,"tid":`...)
	c.buf = strconv.AppendInt(c.buf, int64(tid), 10)
	if ph != "M" {
		c.buf = append(c.buf, `,"ts":`...)
		c.buf = strconv.AppendFloat(c.buf, c.us(t), 'f', 3, 64)
	}
}

// us returns the trace time of tick t, in microseconds.
func (c *writer) us(t uint64) float64 { return (c.offNs + c.exp.Clock.Ns(t)) / 1e3 }

func (c *writer) end(tail string) {
	c.buf = append(c.buf, tail...)
	c.buf = append(c.buf, '}')
	c.w.Write(c.buf)
	c.stats.Events++
}

func hex(b []byte, v uint64) []byte {
	b = append(b, `"0x`...)
	b = strconv.AppendUint(b, v, 16)
	return append(b, '"')
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

// quote returns name as a JSON string; slices have few names, quoted
// once each.
func (c *writer) quote(name string) string {
	q, ok := c.quoted[name]
	if !ok {
		q = strconv.Quote(name)
		c.quoted[name] = q
	}
	return q
}

// open writes a B event.
func (c *writer) open(loc int, t uint64, name, cat string, args func()) {
	c.begin("B", loc, t)
	c.buf = append(c.buf, `,"name":`...)
	c.buf = append(c.buf, c.quote(name)...)
	c.buf = append(c.buf, `,"cat":"`...)
	c.buf = append(c.buf, cat...)
	c.buf = append(c.buf, '"')
	if args != nil {
		c.buf = append(c.buf, `,"args":{`...)
		args()
		c.buf = append(c.buf, '}')
	}
	c.end("")
	c.tracks[loc].names = append(c.tracks[loc].names, name)
	c.stats.Slices++
}

// close writes E events, each named as the slice it closes, until the
// track has depth slices open.
func (c *writer) close(loc int, t uint64, depth int, args func()) {
	tr := &c.tracks[loc]
	for len(tr.names) > depth {
		c.begin("E", loc, t)
		c.buf = append(c.buf, `,"name":`...)
		c.buf = append(c.buf, c.quote(tr.names[len(tr.names)-1])...)
		if args != nil && len(tr.names) == depth+1 {
			c.buf = append(c.buf, `,"args":{`...)
			args()
			c.buf = append(c.buf, '}')
		}
		c.end("")
		tr.names = tr.names[:len(tr.names)-1]
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
	c.open(loc, t, c.taskName(tk), cat, func() {
		c.buf = append(c.buf, `"id":`...)
		c.buf = hex(c.buf, tk.ID)
		c.buf = append(c.buf, `,"lineage":`...)
		c.buf = strconv.AppendQuote(c.buf, tk.Lineage)
		if tk.Kind != timeline.Initial {
			c.buf = append(c.buf, `,"parent":`...)
			c.buf = hex(c.buf, tk.Parent)
		}
		c.flowArg(tk.ID)
	})
	for _, f := range tk.Open {
		c.openFrame(loc, f, t)
	}
}

func (c *writer) openFrame(loc int, f timeline.Frame, t uint64) {
	cat := "region"
	switch f.Kind {
	case timeline.FrameCreate:
		cat = "create"
	case timeline.FrameFork:
		cat = "parallel"
	case timeline.FrameChunk:
		cat = "chunk"
	case timeline.FrameFunc:
		cat = "function"
	}
	var args func()
	switch f.Kind {
	case timeline.FrameCreate:
		args = func() {
			c.buf = append(c.buf, `"task":`...)
			c.buf = hex(c.buf, f.ID)
			c.flowArg(f.ID)
		}
	case timeline.FrameChunk:
		args = func() {
			c.buf = append(c.buf, `"first":`...)
			c.buf = strconv.AppendInt(c.buf, f.First, 10)
		}
	}
	c.open(loc, t, c.frameName(f), cat, args)
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

// flowArg adds, in a job, the ID of the flow of task id to a slice's
// arguments: "flow", where it differs from the task's own.
func (c *writer) flowArg(id uint64) {
	if c.flowX != 0 {
		c.buf = append(c.buf, `,"flow":`...)
		c.buf = hex(c.buf, id^c.flowX)
	}
}

func (c *writer) flow(ph string, loc int, t uint64, id uint64) {
	c.begin(ph, loc, t)
	c.buf = append(c.buf, `,"name":"task","cat":"task","id":`...)
	c.buf = hex(c.buf, id^c.flowX)
	if ph == "f" {
		c.buf = append(c.buf, `,"bp":"e"`...)
	}
	c.end("")
}

func (c *writer) instant(loc int, t uint64, name string, args func()) {
	c.begin("i", loc, t)
	c.buf = append(c.buf, `,"s":"t","name":`...)
	c.buf = strconv.AppendQuote(c.buf, name)
	if args != nil {
		c.buf = append(c.buf, `,"args":{`...)
		args()
		c.buf = append(c.buf, '}')
	}
	c.end("")
}

func (c *writer) event(ev *timeline.Event) error {
	loc, t := ev.Loc, ev.Time
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
		c.flow("s", loc, t, ev.Task.ID)
		c.stats.Flows++
	case typ.IsExit(), typ == events.CreateEnd, typ == events.ChunkEnd, typ == events.Join, typ == events.FuncExit:
		tk := ev.Task
		if typ == events.CreateEnd {
			tk = ev.Other
		}
		if typ == events.Join {
			for _, m := range ev.Team.Members {
				if m.Loc >= 0 && c.tracks[m.Loc].shown == m {
					c.hide(m.Loc, c.r.Clamp(m.Loc, t))
				}
			}
		}
		if c.tracks[loc].shown != tk {
			c.display(loc, tk, t)
			break
		}
		var args func()
		if typ == events.ChunkEnd {
			args = func() {
				c.buf = append(c.buf, `"last":`...)
				c.buf = strconv.AppendInt(c.buf, int64(ev.Args[0]), 10)
			}
		}
		c.close(loc, t, 1+len(tk.Open), args)
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
			c.flow("f", loc, t, ev.Task.ID)
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
		c.instant(loc, t, name, func() {
			c.buf = append(c.buf, `"lock":`...)
			c.buf = hex(c.buf, ev.Args[0])
			c.buf = append(c.buf, `,"where":`...)
			c.buf = strconv.AppendQuote(c.buf, c.where(ev.Region))
		})
	case typ == events.Dropped:
		c.gap(ev.Gap)
	}
	return nil
}

// gap marks records the runtime dropped (timeline.Gap) with an instant
// event on their track where the gap begins, "N records dropped", whose
// arguments give the count and the times of the gap.
func (c *writer) gap(g timeline.Gap) {
	name := strconv.FormatInt(g.Records, 10) + " records dropped"
	if g.End {
		name += " (the stream stopped)"
	}
	c.instant(g.Loc, g.From, name, func() {
		c.buf = append(c.buf, `"dropped_records":`...)
		c.buf = strconv.AppendInt(c.buf, g.Records, 10)
		c.buf = append(c.buf, `,"from_us":`...)
		c.buf = strconv.AppendFloat(c.buf, c.us(g.From), 'f', 3, 64)
		c.buf = append(c.buf, `,"to_us":`...)
		c.buf = strconv.AppendFloat(c.buf, c.us(g.To), 'f', 3, 64)
	})
}

// loadSamples reads the run's samples (GOPARI_SAMPLE_HZ in trace mode,
// events/samples.bin), sorted by time, and names their paths: the
// innermost frame, and the whole path.
func (c *writer) loadSamples(exp *events.Experiment) error {
	c.samples, c.next, c.paths = nil, 0, map[uint32][2]string{}
	ss, err := events.ReadSamples(experiment.Samples(exp.Dir))
	if err != nil || len(ss) == 0 || exp.Profile == nil {
		return err
	}
	t, err := callpath.FromProfile(exp.Profile)
	if err != nil || t == nil {
		return err
	}
	for _, s := range ss {
		if int(s.Node) >= len(t.Of) || int(s.Loc) >= len(c.tracks) {
			return fmt.Errorf("%s: a sample of node %d at location %d: no such node or location", experiment.Samples(exp.Dir), s.Node, s.Loc)
		}
		if _, ok := c.paths[s.Node]; !ok {
			id := t.Of[s.Node]
			c.paths[s.Node] = [2]string{"sample: " + t.Nodes[id].Name, strconv.Quote(strings.Join(t.Path(id), ";"))}
		}
	}
	sort.SliceStable(ss, func(i, j int) bool { return ss[i].Tick < ss[j].Tick })
	c.samples = ss
	return nil
}

// samplesTo writes the samples taken up to tick t as instant events on
// their threads' tracks.
func (c *writer) samplesTo(t uint64) {
	for ; c.next < len(c.samples) && c.samples[c.next].Tick <= t; c.next++ {
		s := c.samples[c.next]
		p := c.paths[s.Node]
		c.instant(int(s.Loc), s.Tick, p[0], func() {
			c.buf = append(c.buf, `"path":`...)
			c.buf = append(c.buf, p[1]...)
		})
		c.stats.Samples++
	}
}
