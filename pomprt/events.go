package main

/*
#include "rt.h"
*/
import "C"

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"sync"
	"syscall"
	"unsafe"

	"gopari/internal/events"
	"gopari/internal/experiment"
	"gopari/internal/profile"
)

// The run's experiment directory, made early when the event stream needs
// it: the stream is written while the program runs.
var runDir struct {
	sync.Mutex
	dir  string
	made bool
}

// pompGoRunDir makes this run's experiment directory, once, and copies
// its path into buf (n bytes). It returns the path's length, or -1.
//
//export pompGoRunDir
func pompGoRunDir(buf *C.char, n C.int) C.int {
	prog, _ := commandLine()
	dir, err := rootDir(prog)
	if err != nil {
		fmt.Fprintf(os.Stderr, "gopari: no event stream written: %v\n", err)
		return -1
	}
	if len(dir)+1 > int(n) {
		fmt.Fprintf(os.Stderr, "gopari: no event stream written: %s: path too long\n", dir)
		return -1
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(buf)), int(n))
	copy(b, dir)
	b[len(dir)] = 0
	return C.int(len(dir))
}

// rootDir returns this process's experiment directory: the one made for
// its event stream, or a new one.
func rootDir(program string) (string, error) {
	runDir.Lock()
	defer runDir.Unlock()
	if runDir.made {
		return runDir.dir, nil
	}
	base, explicit, err := runBase(program)
	if err != nil {
		return "", err
	}
	dir, err := makeExperimentDir(base, explicit)
	if err != nil {
		return "", err
	}
	runDir.dir, runDir.made = dir, true
	return dir, nil
}

// The run's description beside its event stream, events/stream.json
// (events.RunInfo): what the readers need of a run killed before it
// wrote its profile. C asks for it (pompGoStreamInfo) when it makes the
// events directory and before a block that it would not describe; the
// end of the run writes it once more, then removes it once the profile
// is written.
var streamInfo struct {
	sync.Mutex
	written bool // a stream.json is there
	gone    bool // the profile is written: stream.json is removed for good
	failed  bool // a write failed, and stderr said so
}

// pompGoStreamInfo writes events/stream.json, and returns through its
// arguments the regions and locations it lists, and the tick of the clock
// it was written at. It returns 0, or -1 when it could not be written.
//
//export pompGoStreamInfo
func pompGoStreamInfo(nregions, nlocs *C.uint32_t, tick *C.uint64_t) C.int {
	nr, nl, t, err := writeStreamInfo(&C.pomp_g, "")
	*nregions, *nlocs, *tick = C.uint32_t(nr), C.uint32_t(nl), C.uint64_t(t)
	if err != nil {
		return -1
	}
	return 0
}

// writeStreamInfo writes g's stream.json into this run's events
// directory; ended is how the run ended, or "" while it runs. It returns
// the number of regions and locations written and the tick it read the
// clock at.
func writeStreamInfo(g *C.pomp_rt, ended string) (nregions, nlocs int, tick uint64, err error) {
	streamInfo.Lock()
	defer streamInfo.Unlock()
	if streamInfo.gone {
		return int(g.nregions), int(g.nlocs), uint64(C.pomp_now()), nil
	}
	prog, args := commandLine()
	dir, err := rootDir(prog) // made already: the events directory is in it
	if err != nil {
		return 0, 0, 0, err
	}
	ri := &events.RunInfo{Format: events.RunInfoFormat, Version: events.RunInfoVersion, StreamVersion: int(C.EV_VERSION),
		Program: prog, Args: args, PID: os.Getpid(), Kinds: streamKinds(g), Ended: ended}
	if m := thisJob(); m != nil {
		ri.MPI = &m.MPIRank
	}
	C.pthread_mutex_lock(&g.mu)
	ri.Regions = collectRegions(g)
	locs := unsafe.Slice(g.locs, int(g.nlocs))
	ri.Threads = collectThreads(locs, clock{}) // no times: the places so far
	C.pthread_mutex_unlock(&g.mu)
	for i := range ri.Threads {
		ri.Threads[i].ImplicitTasks = 0 // a count so far, not the run's
	}
	var ct, cn C.uint64_t
	C.pomp_clock_pair(&ct, &cn) // robust to a preemption between the two reads
	tick = uint64(ct)
	ns := uint64(cn)
	ri.Clock, ri.CalibratedNs = clockSoFar(g, tick, ns)
	ri.WrittenNs = ns - uint64(g.ns0)
	path := experiment.Stream(dir)
	if err = replaceJSON(path, ri); err != nil {
		if !streamInfo.failed {
			streamInfo.failed = true
			fmt.Fprintf(os.Stderr, "gopari: %v; a run killed now could not be read\n", err)
		}
		return len(ri.Regions), len(ri.Threads), tick, err
	}
	streamInfo.written = true
	return len(ri.Regions), len(ri.Threads), tick, nil
}

