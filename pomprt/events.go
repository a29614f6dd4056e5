package main

/*
#include "rt.h"
*/
import "C"

import (
	"fmt"
	"os"
	"slices"
	"sync"
	"syscall"
	"unsafe"

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

// streamMeta describes the event stream that g's threads wrote (after
// pomp_ev_finish), or returns nil when there is none.
func streamMeta(g *C.pomp_rt, ck clock) *profile.Events {
	if g.ev_done == 0 {
		return nil
	}
	ev := &profile.Events{Version: int(C.EV_VERSION), Dir: "events", Kinds: streamKinds(g), Complete: g.ev_complete != 0}
	if g.ev_errno != 0 {
		ev.Stopped = fmt.Sprintf("%.3f s into the run, writing thread-%06d.evt: %v", float64(uint64(g.ev_stop_ts)-uint64(g.tick0))*ck.nsPerTick/1e9,
			int(g.ev_stop_thread), syscall.Errno(g.ev_errno))
	}
	for t := g.threads; t != nil; t = t.next {
		e := &t.ev
		if e.bytes == 0 && e.dropped == 0 {
			continue // it recorded nothing
		}
		f := profile.EventFile{
			Name:     fmt.Sprintf("thread-%06d.evt", int(t.index)),
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
