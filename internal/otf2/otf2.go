//go:build otf2

package otf2

/*
#cgo LDFLAGS: -lotf2
#include <stdlib.h>
#include <otf2/otf2.h>

OTF2_ErrorCode gopari_otf2_setup(OTF2_Archive *a);
*/
import "C"

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unsafe"

	"gopari/internal/events"
	"gopari/internal/profile"
	"gopari/internal/timeline"
)

// Available reports whether this gopari was built with libotf2.
const Available = true

// Write writes exp as an OTF2 archive in the new directory dir (anchor
// file dir/traces.otf2). The archive is made in a temporary sibling and
// renamed at the end: dir appears whole or not at all, and an existing
// dir is never touched.
func Write(dir string, exp *events.Experiment) (Stats, error) {
	if _, err := os.Lstat(dir); err == nil {
		return Stats{}, fmt.Errorf("%s exists; name a new directory for the OTF2 archive", dir)
	}
	var b [6]byte
	rand.Read(b[:])
	tmp := filepath.Join(filepath.Dir(dir), "."+filepath.Base(dir)+".gopari-"+hex.EncodeToString(b[:])+".tmp")
	if err := os.Mkdir(tmp, 0o755); err != nil {
		return Stats{}, err
	}
	st, err := write(tmp, exp)
	if err == nil {
		err = os.Rename(tmp, dir)
	}
	if err != nil {
		os.RemoveAll(tmp)
	}
	return st, err
}

func check(what string, e C.OTF2_ErrorCode) error {
	if e == C.OTF2_SUCCESS {
		return nil
	}
	return fmt.Errorf("otf2: %s: %s", what, C.GoString(C.OTF2_Error_GetDescription(e)))
}

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

type regionDef struct {
	name, file string
	role       C.OTF2_RegionRole
	begin, end int
}

type lockState struct {
	id    C.uint32_t
	order C.uint32_t
	held  map[int]C.uint32_t // by location: the order of its last acquisition
}

type exporter struct {
	exp      *events.Experiment
	r        *timeline.Replay
	archive  *C.OTF2_Archive
	writers  []*C.OTF2_EvtWriter
	strings  map[string]C.OTF2_StringRef
	strList  []string
	regions  map[regionKey]C.OTF2_RegionRef
	regDefs  []regionDef
	comms    map[int]C.OTF2_CommRef // by forking location, or n+root for a root's own
	commKeys []int
	members  map[int]map[int]bool // comm key -> member locations
	gen      []uint32             // per location: the last generation number
	locks    map[uint64]*lockState
	osLocs   map[int]map[int]bool // OS thread -> locations it acted as
	min, max uint64
	any      bool
	stats    Stats
	err      error
}

func write(dir string, exp *events.Experiment) (Stats, error) {
	cdir, cname := C.CString(dir), C.CString("traces")
	defer C.free(unsafe.Pointer(cdir))
	defer C.free(unsafe.Pointer(cname))
	a := C.OTF2_Archive_Open(cdir, cname, C.OTF2_FILEMODE_WRITE, 1<<20, 4<<20, C.OTF2_SUBSTRATE_POSIX, C.OTF2_COMPRESSION_NONE)
	if a == nil {
		return Stats{}, fmt.Errorf("otf2: cannot create an archive in %s", dir)
	}
	x := &exporter{exp: exp, archive: a, strings: map[string]C.OTF2_StringRef{}, regions: map[regionKey]C.OTF2_RegionRef{},
		comms: map[int]C.OTF2_CommRef{}, members: map[int]map[int]bool{}, locks: map[uint64]*lockState{},
		osLocs: map[int]map[int]bool{}, stats: Stats{Records: map[string]int64{}}}
	x.r = timeline.New(exp)
	x.writers = make([]*C.OTF2_EvtWriter, len(x.r.Locs))
	x.gen = make([]uint32, len(x.r.Locs))
	err := check("setting up the archive", C.gopari_otf2_setup(a))
	if err == nil {
		err = check("opening event files", C.OTF2_Archive_OpenEvtFiles(a))
	}
	if err == nil {
		err = x.r.Run(x.event)
		if err == nil {
			err = x.err
		}
	}
	if err == nil {
		err = x.finish()
	}
	if cerr := check("closing the archive", C.OTF2_Archive_Close(a)); err == nil {
		err = cerr
	}
	x.stats.Timeline = x.r.Stats
	x.stats.Locations = len(x.r.Locs)
	x.stats.Regions = len(x.regDefs)
	return x.stats, err
}

