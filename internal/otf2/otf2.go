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
	"unsafe"

	"gopari/internal/atomicfile"
	"gopari/internal/events"
	"gopari/internal/timeline"
)

// Available reports whether this gopari was built with libotf2.
const Available = true

// Write writes exp as an OTF2 archive in the new directory dir (anchor
// file dir/traces.otf2). The archive is made in a temporary sibling and
// renamed at the end: dir appears whole or not at all, and an existing
// dir is never touched. Timestamps are the run's clock ticks.
func Write(dir string, exp *events.Experiment) (Stats, error) {
	return WriteWith(dir, exp, Options{})
}

// WriteWith is Write cut and reporting progress as opt says.
func WriteWith(dir string, exp *events.Experiment, opt Options) (Stats, error) {
	return writeDir(dir, func(tmp string) (Stats, error) {
		return write(tmp, &exporter{opt: opt}, []source{{rank: -1, exp: exp}})
	})
}

// WriteJob writes the ranks of the MPI job named job as one OTF2 archive
// in the new directory dir, as Write does: a location group per rank,
// holding a location per team-tree thread. Ranks' clocks differ (their
// ticks start anywhere, on different nodes at different rates), so
// timestamps are nanoseconds on one time line: each rank's ticks are
// placed by the wall-clock time its run recorded at its first tick.
func WriteJob(dir, job string, ranks []events.Rank) (Stats, error) {
	return WriteJobWith(dir, job, ranks, Options{})
}

// WriteJobWith is WriteJob cut and reporting progress as opt says.
func WriteJobWith(dir, job string, ranks []events.Rank, opt Options) (Stats, error) {
	if len(ranks) == 0 {
		return Stats{}, errors.New("otf2: no rank has an event stream")
	}
	srcs := make([]source, len(ranks))
	origin := uint64(math.MaxUint64)
	for i, r := range ranks {
		if r.Exp.Clock.Realtime0Ns == 0 {
			return Stats{}, fmt.Errorf("%s: its profile has no wall-clock time of its start (clock.realtime0_ns): the ranks cannot be aligned", r.Exp.Dir)
		}
		origin = min(origin, r.Exp.Clock.Realtime0Ns)
		srcs[i] = source{rank: r.Rank, exp: r.Exp}
	}
	return writeDir(dir, func(tmp string) (Stats, error) {
		return write(tmp, &exporter{job: job, origin: origin, opt: opt}, srcs)
	})
}

