//go:build otf2

package otf2

/*
#include <otf2/otf2.h>
*/
import "C"

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"gopari/internal/events"
	"gopari/internal/symbols"
	"gopari/internal/timeline"
)

// taskRef is a task's OTF2 identity: its thread team, the location that
// created it and a generation number of that location.
type taskRef struct {
	team    C.OTF2_CommRef
	creator C.uint32_t
	gen     C.uint32_t
}

type regionKey struct {
	region uint32
	kind   uint8 // a timeline.FrameKind, or one of the kinds below
}

const (
	kindTask     = 100 // a task's execution
	kindImplicit = 101 // an implicit task's body
	kindClosing  = 102 // the closing barrier of a parallel region
)

type lockState struct {
	id    C.uint32_t
	order C.uint32_t
	held  map[int]C.uint32_t // by location: the order of its last acquisition
}

// A part is one source being written: its replay, and what its
// locations, teams, tasks and locks are in the archive.
type part struct {
	x       *exporter
	exp     *events.Experiment
	r       *timeline.Replay
	rank    int // -1 outside a job
	base    int // the archive's location of the replay's location 0
	writers []*C.OTF2_EvtWriter
	last    []uint64 // per location: the last time written (ticks)
	regions map[regionKey]C.OTF2_RegionRef
	comms   map[int]C.OTF2_CommRef // by forking location, or n+root for a root's own
	gen     []uint32               // per location: the last generation number
	locks   map[uint64]*lockState
	osLocs  map[int]map[int]bool        // OS thread -> locations it acted as
	conv    func(uint64) uint64         // ticks to archive timestamps
	funcs   map[uint64]C.OTF2_RegionRef // function regions by address
	syms    *symbols.Resolver           // made at the first function
	samples *partSamples                // the run's samples (samples.go); nil if none
	// The cut (cut.go): the locations kept, the window in ticks, and
	// whether the replay is in it or past it.
	on         []bool
	fromT, toT uint64
	in, done   bool
}

func newPart(x *exporter, index int, s source) *part {
	p := &part{x: x, exp: s.exp, r: timeline.New(s.exp), rank: s.rank, base: len(x.locs),
		regions: map[regionKey]C.OTF2_RegionRef{}, comms: map[int]C.OTF2_CommRef{},
		locks: map[uint64]*lockState{}, osLocs: map[int]map[int]bool{}, funcs: map[uint64]C.OTF2_RegionRef{}}
	n := len(p.r.Locs)
	p.writers = make([]*C.OTF2_EvtWriter, n)
	p.last = make([]uint64, n)
	p.gen = make([]uint32, n)
	for _, l := range p.r.Locs {
		x.locs = append(x.locs, locDef{name: "thread " + l.Path, group: index})
	}
	p.defineComms()
	clk := s.exp.Clock
	if s.rank < 0 {
		p.conv = func(t uint64) uint64 { return t }
		x.ticksPerSecond = uint64(math.Round(1e9 / clk.NsPerTick))
		x.groups = append(x.groups, fmt.Sprintf("%s (pid %d)", s.exp.Program, s.exp.PID))
		if clk.Realtime0Ns > 0 {
			x.realtimeOf = func(min uint64) uint64 { return uint64(float64(clk.Realtime0Ns) + clk.Ns(min)) }
		}
	} else {
		// Nanoseconds since the job's origin: whole nanoseconds apart
		// from the ticks' fraction, in integers (float64 has no room for
		// nanoseconds since 1970).
		off := int64(clk.Realtime0Ns - x.origin)
		p.conv = func(t uint64) uint64 { return uint64(max(0, off+int64(math.Round(clk.Ns(t))))) }
		x.groups = append(x.groups, fmt.Sprintf("MPI rank %d (pid %d)", s.rank, s.exp.PID))
		x.realtimeOf = func(min uint64) uint64 { return x.origin + min }
	}
	return p
}

// name prefixes a name of this source's with its rank, in a job.
func (p *part) name(s string) string {
	if p.rank < 0 {
		return s
	}
	return "rank " + strconv.Itoa(p.rank) + " " + s
}

// writer returns location loc's event writer.
func (p *part) writer(loc int) *C.OTF2_EvtWriter {
	if w := p.writers[loc]; w != nil {
		return w
	}
	w := C.OTF2_Archive_GetEvtWriter(p.x.archive, C.OTF2_LocationRef(p.base+loc))
	if w == nil && p.x.err == nil {
		p.x.err = fmt.Errorf("otf2: no event writer for location %d", p.base+loc)
	}
	p.writers[loc] = w
	return w
}