func (x *exporter) str(s string) C.OTF2_StringRef {
	if ref, ok := x.strings[s]; ok {
		return ref
	}
	ref := C.OTF2_StringRef(len(x.strList))
	x.strings[s] = ref
	x.strList = append(x.strList, s)
	return ref
}

// writer returns location loc's event writer.
func (x *exporter) writer(loc int) *C.OTF2_EvtWriter {
	if w := x.writers[loc]; w != nil {
		return w
	}
	w := C.OTF2_Archive_GetEvtWriter(x.archive, C.OTF2_LocationRef(loc))
	if w == nil && x.err == nil {
		x.err = fmt.Errorf("otf2: no event writer for location %d", loc)
	}
	x.writers[loc] = w
	return w
}

// ts notes a timestamp written.
func (x *exporter) ts(t uint64) C.OTF2_TimeStamp {
	if !x.any || t < x.min {
		x.min = t
	}
	if !x.any || t > x.max {
		x.max = t
	}
	x.any = true
	return C.OTF2_TimeStamp(t)
}

func (x *exporter) rec(name string, e C.OTF2_ErrorCode) {
	x.stats.Records[name]++
	if e != C.OTF2_SUCCESS && x.err == nil {
		x.err = check("writing "+name, e)
	}
}

// comm returns the thread team of key: the team forked by location key,
// or (key >= number of locations) the initial team of a root location.
func (x *exporter) comm(key int) C.OTF2_CommRef {
	if c, ok := x.comms[key]; ok {
		return c
	}
	c := C.OTF2_CommRef(len(x.commKeys))
	x.comms[key] = c
	x.commKeys = append(x.commKeys, key)
	x.members[key] = map[int]bool{}
	if n := len(x.r.Locs); key >= n {
		x.members[key][key-n] = true
	}
	return c
}

// rank returns location loc's rank in its team: its thread number, 0
// for an initial thread.
func (x *exporter) rank(loc int) int {
	l := x.r.Locs[loc]
	if l.Parent < 0 {
		return 0
	}
	i := strings.LastIndexByte(l.Path, '.')
	n, _ := strconv.Atoi(l.Path[i+1:])
	return n
}

// teamOf returns the key of the team location loc belongs to.
func (x *exporter) teamOf(loc int) int {
	if p := x.r.Locs[loc].Parent; p >= 0 {
		return p
	}
	return len(x.r.Locs) + loc
}

// ref returns a task's OTF2 identity, making one at first sight.
func (x *exporter) ref(t *timeline.Task, loc int) *taskRef {
	if r, ok := t.Data.(*taskRef); ok {
		return r
	}
	r := &taskRef{}
	// The creating thread is its rank in the team: its thread number.
	switch t.Kind {
	case timeline.Implicit, timeline.Initial:
		r.team = x.comm(x.teamOf(loc))
		r.creator = C.uint32_t(x.rank(loc))
	default:
		cl := t.CreateLoc
		if cl < 0 {
			cl = loc
		}
		r.team = x.comm(x.teamOf(cl))
		r.creator = C.uint32_t(x.rank(cl))
		x.gen[cl]++
		r.gen = C.uint32_t(x.gen[cl])
	}
	t.Data = r
	return r
}

