// Package evtest makes experiment directories with event streams of known
// content, as libpomp would write them, for the tests and benchmarks of
// the stream's readers.
package evtest

import (
	"bufio"
	"cmp"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gopari/internal/events"
	"gopari/internal/experiment"
	"gopari/internal/profile"
)

// A Sim is an experiment being made: regions, team-tree locations and OS
// threads that each write a stream.
type Sim struct {
	Dir       string
	NsPerTick float64
	Tick0     uint64
	BlockSize int
	Kinds     []string
	// Incomplete marks the stream as written while threads recorded.
	Incomplete bool
	// Killed makes the run one killed before it wrote its profile: Close
	// leaves events/stream.json (and the space held back for the
	// profile) instead of profile.json (see Kill).
	Killed bool
	// CreateTicks is how long a task creation takes in scenarios.
	CreateTicks uint64
	// Version is the stream's format version, events.Version if 0 (the
	// streams of older runtimes).
	Version      int
	regions      []profile.Region
	locs         []profile.Thread
	threads      []*Thread
	err          error
	rootChildren int
	// Extra is merged into profile.json's top level (tests of the
	// profile's fields, or of damage).
	Extra map[string]any
	// unwritten: OS threads that wrote no file, with their records
	// dropped (Unwritten).
	unwritten []profile.Unwritten
}

// New starts an experiment in dir, which must not exist.
func New(dir string) (*Sim, error) {
	if err := os.MkdirAll(filepath.Join(dir, experiment.EventsDir), 0o755); err != nil {
		return nil, err
	}
	return &Sim{Dir: dir, NsPerTick: 1, Tick0: 1000, BlockSize: 1 << 16, Kinds: []string{"trace"}}, nil
}

// Region registers a region and returns its id.
func (s *Sim) Region(kind, file string, line int) uint32 {
	id := len(s.regions) + 1
	s.regions = append(s.regions, profile.Region{ID: id, Kind: kind, Name: kind, File: file, BeginLine: line, EndLine: line + 2})
	return uint32(id)
}

// Clauses gives region id its clauses, as written.
func (s *Sim) Clauses(id uint32, clauses string) { s.regions[id-1].Clauses = clauses }

// Name gives region id a name other than its kind's (masked, of kind
// master; MPI_Send, of kind mpi).
func (s *Sim) Name(id uint32, name string) { s.regions[id-1].Name = name }

// Flag adds flags to region id ("combined", "untied", ...).
func (s *Sim) Flag(id uint32, flags ...string) {
	s.regions[id-1].Flags = append(s.regions[id-1].Flags, flags...)
}

// Loc returns the index of the team-tree location with path, adding it.
func (s *Sim) Loc(path string, os int) uint64 {
	for i, l := range s.locs {
		if l.Path == path {
			return uint64(i)
		}
	}
	s.locs = append(s.locs, profile.Thread{Index: len(s.locs), Path: path, Level: strings.Count(path, "."), OSThread: os})
	return uint64(len(s.locs) - 1)
}

// A Thread is an OS thread writing its stream. T is its clock, in ticks;
// every record advances it by Step.
type Thread struct {
	OS   int
	T    uint64
	Step uint64
	w    *events.Writer
	f    *os.File
	bw   *bufio.Writer
	next uint64
	s    *Sim
	// cur is the task the scenario runs on this thread.
	cur      uint64
	implicit bool
	// dropped: what its DROPPED records say, and the records it lost
	// after its last block (Lost).
	dropped, lost int64
}

// Thread starts the next OS thread's stream.
func (s *Sim) Thread() *Thread {
	idx := len(s.threads)
	f, err := os.Create(filepath.Join(s.Dir, experiment.EventsDir, experiment.ThreadFile(idx)))
	if err != nil {
		s.err = err
		return nil
	}
	bw := bufio.NewWriterSize(f, 1<<16)
	w, err := events.NewWriter(bw, events.Header{Version: s.Version, OSThread: uint32(idx), PID: 4242, Tick0: s.Tick0}, s.BlockSize)
	if err != nil {
		s.err = err
	}
	t := &Thread{OS: idx, T: s.Tick0, Step: 10, w: w, f: f, bw: bw, next: uint64(idx)<<32 | 1, s: s}
	s.threads = append(s.threads, t)
	return t
}