// at returns the archive timestamp of ticks t written at location loc.
func (p *part) at(loc int, t uint64) C.OTF2_TimeStamp {
	t = p.clip(t)
	p.last[loc] = max(p.last[loc], t)
	return p.x.note(p.conv(t))
}

// defineComms defines the thread teams of the part's team tree, as
// profile.json gives it: an initial team for each root location (an
// initial thread), and a team for each location that forked one. They
// are defined parents first (by level, then location), so that a team's
// parent, the team its forking thread belongs to, is always defined
// before it, whatever order the events use them in.
func (p *part) defineComms() {
	n := len(p.r.Locs)
	level := func(key int) int {
		if key >= n {
			return 0
		}
		return strings.Count(p.r.Locs[key].Path, ".") + 1
	}
	members := map[int][]int{}
	var keys []int
	for i, l := range p.r.Locs {
		if l.Parent < 0 {
			keys = append(keys, n+i)
			members[n+i] = []int{i}
			continue
		}
		if members[l.Parent] == nil {
			keys = append(keys, l.Parent)
		}
		members[l.Parent] = append(members[l.Parent], i)
	}
	slices.SortStableFunc(keys, func(a, b int) int {
		if la, lb := level(a), level(b); la != lb {
			return la - lb
		}
		return a%n - b%n
	})
	for _, k := range keys {
		p.comms[k] = C.OTF2_CommRef(len(p.x.comms))
		parent := C.OTF2_CommRef(C.OTF2_UNDEFINED_COMM)
		if k < n {
			parent = p.comms[p.teamOf(k)]
		}
		p.x.comms = append(p.x.comms, commDef{name: p.name(p.commName(k)), members: p.global(p.ranks(members[k])), parent: parent})
	}
}

// comm returns the thread team of key: the team forked by location key,
// or (key >= number of locations) the initial team of a root location.
func (p *part) comm(key int) C.OTF2_CommRef { return p.comms[key] }

// rank returns location loc's rank in its team: its thread number, 0
// for an initial thread.
func (p *part) rankOf(loc int) int {
	l := p.r.Locs[loc]
	if l.Parent < 0 {
		return 0
	}
	i := strings.LastIndexByte(l.Path, '.')
	n, _ := strconv.Atoi(l.Path[i+1:])
	return n
}

// teamOf returns the key of the team location loc belongs to.
func (p *part) teamOf(loc int) int {
	if parent := p.r.Locs[loc].Parent; parent >= 0 {
		return parent
	}
	return len(p.r.Locs) + loc
}

// ref returns a task's OTF2 identity, making one at first sight.
func (p *part) ref(t *timeline.Task, loc int) *taskRef {
	if r, ok := t.Data.(*taskRef); ok {
		return r
	}
	r := &taskRef{}
	// The creating thread is its rank in the team: its thread number.
	switch t.Kind {
	case timeline.Implicit, timeline.Initial:
		r.team = p.comm(p.teamOf(loc))
		r.creator = C.uint32_t(p.rankOf(loc))
	default:
		cl := t.CreateLoc
		if cl < 0 {
			cl = loc
		}
		r.team = p.comm(p.teamOf(cl))
		r.creator = C.uint32_t(p.rankOf(cl))
		p.gen[cl]++
		r.gen = C.uint32_t(p.gen[cl])
	}
	t.Data = r
	return r
}

// region returns the OTF2 region of a gopari region seen as kind.
func (p *part) region(id uint32, kind uint8) C.OTF2_RegionRef {
	k := regionKey{id, kind}
	if ref, ok := p.regions[k]; ok {
		return ref
	}
	d := regionDef{name: p.name(fmt.Sprintf("region %d", id)), role: C.OTF2_REGION_ROLE_UNKNOWN, paradigm: C.OTF2_PARADIGM_OPENMP}
	if r := p.exp.Region(id); r != nil {
		d = define(r, kind)
	}
	ref := p.x.region(d)
	p.regions[k] = ref
	return ref
}

// funcRegion returns the region of the function at address fn, defined
// at its first call: its demangled name, the source file and line of its
// entry where DWARF has them (internal/symbols, through the run's
// mappings), role FUNCTION, paradigm COMPILER (its instrumentation).
func (p *part) funcRegion(fn uint64) C.OTF2_RegionRef {
	if ref, ok := p.funcs[fn]; ok {
		return ref
	}
	if p.syms == nil {
		p.syms = symbols.Of(p.exp.Profile)
	}
	f := p.syms.Frame(fn)
	ref := p.x.region(regionDef{name: f.Func, file: f.File, begin: f.Line, end: f.Line,
		role: C.OTF2_REGION_ROLE_FUNCTION, paradigm: C.OTF2_PARADIGM_COMPILER})
	p.funcs[fn] = ref
	return ref
}