var roles = map[string]C.OTF2_RegionRole{
	"parallel": C.OTF2_REGION_ROLE_PARALLEL, "for": C.OTF2_REGION_ROLE_LOOP, "loop": C.OTF2_REGION_ROLE_LOOP,
	"simd": C.OTF2_REGION_ROLE_LOOP, "taskloop": C.OTF2_REGION_ROLE_LOOP, "sections": C.OTF2_REGION_ROLE_SECTIONS,
	"single": C.OTF2_REGION_ROLE_SINGLE, "scope": C.OTF2_REGION_ROLE_WORKSHARE, "master": C.OTF2_REGION_ROLE_MASTER,
	"critical": C.OTF2_REGION_ROLE_CRITICAL, "atomic": C.OTF2_REGION_ROLE_ATOMIC, "flush": C.OTF2_REGION_ROLE_FLUSH,
	"barrier": C.OTF2_REGION_ROLE_BARRIER, "taskwait": C.OTF2_REGION_ROLE_TASK_WAIT, "taskgroup": C.OTF2_REGION_ROLE_TASK_WAIT,
	"ordered": C.OTF2_REGION_ROLE_ORDERED, "task": C.OTF2_REGION_ROLE_TASK, "lock": C.OTF2_REGION_ROLE_WRAPPER,
	"user": C.OTF2_REGION_ROLE_CODE, "taskyield": C.OTF2_REGION_ROLE_CODE, "cancel": C.OTF2_REGION_ROLE_CODE,
	"cancellation point": C.OTF2_REGION_ROLE_CODE,
}

// region returns the OTF2 region of a gopari region seen as kind.
func (x *exporter) region(id uint32, kind uint8) C.OTF2_RegionRef {
	k := regionKey{id, kind}
	if ref, ok := x.regions[k]; ok {
		return ref
	}
	d := regionDef{name: fmt.Sprintf("region %d", id), role: C.OTF2_REGION_ROLE_UNKNOWN}
	if r := x.exp.Region(id); r != nil {
		d = x.define(r, kind)
	}
	ref := C.OTF2_RegionRef(len(x.regDefs))
	x.regions[k] = ref
	x.regDefs = append(x.regDefs, d)
	return ref
}

// define describes region r seen as kind, named as Score-P names OpenMP
// regions ("!$omp critical @file.c:12").
func (x *exporter) define(r *profile.Region, kind uint8) regionDef {
	name := r.Name
	if (r.Kind == "lock" || r.Kind == "user") && r.SubName != "" {
		name = r.SubName
	}
	at := " @" + r.File + ":" + strconv.Itoa(r.BeginLine)
	d := regionDef{name: "!$omp " + name + at, file: r.File, role: roles[r.Kind], begin: r.BeginLine, end: r.EndLine}
	if r.Kind == "lock" {
		d.name = name + at
	}
	if r.Kind == "user" {
		d.name = name
	}
	if r.Kind == "critical" && r.SubName != "" {
		d.name = "!$omp critical (" + r.SubName + ")" + at
	}
	if r.Kind == "task" && hasFlag(r, "untied") {
		d.role = C.OTF2_REGION_ROLE_TASK_UNTIED
	}
	switch kind {
	case kindTask:
		if r.Kind == "taskloop" {
			d.name, d.role = "!$omp taskloop task"+at, C.OTF2_REGION_ROLE_TASK
		}
	case kindImplicit, uint8(timeline.FrameConstruct):
	case kindClosing:
		d.name, d.role = "!$omp implicit barrier"+at, C.OTF2_REGION_ROLE_IMPLICIT_BARRIER
	case uint8(timeline.FrameBody):
		d.name += " (body)"
		switch r.Kind {
		case "sections":
			d.role = C.OTF2_REGION_ROLE_SECTION
		case "single":
			d.role = C.OTF2_REGION_ROLE_SINGLE_SBLOCK
		case "critical":
			d.role = C.OTF2_REGION_ROLE_CRITICAL_SBLOCK
		case "ordered":
			d.role = C.OTF2_REGION_ROLE_ORDERED_SBLOCK
		default:
			d.role = C.OTF2_REGION_ROLE_CODE
		}
	case uint8(timeline.FrameBarrier):
		d.name, d.role = "!$omp implicit barrier"+at, C.OTF2_REGION_ROLE_IMPLICIT_BARRIER
	case uint8(timeline.FrameWait):
		d.name, d.role = d.name+" (wait)", C.OTF2_REGION_ROLE_TASK_WAIT
	case uint8(timeline.FrameCreate):
		d.name, d.role = "!$omp create task"+at, C.OTF2_REGION_ROLE_TASK_CREATE
	case uint8(timeline.FrameChunk):
		d.name, d.role = d.name+" (chunk)", C.OTF2_REGION_ROLE_LOOP
	}
	return d
}