// NewID returns a fresh task ID of this thread, as POMP_New_task_id.
func (t *Thread) NewID() uint64 { t.next++; return t.next - 1 }

// Put writes a record at the thread's clock and advances it.
func (t *Thread) Put(typ events.Type, region uint32, args ...uint64) {
	if typ == events.Dropped && len(args) > 0 {
		t.dropped += int64(args[0])
	}
	t.w.Put(typ, region, t.T, args...)
	t.T += t.Step
}

// Lost counts n records as dropped after the thread's last block, as
// when the stream stopped (a failed write): profile.json counts them in
// the file's dropped, no DROPPED record says them.
func (t *Thread) Lost(n int64) { t.lost += n }

// Unwritten counts n records of OS thread os, which wrote no file (the
// stream stopped before its first block), in profile.json's
// events.unwritten.
func (s *Sim) Unwritten(os int, n int64) {
	s.unwritten = append(s.unwritten, profile.Unwritten{OSThread: os, Dropped: n})
}

// Wait advances the thread's clock by d ticks.
func (t *Thread) Wait(d uint64) { t.T += d }

// Records returns the records written so far, TIME and LOC included.
func (t *Thread) Records() int64 { return t.w.Records() }

// Records returns the records of every stream so far.
func (s *Sim) Records() int64 {
	var n int64
	for _, t := range s.threads {
		n += t.w.Records()
	}
	return n
}

// Close writes profile.json and closes every stream.
func (s *Sim) Close() error {
	var files []events.FileInfo
	var bytes, records, dropped int64
	for _, t := range s.threads {
		if err := t.w.Close(); err != nil && s.err == nil {
			s.err = err
		}
		if err := t.bw.Flush(); err != nil && s.err == nil {
			s.err = err
		}
		if err := t.f.Close(); err != nil && s.err == nil {
			s.err = err
		}
		files = append(files, events.FileInfo{Name: filepath.Base(t.f.Name()), OSThread: t.OS, Bytes: t.w.Bytes(), Records: t.w.Records(),
			Dropped: t.dropped + t.lost})
		bytes += t.w.Bytes()
		records += t.w.Records()
		dropped += t.dropped + t.lost
	}
	for _, u := range s.unwritten {
		dropped += u.Dropped
	}
	if s.err != nil {
		return s.err
	}
	p := map[string]any{
		"format":  profile.Format,
		"version": profile.Version,
		"program": "./synthetic",
		"pid":     4242,
		"mode":    "trace",
		"exit":    "exit",
		"clock":   map[string]any{"name": "tsc", "ns_per_tick": s.NsPerTick, "tick0": s.Tick0, "ns0": 0, "realtime0_ns": uint64(Realtime0Ns)},
		"events": events.Meta{Version: cmp.Or(s.Version, events.Version), Dir: experiment.EventsDir, Kinds: s.Kinds, Files: files,
			Bytes: bytes, Records: records, Dropped: dropped, Complete: !s.Incomplete, Unwritten: s.unwritten},
		"regions":    s.regions,
		"threads":    s.locs,
		"os_threads": len(s.threads),
	}
	for k, v := range s.Extra {
		p[k] = v
	}
	b, err := json.MarshalIndent(p, "", " ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(experiment.Profile(s.Dir), b, 0o644); err != nil {
		return err
	}
	if s.Killed {
		return Kill(s.Dir)
	}
	return nil
}

// Kill makes the finished experiment in dir what a run killed by SIGKILL
// leaves: its stream, a stream.json describing it, the space held back
// for the profile, and no profile.json.
func Kill(dir string) error {
	p, err := profile.Read(experiment.Profile(dir))
	if err != nil {
		return err
	}
	ri := events.RunInfo{Format: events.RunInfoFormat, Version: events.RunInfoVersion, StreamVersion: events.Version,
		Program: p.Program, Args: p.Args, PID: p.PID, Clock: p.Clock, Regions: p.Regions, Threads: p.Threads}
	if p.Events != nil {
		ri.Kinds = p.Events.Kinds
	}
	b, err := json.MarshalIndent(ri, "", " ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(experiment.Stream(dir), b, 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, experiment.EventsDir, experiment.ReserveFile), make([]byte, 4096), 0o600); err != nil {
		return err
	}
	return os.Remove(experiment.Profile(dir))
}

// Itoa is strconv.Itoa, for scenario code.
func Itoa(i int) string { return strconv.Itoa(i) }