// frameRegion returns the region of an open frame.
func (p *part) frameRegion(f timeline.Frame) C.OTF2_RegionRef {
	if f.Kind == timeline.FrameFunc {
		return p.funcRegion(f.ID)
	}
	return p.region(f.Region, uint8(f.Kind))
}

// leaveCalls leaves the function calls an event ended, innermost first.
func (p *part) leaveCalls(loc int, t uint64, calls []timeline.Frame) {
	for _, f := range calls {
		p.leave(loc, t, p.funcRegion(f.ID))
	}
}

func (p *part) enter(loc int, t uint64, reg C.OTF2_RegionRef) {
	if !p.keep(loc) {
		return
	}
	p.touch(loc, reg)
	p.x.rec("ENTER", C.OTF2_EvtWriter_Enter(p.writer(loc), nil, p.at(loc, t), reg))
}

func (p *part) leave(loc int, t uint64, reg C.OTF2_RegionRef) {
	if !p.keep(loc) {
		return
	}
	p.touch(loc, reg)
	p.x.rec("LEAVE", C.OTF2_EvtWriter_Leave(p.writer(loc), nil, p.at(loc, t), reg))
}

func (p *part) taskSwitch(loc int, t uint64, tk *timeline.Task) {
	r := p.ref(tk, loc)
	if !p.keep(loc) {
		return
	}
	p.x.rec("THREAD_TASK_SWITCH", C.OTF2_EvtWriter_ThreadTaskSwitch(p.writer(loc), nil, p.at(loc, t), r.team, r.creator, r.gen))
}

func (p *part) teamEnd(loc int, t uint64) {
	if !p.keep(loc) {
		return
	}
	p.x.rec("THREAD_TEAM_END", C.OTF2_EvtWriter_ThreadTeamEnd(p.writer(loc), nil, p.at(loc, t), p.comm(p.teamOf(loc))))
}

// forkJoin writes a team's fork and join at the encountering location,
// when the team has joined (or the run ended): only then is its size
// known. The fork is written no earlier than what the location wrote
// after it, which only a gap of dropped records marked there can be:
// OTF2 takes a location's events in time order. The samples taken at
// the location meanwhile, held until now, go between the two.
func (p *part) forkJoin(loc int, fork, join uint64, size int) {
	held := p.joined(loc)
	if !p.keep(loc) {
		return
	}
	fork, join = p.clip(fork), p.clip(join)
	if fork < p.last[loc] {
		fork = p.last[loc]
		p.x.stats.Timeline.Clamped++
	}
	p.x.rec("THREAD_FORK", C.OTF2_EvtWriter_ThreadFork(p.writer(loc), nil, p.at(loc, fork), C.OTF2_PARADIGM_OPENMP, C.uint32_t(size)))
	for _, s := range held {
		p.writeSample(s)
	}
	join = max(join, p.last[loc])
	p.x.rec("THREAD_JOIN", C.OTF2_EvtWriter_ThreadJoin(p.writer(loc), nil, p.at(loc, join), C.OTF2_PARADIGM_OPENMP))
}