func hasFlag(r *profile.Region, f string) bool {
	for _, g := range r.Flags {
		if g == f {
			return true
		}
	}
	return false
}

func (x *exporter) enter(loc int, t uint64, reg C.OTF2_RegionRef) {
	x.rec("ENTER", C.OTF2_EvtWriter_Enter(x.writer(loc), nil, x.ts(t), reg))
}

func (x *exporter) leave(loc int, t uint64, reg C.OTF2_RegionRef) {
	x.rec("LEAVE", C.OTF2_EvtWriter_Leave(x.writer(loc), nil, x.ts(t), reg))
}

func (x *exporter) taskSwitch(loc int, t uint64, tk *timeline.Task) {
	r := x.ref(tk, loc)
	x.rec("THREAD_TASK_SWITCH", C.OTF2_EvtWriter_ThreadTaskSwitch(x.writer(loc), nil, x.ts(t), r.team, r.creator, r.gen))
}

func (x *exporter) event(ev *timeline.Event) error {
	if x.err != nil {
		return x.err
	}
	loc, t := ev.Loc, ev.Time
	if x.osLocs[ev.OS] == nil {
		x.osLocs[ev.OS] = map[int]bool{}
	}
	x.osLocs[ev.OS][loc] = true
	switch typ := ev.Type; {
	case typ.IsEnter(), typ == events.ChunkBegin:
		x.enter(loc, t, x.region(ev.Region, uint8(ev.Frame.Kind)))
	case typ.IsExit(), typ == events.ChunkEnd:
		x.leave(loc, t, x.region(ev.Region, uint8(ev.Frame.Kind)))
	case typ == events.CreateBegin:
		x.enter(loc, t, x.region(ev.Region, uint8(timeline.FrameCreate)))
		r := x.ref(ev.Task, loc)
		x.rec("THREAD_TASK_CREATE", C.OTF2_EvtWriter_ThreadTaskCreate(x.writer(loc), nil, x.ts(t), r.team, r.creator, r.gen))
	case typ == events.CreateEnd:
		x.leave(loc, t, x.region(ev.Region, uint8(timeline.FrameCreate)))
	case typ == events.TaskBegin, typ == events.TaskloopBegin:
		x.taskSwitch(loc, t, ev.Task)
		x.enter(loc, t, x.region(ev.Region, kindTask))
	case typ == events.TaskEnd, typ == events.TaskloopEnd:
		x.leave(loc, t, x.region(ev.Region, kindTask))
		r := x.ref(ev.Task, loc)
		x.rec("THREAD_TASK_COMPLETE", C.OTF2_EvtWriter_ThreadTaskComplete(x.writer(loc), nil, x.ts(t), r.team, r.creator, r.gen))
		if ev.Other != nil {
			x.taskSwitch(loc, t, ev.Other)
		}
	case typ == events.Resume:
		if ev.From >= 0 && ev.From != loc && ev.FromTask != nil {
			x.taskSwitch(ev.From, x.r.Clamp(ev.From, t), ev.FromTask)
		}
		x.taskSwitch(loc, t, ev.Task)
	case typ == events.ImplicitBegin:
		team := x.comm(x.teamOf(loc))
		x.members[x.teamOf(loc)][loc] = true
		x.rec("THREAD_TEAM_BEGIN", C.OTF2_EvtWriter_ThreadTeamBegin(x.writer(loc), nil, x.ts(t), team))
		x.enter(loc, t, x.region(ev.Region, kindImplicit))
	case typ == events.ImplicitEnd:
		x.leave(loc, t, x.region(ev.Region, kindImplicit))
		x.enter(loc, t, x.region(ev.Region, kindClosing))
	case typ == events.Join:
		for _, m := range ev.Team.Members {
			if m.Loc < 0 {
				continue
			}
			at := x.r.Clamp(m.Loc, t)
			if m.Ended {
				x.leave(m.Loc, at, x.region(m.Region, kindClosing))
			}
			x.rec("THREAD_TEAM_END", C.OTF2_EvtWriter_ThreadTeamEnd(x.writer(m.Loc), nil, x.ts(at), x.comm(x.teamOf(m.Loc))))
		}
		x.rec("THREAD_FORK", C.OTF2_EvtWriter_ThreadFork(x.writer(loc), nil, x.ts(ev.Team.Fork), C.OTF2_PARADIGM_OPENMP, C.uint32_t(len(ev.Team.Members))))
		x.rec("THREAD_JOIN", C.OTF2_EvtWriter_ThreadJoin(x.writer(loc), nil, x.ts(t), C.OTF2_PARADIGM_OPENMP))
	case typ == events.LockAcquired:
		l := x.lock(ev.Args[0])
		l.order++
		l.held[loc] = l.order
		x.rec("THREAD_ACQUIRE_LOCK", C.OTF2_EvtWriter_ThreadAcquireLock(x.writer(loc), nil, x.ts(t), C.OTF2_PARADIGM_OPENMP, l.id, l.order))
	case typ == events.LockReleased:
		l := x.lock(ev.Args[0])
		x.rec("THREAD_RELEASE_LOCK", C.OTF2_EvtWriter_ThreadReleaseLock(x.writer(loc), nil, x.ts(t), C.OTF2_PARADIGM_OPENMP, l.id, l.held[loc]))
	}
	return x.err
}