// writeDir runs write into a temporary sibling of dir and renames it to
// dir when it succeeds; it removes the sibling when it fails.
func writeDir(dir string, write func(tmp string) (Stats, error)) (Stats, error) {
	if _, err := os.Lstat(dir); err == nil {
		return Stats{}, fmt.Errorf("%s exists; name a new directory for the OTF2 archive", dir)
	}
	var b [6]byte
	rand.Read(b[:])
	tmp := filepath.Join(filepath.Dir(dir), atomicfile.TempPrefix(dir)+hex.EncodeToString(b[:])+".tmp")
	if err := os.Mkdir(tmp, 0o755); err != nil {
		return Stats{}, err
	}
	st, err := write(tmp)
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

// A source is one run to export: a rank of a job, or the run (rank -1).
type source struct {
	rank int
	exp  *events.Experiment
}

// locDef, groupDef and commDef are definitions collected while the
// events are written, and written at the end.
type locDef struct {
	name   string
	group  int // location group: the source's index
	events uint64
}

type commDef struct {
	name    string
	members []uint64 // locations, in rank order
	parent  C.OTF2_CommRef
}

type osGroup struct {
	name    string
	members []uint64
}

// An exporter writes one archive: the strings, regions, locations,
// teams and locks of all its sources, and the timestamps written.
type exporter struct {
	job            string // the MPI job's key; "" for one run
	origin         uint64 // job: the wall-clock ns that timestamp 0 stands for
	archive        *C.OTF2_Archive
	strings        map[string]C.OTF2_StringRef
	strList        []string
	regDefs        []regionDef
	regIndex       map[regionDef]C.OTF2_RegionRef
	groups         []string // location groups, one per source
	locs           []locDef
	comms          []commDef
	osGroups       []osGroup
	nlocks         uint32
	samp           sampleDefs // the samples' calling contexts (samples.go)
	mpi            bool       // an MPI region was defined
	dropAttr       bool       // the attribute "dropped records" is used
	ticksPerSecond uint64     // one run: its clock's rate
	// realtimeOf returns the wall-clock ns of a timestamp; nil if unknown.
	realtimeOf func(uint64) uint64
	min, max   uint64
	any        bool
	stats      Stats
	err        error
	opt        Options
}

func write(dir string, x *exporter, srcs []source) (Stats, error) {
	cdir, cname := C.CString(dir), C.CString("traces")
	defer C.free(unsafe.Pointer(cdir))
	defer C.free(unsafe.Pointer(cname))
	a := C.OTF2_Archive_Open(cdir, cname, C.OTF2_FILEMODE_WRITE, 1<<20, 4<<20, C.OTF2_SUBSTRATE_POSIX, C.OTF2_COMPRESSION_NONE)
	if a == nil {
		return Stats{}, fmt.Errorf("otf2: cannot create an archive in %s", dir)
	}
	x.archive = a
	x.strings = map[string]C.OTF2_StringRef{}
	x.regIndex = map[regionDef]C.OTF2_RegionRef{}
	x.samp = sampleDefs{ctxIndex: map[ctxDef]C.OTF2_CallingContextRef{}, sclIndex: map[sclDef]C.OTF2_SourceCodeLocationRef{}}
	x.stats = Stats{Records: map[string]int64{}}
	err := check("setting up the archive", C.gopari_otf2_setup(a))
	if err == nil {
		err = check("opening event files", C.OTF2_Archive_OpenEvtFiles(a))
	}
	for i := 0; i < len(srcs) && err == nil; i++ {
		err = x.source(i, srcs[i])
	}
	if err == nil {
		err = x.finish()
	}
	if cerr := check("closing the archive", C.OTF2_Archive_Close(a)); err == nil {
		err = cerr
	}
	x.stats.Locations = len(x.locs)
	x.stats.Regions = len(x.regDefs)
	return x.stats, err
}

// source replays one run and writes its events; its locations' event
// writers are closed at its end, so that memory stays flat in the
// number of ranks.
func (x *exporter) source(i int, s source) error {
	p := newPart(x, i, s)
	off := 0.0
	if s.rank >= 0 {
		off = float64(s.exp.Clock.Realtime0Ns - x.origin)
	}
	p.cut(x.opt, off)
	if err := p.loadSamples(); err != nil {
		return err
	}
	base, n := x.stats.Timeline.Records, 0
	// The window opens and closes before the record that crosses its
	// edge is applied: what is open there is what the archive has open.
	// The samples taken before a record are written before it.
	p.r.Before = func(t uint64) error {
		if t > p.toT {
			p.samplesTo(p.toT)
		}
		if !p.window(t) {
			return errDone
		}
		p.samplesTo(t)
		return nil
	}
	err := p.r.Run(func(ev *timeline.Event) error {
		if n++; n&0xffff == 0 && x.opt.Progress != nil {
			x.opt.Progress(base + p.r.Stats.Records)
		}
		return p.event(ev)
	})
	done := errors.Is(err, errDone)
	if done {
		err = nil
	}
	if err == nil {
		err = x.err
	}
	if err == nil && !done {
		p.closeOpen()
		for _, g := range p.r.EndGaps() {
			p.gap(g)
		}
		p.samplesTo(math.MaxUint64)
		p.writeHeld()
		err = x.err
	}
	if err == nil {
		err = p.finish()
	}
	st := p.r.Stats
	x.stats.Timeline.Records += st.Records
	x.stats.Timeline.Dropped += st.Dropped
	x.stats.Timeline.Unmatched += st.Unmatched
	x.stats.Timeline.Clamped += st.Clamped
	return err
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

// note notes a timestamp written.
func (x *exporter) note(t uint64) C.OTF2_TimeStamp {
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

// region returns the OTF2 region of a definition, defining it at first
// sight; ranks that share a region share its definition.
func (x *exporter) region(d regionDef) C.OTF2_RegionRef {
	if ref, ok := x.regIndex[d]; ok {
		return ref
	}
	ref := C.OTF2_RegionRef(len(x.regDefs))
	x.regIndex[d] = ref
	x.regDefs = append(x.regDefs, d)
	if d.paradigm == C.OTF2_PARADIGM_MPI {
		x.mpi = true
	}
	return ref
}

// finish writes the definition files of every location and the global
// definitions.
func (x *exporter) finish() error {
	a := x.archive
	if err := check("closing event files", C.OTF2_Archive_CloseEvtFiles(a)); err != nil {
		return err
	}
	if err := check("opening definition files", C.OTF2_Archive_OpenDefFiles(a)); err != nil {
		return err
	}
	for i := range x.locs {
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
	return x.definitions(g)
}