func (p *part) event(ev *timeline.Event) error {
	x := p.x
	if x.err != nil {
		return x.err
	}
	loc, t := ev.Loc, ev.Time
	if p.osLocs[ev.OS] == nil {
		p.osLocs[ev.OS] = map[int]bool{}
	}
	p.osLocs[ev.OS][loc] = true
	switch typ := ev.Type; {
	case typ.IsEnter(), typ == events.ChunkBegin:
		p.enter(loc, t, p.region(ev.Region, uint8(ev.Frame.Kind)))
	case typ.IsExit(), typ == events.ChunkEnd:
		p.leave(loc, t, p.region(ev.Region, uint8(ev.Frame.Kind)))
	case typ == events.CreateBegin:
		p.enter(loc, t, p.region(ev.Region, uint8(timeline.FrameCreate)))
		r := p.ref(ev.Task, loc)
		if !p.keep(loc) {
			break
		}
		x.rec("THREAD_TASK_CREATE", C.OTF2_EvtWriter_ThreadTaskCreate(p.writer(loc), nil, p.at(loc, t), r.team, r.creator, r.gen))
	case typ == events.CreateEnd:
		p.leave(loc, t, p.region(ev.Region, uint8(timeline.FrameCreate)))
	case typ == events.TaskBegin, typ == events.TaskloopBegin:
		p.taskSwitch(loc, t, ev.Task)
		p.enter(loc, t, p.region(ev.Region, kindTask))
	case typ == events.FuncEnter:
		p.enter(loc, t, p.funcRegion(ev.Frame.ID))
	case typ == events.FuncExit:
		p.leaveCalls(loc, t, ev.Calls)
	case typ == events.TaskEnd, typ == events.TaskloopEnd:
		p.leaveCalls(loc, t, ev.Calls)
		p.leave(loc, t, p.region(ev.Region, kindTask))
		r := p.ref(ev.Task, loc)
		if p.keep(loc) {
			x.rec("THREAD_TASK_COMPLETE", C.OTF2_EvtWriter_ThreadTaskComplete(p.writer(loc), nil, p.at(loc, t), r.team, r.creator, r.gen))
		}
		if ev.Other != nil {
			p.taskSwitch(loc, t, ev.Other)
		}
	case typ == events.Resume:
		if ev.From >= 0 && ev.From != loc && ev.FromTask != nil {
			p.taskSwitch(ev.From, p.r.Clamp(ev.From, t), ev.FromTask)
		}
		p.taskSwitch(loc, t, ev.Task)
	case typ == events.ImplicitBegin:
		p.teamBegin(loc, t)
		p.enter(loc, t, p.region(ev.Region, kindImplicit))
	case typ == events.ImplicitEnd:
		p.leaveCalls(loc, t, ev.Calls)
		p.leave(loc, t, p.region(ev.Region, kindImplicit))
		p.enter(loc, t, p.region(ev.Region, kindClosing))
	case typ == events.Fork:
		p.forked(loc)
	case typ == events.Join:
		for _, m := range ev.Team.Members {
			if m.Loc < 0 {
				continue
			}
			at := p.r.Clamp(m.Loc, t)
			if m.Ended {
				p.leave(m.Loc, at, p.region(m.Region, kindClosing))
			}
			p.teamEnd(m.Loc, at)
		}
		p.forkJoin(loc, ev.Team.Fork, t, len(ev.Team.Members))
	case typ == events.LockAcquired:
		l := p.lock(ev.Args[0])
		l.order++
		l.held[loc] = l.order
		if !p.keep(loc) {
			break
		}
		x.rec("THREAD_ACQUIRE_LOCK", C.OTF2_EvtWriter_ThreadAcquireLock(p.writer(loc), nil, p.at(loc, t), C.OTF2_PARADIGM_OPENMP, l.id, l.order))
	case typ == events.LockReleased:
		l := p.lock(ev.Args[0])
		if !p.keep(loc) {
			break
		}
		x.rec("THREAD_RELEASE_LOCK", C.OTF2_EvtWriter_ThreadReleaseLock(p.writer(loc), nil, p.at(loc, t), C.OTF2_PARADIGM_OPENMP, l.id, l.held[loc]))
	case typ == events.Dropped:
		p.gap(ev.Gap)
	}
	return x.err
}

// gap marks records the runtime dropped (timeline.Gap) as a gap in the
// measurement of their location: MEASUREMENT_ON_OFF off, with the count
// as the attribute "dropped records", and on at its end. The off is no
// earlier than what the location has written: OTF2 takes a location's
// events in time order.
func (p *part) gap(g timeline.Gap) {
	if !p.keep(g.Loc) || g.From > p.toT {
		return
	}
	off := max(p.clip(g.From), p.last[g.Loc])
	on := max(p.clip(g.To), off)
	attrs := C.OTF2_AttributeList_New()
	if attrs == nil {
		if p.x.err == nil {
			p.x.err = errors.New("otf2: cannot make an attribute list")
		}
		return
	}
	defer C.OTF2_AttributeList_Delete(attrs)
	if err := check("adding an attribute", C.OTF2_AttributeList_AddUint64(attrs, attrDropped, C.uint64_t(g.Records))); err != nil {
		if p.x.err == nil {
			p.x.err = err
		}
		return
	}
	w := p.writer(g.Loc)
	p.x.rec("MEASUREMENT_ON_OFF", C.OTF2_EvtWriter_MeasurementOnOff(w, attrs, p.at(g.Loc, off), C.OTF2_MEASUREMENT_OFF))
	p.x.rec("MEASUREMENT_ON_OFF", C.OTF2_EvtWriter_MeasurementOnOff(w, nil, p.at(g.Loc, on), C.OTF2_MEASUREMENT_ON))
	p.x.dropAttr = true
}