func (x *exporter) lock(addr uint64) *lockState {
	l := x.locks[addr]
	if l == nil {
		l = &lockState{id: C.uint32_t(len(x.locks)), held: map[int]C.uint32_t{}}
		x.locks[addr] = l
	}
	return l
}

// closeOpen ends what a run that stopped early (a signal, exit() while
// threads ran, dropped records) left open, at each location's last time,
// so that every location's ENTER and LEAVE records pair up: the regions
// tasks were in, the tasks, team membership, forks without their join.
func (x *exporter) closeOpen() {
	stacks, teams := x.r.Unfinished()
	for _, st := range stacks {
		for i := len(st) - 1; i >= 0; i-- {
			tk := st[i]
			loc := tk.Loc
			if loc < 0 || x.writers[loc] == nil {
				continue
			}
			at := x.r.Locs[loc].Last
			for j := len(tk.Open) - 1; j >= 0; j-- {
				f := tk.Open[j]
				if f.Kind == timeline.FrameFork {
					continue
				}
				kind := uint8(f.Kind)
				x.leave(loc, at, x.region(f.Region, kind))
			}
			switch tk.Kind {
			case timeline.Explicit, timeline.Taskloop:
				x.leave(loc, at, x.region(tk.Region, kindTask))
			case timeline.Implicit:
				kind := uint8(kindImplicit)
				if tk.Ended {
					kind = kindClosing
				}
				x.leave(loc, at, x.region(tk.Region, kind))
				x.rec("THREAD_TEAM_END", C.OTF2_EvtWriter_ThreadTeamEnd(x.writer(loc), nil, x.ts(at), x.comm(x.teamOf(loc))))
			}
		}
	}
	for _, t := range teams {
		if t.Loc < 0 {
			continue
		}
		at := x.r.Locs[t.Loc].Last
		x.rec("THREAD_FORK", C.OTF2_EvtWriter_ThreadFork(x.writer(t.Loc), nil, x.ts(t.Fork), C.OTF2_PARADIGM_OPENMP, C.uint32_t(len(t.Members))))
		x.rec("THREAD_JOIN", C.OTF2_EvtWriter_ThreadJoin(x.writer(t.Loc), nil, x.ts(at), C.OTF2_PARADIGM_OPENMP))
	}
}