// clockSoFar is the run's clock as measured from its start to tick and
// ns, and the span it was measured over.
func clockSoFar(g *C.pomp_rt, tick, ns uint64) (profile.Clock, uint64) {
	c := profile.Clock{Name: "monotonic", NsPerTick: 1, Tick0: uint64(g.tick0), Ns0: uint64(g.ns0), Realtime0Ns: uint64(g.realtime0)}
	span := ns - c.Ns0
	if g.use_tsc != 0 {
		c.Name = "tsc"
		if tick > c.Tick0 && span > 0 {
			c.NsPerTick = float64(span) / float64(tick-c.Tick0)
		}
	}
	return c, span
}

// replaceJSON writes v to path through a temporary file renamed over it:
// a reader, or a run killed meanwhile, sees the old file or the new one.
func replaceJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(append(b, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

// endStreamInfo is called at the end of the run, before the profile is
// written: stream.json says how the run ended, so that a run whose
// profile is not written is not taken for one killed while it ran.
func endStreamInfo(g *C.pomp_rt, exit string) {
	streamInfo.Lock()
	written := streamInfo.written
	streamInfo.Unlock()
	if written {
		writeStreamInfo(g, exit)
	}
}

// dropStreamInfo removes stream.json once profile.json, which says more,
// is written.
func dropStreamInfo(dir string) {
	streamInfo.Lock()
	defer streamInfo.Unlock()
	if streamInfo.written {
		os.Remove(experiment.Stream(dir))
	}
	streamInfo.gone = true
}

// streamMeta describes the event stream that g's threads wrote (after
// pomp_ev_finish), or returns nil when there is none.
func streamMeta(g *C.pomp_rt, ck clock) *profile.Events {
	if g.ev_done == 0 {
		return nil
	}
	ev := &profile.Events{Version: int(C.EV_VERSION), Dir: experiment.EventsDir, Kinds: streamKinds(g), Complete: g.ev_complete != 0}
	if g.ev_errno != 0 {
		ev.Stopped = fmt.Sprintf("%.3f s into the run, writing %s: %v", float64(uint64(g.ev_stop_ts)-uint64(g.tick0))*ck.nsPerTick/1e9,
			experiment.ThreadFile(int(g.ev_stop_thread)), syscall.Errno(g.ev_errno))
	}
	for t := g.threads; t != nil; t = t.next {
		e := &t.ev
		if e.bytes == 0 && e.dropped == 0 {
			continue // it recorded nothing
		}
		f := profile.EventFile{
			Name:     experiment.ThreadFile(int(t.index)),
			OSThread: int(t.index),
			Bytes:    int64(e.bytes),
			Records:  int64(e.records),
			Dropped:  int64(e.dropped),
		}
		if e.bytes == 0 {
			// Nothing reached the disk: no file, but its records are
			// counted, and the exporters mark them on its locations.
			ev.Unwritten = append(ev.Unwritten, profile.Unwritten{OSThread: f.OSThread, Dropped: f.Dropped})
		} else {
			ev.Files = append(ev.Files, f)
		}
		ev.Bytes += f.Bytes
		ev.Records += f.Records
		ev.Dropped += f.Dropped
	}
	// In thread order, as the files' names sort.
	slices.SortFunc(ev.Files, func(a, b profile.EventFile) int { return a.OSThread - b.OSThread })
	slices.SortFunc(ev.Unwritten, func(a, b profile.Unwritten) int { return a.OSThread - b.OSThread })
	return ev
}

// streamKinds names what the stream holds: "trace" (GOPARI_MODE=trace:
// every record), "grains" (GOPARI_GRAINS=1), or both.
func streamKinds(g *C.pomp_rt) []string {
	var kinds []string
	if g.ev_all != 0 {
		kinds = append(kinds, "trace")
	}
	if g.ev_grains != 0 {
		kinds = append(kinds, "grains")
	}
	return kinds
}