func (p *part) lock(addr uint64) *lockState {
	l := p.locks[addr]
	if l == nil {
		l = &lockState{id: C.uint32_t(p.x.nlocks), held: map[int]C.uint32_t{}}
		p.x.nlocks++
		p.locks[addr] = l
	}
	return l
}

// closeOpen ends what a run that stopped early (a signal, exit() while
// threads ran, dropped records) left open, at each location's last time,
// so that every location's ENTER and LEAVE records pair up: the regions
// tasks were in, the tasks, team membership, forks without their join.
func (p *part) closeOpen() { p.closeAt(nil) }

// closeAt is closeOpen at tick *to (the window's end), or at each
// location's last time when to is nil.
func (p *part) closeAt(to *uint64) {
	stacks, teams := p.r.Unfinished()
	for _, st := range stacks {
		for i := len(st) - 1; i >= 0; i-- {
			tk := st[i]
			loc := tk.Loc
			if loc < 0 || p.writers[loc] == nil {
				continue
			}
			at := max(p.r.Locs[loc].Last, p.last[loc]) // a sample may come after the location's last event
			if to != nil {
				at = *to
				// At a window's end the tasks go on: each suspended one
				// is switched to, to leave its own regions.
				if i < len(st)-1 && tk.Kind != timeline.Initial {
					p.taskSwitch(loc, at, tk)
				}
			}
			for j := len(tk.Open) - 1; j >= 0; j-- {
				if f := tk.Open[j]; f.Kind != timeline.FrameFork {
					p.leave(loc, at, p.frameRegion(f))
				}
			}
			switch tk.Kind {
			case timeline.Explicit, timeline.Taskloop:
				p.leave(loc, at, p.region(tk.Region, kindTask))
			case timeline.Implicit:
				kind := uint8(kindImplicit)
				if tk.Ended {
					kind = kindClosing
				}
				p.leave(loc, at, p.region(tk.Region, kind))
				p.teamEnd(loc, at)
			}
		}
	}
	for _, t := range teams {
		if t.Loc >= 0 {
			at := p.r.Locs[t.Loc].Last
			if to != nil {
				at = *to
			}
			p.forkJoin(t.Loc, t.Fork, at, len(t.Members))
		}
	}
}

// finish closes the part's event writers, one for every location, even
// one without events (otf2-print cannot read an archive that defines a
// location without an event file), and collects its definitions.
func (p *part) finish() error {
	x := p.x
	for i := range p.writers {
		w := p.writer(i)
		if x.err != nil {
			return x.err
		}
		var n C.uint64_t
		if err := check("counting events", C.OTF2_EvtWriter_GetNumberOfEvents(w, &n)); err != nil {
			return err
		}
		x.locs[p.base+i].events = uint64(n)
		if err := check("closing an event writer", C.OTF2_Archive_CloseEvtWriter(x.archive, w)); err != nil {
			return err
		}
	}
	oss := make([]uint64, 0, len(p.osLocs))
	for os := range p.osLocs {
		oss = append(oss, uint64(os))
	}
	slices.Sort(oss)
	for _, os := range oss {
		x.osGroups = append(x.osGroups, osGroup{name: p.name("OS thread " + strconv.FormatUint(os, 10)), members: p.global(sortedKeys(p.osLocs[int(os)]))})
	}
	return nil
}

// global turns the part's locations into the archive's.
func (p *part) global(locs []uint64) []uint64 {
	for i := range locs {
		locs[i] += uint64(p.base)
	}
	return locs
}

func (p *part) commName(k int) string {
	if n := len(p.r.Locs); k >= n {
		return "initial thread " + p.r.Locs[k-n].Path
	}
	return "team of thread " + p.r.Locs[k].Path
}

// ranks returns the members of a team in rank order: position i holds
// the location of thread i. A thread number that no location has holds
// the team's first member, so that ranks stay positions.
func (p *part) ranks(members []int) []uint64 {
	byRank := map[int]uint64{}
	top := -1
	for _, loc := range members {
		r := p.rankOf(loc)
		if _, ok := byRank[r]; !ok {
			byRank[r] = uint64(loc)
		}
		top = max(top, r)
	}
	out := make([]uint64, top+1)
	for i := range out {
		if loc, ok := byRank[i]; ok {
			out[i] = loc
		} else {
			out[i] = uint64(members[0])
		}
	}
	return out
}