// finish closes the event writers and writes the definitions.
func (x *exporter) finish() error {
	x.closeOpen()
	if x.err != nil {
		return x.err
	}
	a := x.archive
	nevents := make([]uint64, len(x.writers))
	for i, w := range x.writers {
		if w == nil {
			continue
		}
		var n C.uint64_t
		if err := check("counting events", C.OTF2_EvtWriter_GetNumberOfEvents(w, &n)); err != nil {
			return err
		}
		nevents[i] = uint64(n)
		if err := check("closing an event writer", C.OTF2_Archive_CloseEvtWriter(a, w)); err != nil {
			return err
		}
	}
	if err := check("closing event files", C.OTF2_Archive_CloseEvtFiles(a)); err != nil {
		return err
	}
	if err := check("opening definition files", C.OTF2_Archive_OpenDefFiles(a)); err != nil {
		return err
	}
	for i, w := range x.writers {
		if w == nil {
			continue
		}
		d := C.OTF2_Archive_GetDefWriter(a, C.OTF2_LocationRef(i))
		if d == nil {
			return fmt.Errorf("otf2: no definition writer for location %d", i)
		}
		if err := check("closing a definition writer", C.OTF2_Archive_CloseDefWriter(a, d)); err != nil {
			return err
		}
	}
	if err := check("closing definition files", C.OTF2_Archive_CloseDefFiles(a)); err != nil {
		return err
	}
	g := C.OTF2_Archive_GetGlobalDefWriter(a)
	if g == nil {
		return errors.New("otf2: no global definition writer")
	}
	return x.definitions(g, nevents)
}

func (x *exporter) definitions(g *C.OTF2_GlobalDefWriter, nevents []uint64) error {
	var err error
	do := func(what string, e C.OTF2_ErrorCode) {
		if err == nil {
			err = check("defining "+what, e)
		}
	}
	clk := x.exp.Clock
	res := uint64(math.Round(1e9 / clk.NsPerTick))
	realtime := C.uint64_t(C.OTF2_UNDEFINED_TIMESTAMP)
	if clk.Realtime0Ns > 0 {
		realtime = C.uint64_t(float64(clk.Realtime0Ns) + clk.Ns(x.min))
	}
	// Name every string first: definitions refer to them.
	host, _ := os.Hostname()
	if host == "" {
		host = "machine"
	}
	machine, node := x.str(host), x.str("machine")
	proc := x.str(fmt.Sprintf("%s (pid %d)", x.exp.Program, x.exp.PID))
	omp := x.str("OpenMP")
	for _, l := range x.r.Locs {
		x.str("thread " + l.Path)
	}
	for _, d := range x.regDefs {
		x.str(d.name)
		x.str(d.file)
	}
	x.str("")
	oss := make([]int, 0, len(x.osLocs))
	for os := range x.osLocs {
		oss = append(oss, os)
	}
	sort.Ints(oss)
	for _, os := range oss {
		x.str("OS thread " + strconv.Itoa(os))
	}
	for _, k := range x.commKeys {
		x.str(x.commName(k))
	}
	x.str("OpenMP threads")
	for i, s := range x.strList {
		cs := C.CString(s)
		do("a string", C.OTF2_GlobalDefWriter_WriteString(g, C.OTF2_StringRef(i), cs))
		C.free(unsafe.Pointer(cs))
	}
	do("the clock", C.OTF2_GlobalDefWriter_WriteClockProperties(g, C.uint64_t(res), C.uint64_t(x.min), C.uint64_t(x.max-x.min), realtime))
	do("the paradigm", C.OTF2_GlobalDefWriter_WriteParadigm(g, C.OTF2_PARADIGM_OPENMP, omp, C.OTF2_PARADIGM_CLASS_THREAD_FORK_JOIN))
	do("the machine", C.OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, machine, node, C.OTF2_UNDEFINED_SYSTEM_TREE_NODE))
	do("the process", C.OTF2_GlobalDefWriter_WriteLocationGroup(g, 0, proc, C.OTF2_LOCATION_GROUP_TYPE_PROCESS, 0, C.OTF2_UNDEFINED_LOCATION_GROUP))
	for i, l := range x.r.Locs {
		do("a location", C.OTF2_GlobalDefWriter_WriteLocation(g, C.OTF2_LocationRef(i), x.strings["thread "+l.Path], C.OTF2_LOCATION_TYPE_CPU_THREAD, C.uint64_t(nevents[i]), 0))
	}
	for i, d := range x.regDefs {
		file := x.strings[d.file]
		if d.file == "" {
			file = C.OTF2_UNDEFINED_STRING
		}
		do("a region", C.OTF2_GlobalDefWriter_WriteRegion(g, C.OTF2_RegionRef(i), x.strings[d.name], x.strings[d.name], x.strings[""],
			d.role, C.OTF2_PARADIGM_OPENMP, C.OTF2_REGION_FLAG_NONE, file, C.uint32_t(d.begin), C.uint32_t(d.end)))
	}
	// Groups: the locations each OS thread acted as; every location, for
	// the thread teams; each team's members.
	gid := C.OTF2_GroupRef(0)
	group := func(name C.OTF2_StringRef, typ C.OTF2_GroupType, paradigm C.OTF2_Paradigm, members []uint64) C.OTF2_GroupRef {
		var p *C.uint64_t
		if len(members) > 0 {
			p = (*C.uint64_t)(unsafe.Pointer(&members[0]))
		}
		do("a group", C.OTF2_GlobalDefWriter_WriteGroup(g, gid, name, typ, paradigm, C.OTF2_GROUP_FLAG_NONE, C.uint32_t(len(members)), p))
		gid++
		return gid - 1
	}
	for _, os := range oss {
		group(x.strings["OS thread "+strconv.Itoa(os)], C.OTF2_GROUP_TYPE_LOCATIONS, C.OTF2_PARADIGM_UNKNOWN, sortedKeys(x.osLocs[os]))
	}
	all := make([]uint64, len(x.r.Locs))
	for i := range all {
		all[i] = uint64(i)
	}
	group(x.strings["OpenMP threads"], C.OTF2_GROUP_TYPE_COMM_LOCATIONS, C.OTF2_PARADIGM_OPENMP, all)
	for i, k := range x.commKeys {
		gr := group(x.strings[""], C.OTF2_GROUP_TYPE_COMM_GROUP, C.OTF2_PARADIGM_OPENMP, x.ranks(k))
		parent := C.OTF2_CommRef(C.OTF2_UNDEFINED_COMM)
		if k < len(x.r.Locs) {
			if c, ok := x.comms[x.teamOf(k)]; ok {
				parent = c
			}
		}
		do("a thread team", C.OTF2_GlobalDefWriter_WriteComm(g, C.OTF2_CommRef(i), x.strings[x.commName(k)], gr, parent, C.OTF2_COMM_FLAG_NONE))
	}
	return err
}

func (x *exporter) commName(k int) string {
	if n := len(x.r.Locs); k >= n {
		return "initial thread " + x.r.Locs[k-n].Path
	}
	return "team of thread " + x.r.Locs[k].Path
}

// ranks returns the members of team k in rank order: position i holds
// the location of thread i. A thread number never seen holds its
// parent's first member, so that ranks stay positions.
func (x *exporter) ranks(k int) []uint64 {
	byRank := map[int]uint64{}
	max := -1
	for loc := range x.members[k] {
		r := x.rank(loc)
		byRank[r] = uint64(loc)
		if r > max {
			max = r
		}
	}
	out := make([]uint64, max+1)
	for i := range out {
		if loc, ok := byRank[i]; ok {
			out[i] = loc
		} else {
			out[i] = sortedKeys(x.members[k])[0]
		}
	}
	return out
}

func sortedKeys(m map[int]bool) []uint64 {
	out := make([]uint64, 0, len(m))
	for k := range m {
		out = append(out, uint64(k))
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}
