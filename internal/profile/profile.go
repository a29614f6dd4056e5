// Package profile defines the profile that libpomp writes at exit and
// gopari report reads: versioned JSON, one file per run.
//
// Counts (visits, tasks created and executed, suspensions, creation-tree
// edges) are always exact. Times are in nanoseconds. They are exact for
// everything except the instances of short task regions: after a location
// has created 1,000 instances of a task region, the runtime measures one
// in 64 of the further ones (TaskSampling; and all of them while the measured ones
// average 10 µs or more), because reading the clock costs as much as a
// tiny task. A Phase says how many of its visits were timed, a Dist how
// many instances it summarizes, and both which of those were samples:
// the estimates (ExclEstimateNs, TotalNs) scale only the samples to the
// instances left unmeasured. GOPARI_SAMPLING=off measures everything;
// in trace mode the event stream times every event, the profile samples.
package profile

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
)

// Format and Version identify the file. Readers refuse other formats and
// newer versions.
//
// Version 3 counts in a parallel region's closing barrier (its Barrier
// phase) the tasks a thread ran there in its inclusive time, and gives
// initial threads their initial task's own time (Thread.InitialNs);
// version 2's closing barrier held the wait alone, which a reader of
// both takes as a barrier in which no task ran. Version 4 adds call paths
// and the run's mappings (callpath.go); a version 3 profile has none.
const (
	Format  = "gopari-profile"
	Version = 4
)

// A Profile is everything one run recorded.
type Profile struct {
	Format  string   `json:"format"`
	Version int      `json:"version"`
	Program string   `json:"program"`
	Args    []string `json:"args,omitempty"`
	PID     int      `json:"pid"`
	// ForkedFrom is the PID of the process this one was forked from
	// without exec; 0 for a process started by exec (the usual case).
	ForkedFrom int `json:"forked_from,omitempty"`
	// MPI says which rank of which MPI job the process was; nil outside
	// an MPI job.
	MPI    *MPIRank `json:"mpi,omitempty"`
	Mode   string   `json:"mode"`
	Clock  Clock    `json:"clock"`
	WallNs uint64   `json:"wall_ns"`
	// Exit says how the profile came to be written: "exit" for a normal
	// exit or exit(), "MPI_Abort" for a rank that called MPI_Abort (the
	// profile is written before the abort goes on), or the name of the
	// signal that ended the run (SIGINT, SIGTERM, SIGHUP, SIGPIPE;
	// SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL for a crash). Whatever
	// ended it, an MPI call still blocked then counts its visit and its
	// time up to the end.
	Exit string `json:"exit"`
	// TaskSampling says how the instances of short task regions were
	// sampled (Every 1: all timed). A profile of a gopari before
	// 2026-11-28 has none: read it as OldTaskSampling.
	TaskSampling *TaskSampling `json:"task_sampling,omitempty"`

	Regions []Region `json:"regions"`
	// Threads are locations in the team tree: one per place, such as 0.1.1
	// (thread 1 of the team forked by thread 0.1). Several may have run on
	// one OS thread.
	Threads   []Thread    `json:"threads"`
	OSThreads int         `json:"os_threads"`
	Stats     []Stat      `json:"stats"`
	Tasks     []TaskStats `json:"tasks"`
	Tree      Tree        `json:"creation_tree"`
	// Events is the event stream's description; nil without one.
	Events *Events `json:"events,omitempty"`
	// UnmatchedEvents counts end events without their begin on the same
	// thread (cancellation, exit from inside a region, migrated untied
	// tasks); their time is not attributed.
	UnmatchedEvents uint64 `json:"unmatched_events"`
	// CallPaths is the call-path profile of a program built with gopari
	// cc --functions (version 4); nil otherwise.
	CallPaths *CallPaths `json:"call_paths,omitempty"`
	// Mappings are the files mapped into the run's address space, which
	// resolve the addresses of CallPaths; nil without call paths.
	Mappings []Mapping `json:"mappings,omitempty"`
}

// An MPIRank is a process's place in an MPI job, as the launcher's
// environment describes it.
type MPIRank struct {
	Rank     int    `json:"rank"`
	Size     int    `json:"size"` // 0 if the launcher does not say
	Job      string `json:"job"`  // the key every rank of the job shares, e.g. ompi-135004161
	Launcher string `json:"launcher"`
}

// TaskSampling is how the runtime sampled the instances of short task
// regions, whose times are estimates (Phase, Dist).
type TaskSampling struct {
	// Exact instances of a task region are timed at each place in the
	// team tree before sampling starts there.
	Exact int `json:"exact"`
	// Every is the stride after them: one instance in Every is timed
	// (unless the region's timed instances are long, when all are).
	Every int `json:"every"`
}

// OldTaskSampling is how gopari sampled before profiles said so.
var OldTaskSampling = TaskSampling{Exact: 1000, Every: 32}

// TaskSamplingRule returns how p's short task instances were sampled.
func (p *Profile) TaskSamplingRule() TaskSampling {
	if p.TaskSampling == nil {
		return OldTaskSampling
	}
	return *p.TaskSampling
}

// Clock is the runtime's clock: its name ("tsc" or "monotonic") and how
// its ticks convert to time: ns since start = (ticks - Tick0) * NsPerTick;
// at Tick0 the monotonic clock read Ns0 and the real-time clock
// Realtime0Ns. A version 1 profile names the clock only.
type Clock struct {
	Name        string  `json:"name"`
	NsPerTick   float64 `json:"ns_per_tick,omitempty"`
	Tick0       uint64  `json:"tick0,omitempty"`
	Ns0         uint64  `json:"ns0,omitempty"`
	Realtime0Ns uint64  `json:"realtime0_ns,omitempty"`
}

// UnmarshalJSON reads the object, or a version 1 profile's clock name.
func (c *Clock) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		return json.Unmarshal(b, &c.Name)
	}
	type plain Clock
	return json.Unmarshal(b, (*plain)(c))
}

// Events describes the run's event stream (docs/events.md), when it was
// recorded (GOPARI_MODE=trace): its files below Dir, one per OS thread,
// with their records (TIME and LOC included) and bytes (headers
// included), and the records dropped (GOPARI_TRACE_MAX_BYTES, a full
// disk). Complete is false when a thread was still recording when the
// profile was written (a signal, exit() while other threads ran).
// Stopped says why and when the stream stopped before the end of the run
// (a write failed: a full disk, a file size limit); the records after
// that point were counted as dropped, not kept. Unwritten lists the OS
// threads that recorded events of which none reached the disk (the
// stream stopped before their first block): they have no file, and
// Dropped counts their records too.
type Events struct {
	Version  int         `json:"version"`
	Dir      string      `json:"dir"`
	Kinds    []string    `json:"kinds"`
	Files    []EventFile `json:"files"`
	Bytes    int64       `json:"bytes"`
	Records  int64       `json:"records"`
	Dropped  int64       `json:"dropped"`
	Complete bool        `json:"complete"`
	Stopped  string      `json:"stopped,omitempty"`
	// Unwritten: one per OS thread without a file whose records were
	// all dropped.
	Unwritten []Unwritten `json:"unwritten,omitempty"`
}

// An Unwritten is an OS thread none of whose records reached the disk.
type Unwritten struct {
	OSThread int   `json:"os_thread"`
	Dropped  int64 `json:"dropped"`
}

// Has reports whether the stream was recorded for kind ("trace",
// "grains").
func (e *Events) Has(kind string) bool {
	return slices.Contains(e.Kinds, kind)
}

// An EventFile is one OS thread's stream file.
type EventFile struct {
	Name     string `json:"name"`
	OSThread int    `json:"os_thread"`
	Bytes    int64  `json:"bytes"`
	Records  int64  `json:"records"`
	Dropped  int64  `json:"dropped"`
}

// A Region is one instrumented construct.
type Region struct {
	ID        int      `json:"id"`
	Kind      string   `json:"kind"` // parallel, for, task, critical, ..., mpi
	Name      string   `json:"name"` // the directive as written, e.g. "parallel for"
	File      string   `json:"file"`
	BeginLine int      `json:"begin_line"`
	EndLine   int      `json:"end_line"`
	SubName   string   `json:"sub_name,omitempty"` // critical name, user region or lock routine
	Clauses   string   `json:"clauses,omitempty"`
	Flags     []string `json:"flags,omitempty"`
}

// A Thread is a location in the team tree.
//
// InitialNs is, for an initial thread (Level 0), the time its initial
// task ran its own code: outside every region, the program's serial code
// (and what it does before the first and after the last region).
type Thread struct {
	Index         int    `json:"index"`
	Path          string `json:"path"`
	Level         int    `json:"level"`
	OSThread      int    `json:"os_thread"`
	ImplicitTasks uint64 `json:"implicit_tasks"`
	InitialNs     uint64 `json:"initial_ns,omitempty"`
}

// A Phase is the time spent in one part of a region at one location.
//
// InclNs is the time during which at least one visit was open there: a
// visit nested in another visit of the same region (recursion) is not
// counted again, as in a call-path profile, so it never exceeds the wall
// time. It is exact even when visits are sampled: the outermost visit is
// always timed. ExclNs is the time the timed visits spent in the phase
// itself, without nested regions and without tasks that ran meanwhile; it
// covers Timed of the Visits. For the instances of a task region (its
// Construct phase; a taskloop's Body), InclNs is their execution time,
// and like ExclNs covers the timed visits only.
//
// A timed visit is either certain (all visits of its kind were timed: the
// first 1,000 of a region at a location, or all while they were long) or
// a sample, which stands for the visits it was picked from, itself
// included: TimedSampled of the timed visits were samples, with
// InclSampledNs and ExclSampledNs of the times. The visits not timed are
// those the samples stand for.
type Phase struct {
	Visits        uint64 `json:"visits"`
	Timed         uint64 `json:"timed"`
	InclNs        uint64 `json:"incl_ns"`
	ExclNs        uint64 `json:"excl_ns"`
	TimedSampled  uint64 `json:"timed_sampled,omitempty"`
	InclSampledNs uint64 `json:"incl_sampled_ns,omitempty"`
	ExclSampledNs uint64 `json:"excl_sampled_ns,omitempty"`

	fit fit // set by Read: see Profile.fitSamples
}

// Sampled reports whether only some visits were timed.
func (p *Phase) Sampled() bool { return p != nil && p.Timed < p.Visits }

// A Stat is what one thread (location) spent in one region.
//
//   - Construct: the whole construct as its thread saw it, enter to exit;
//     for a task or taskloop task, its instances (exclusive time: its
//     execution without nested regions); for a parallel region, fork to
//     join on the encountering thread, whose exclusive time is the
//     master's fork and join work.
//   - Body: the part executed (single, master, critical, section bodies);
//     for a parallel region, each implicit task until it ends its body;
//     for a taskloop, the tasks it generates (its Construct is the
//     taskloop on the encountering thread).
//   - Barrier: the implicit barrier of a worksharing construct; for a
//     parallel region, the closing barrier, from the end of this
//     thread's body until the team joined. As any barrier's, its
//     inclusive time holds the tasks the thread ran there and its
//     exclusive time is the wait alone. The tasks are the implicit
//     task's work (OpenMP's implicit barrier is part of the implicit
//     task): ImplicitTask gives it, its Suspensions count them.
//   - Wait: the end of a taskgroup.
type Stat struct {
	Region    int    `json:"region"`
	Thread    int    `json:"thread"`
	Construct *Phase `json:"construct,omitempty"`
	Body      *Phase `json:"body,omitempty"`
	Barrier   *Phase `json:"barrier,omitempty"`
	Wait      *Phase `json:"wait,omitempty"`
	// Tasks of this region created and executed here; suspensions of
	// its tasks (or of the implicit tasks of a parallel region) here.
	TasksCreated  uint64 `json:"tasks_created,omitempty"`
	TasksExecuted uint64 `json:"tasks_executed,omitempty"`
	Suspensions   uint64 `json:"suspensions,omitempty"`
	LockAcquired  uint64 `json:"lock_acquired,omitempty"`
	LockWaitNs    uint64 `json:"lock_wait_ns,omitempty"`
	// MPI calls (region kind "mpi"): messages sent or received and their
	// bytes, as the call's name says (see the README's hybrid section).
	Messages uint64 `json:"messages,omitempty"`
	Bytes    uint64 `json:"bytes,omitempty"`
}

// A Dist summarizes durations. Timed counts the instances measured; when
// it is below the number of instances (sampling), SumNs, MinNs and MaxNs
// cover only those. Sampled of them were samples (see Phase), with
// SampledSumNs of SumNs.
type Dist struct {
	Timed        uint64 `json:"timed"`
	SumNs        uint64 `json:"sum_ns"`
	MinNs        uint64 `json:"min_ns"`
	MaxNs        uint64 `json:"max_ns"`
	Sampled      uint64 `json:"sampled,omitempty"`
	SampledSumNs uint64 `json:"sampled_sum_ns,omitempty"`
}

// Merge adds n measurements with the given sum, minimum and maximum.
func (d *Dist) Merge(n, sum, min, max uint64) {
	if n == 0 {
		return
	}
	if d.Timed == 0 || min < d.MinNs {
		d.MinNs = min
	}
	if max > d.MaxNs {
		d.MaxNs = max
	}
	d.Timed += n
	d.SumNs += sum
}

// MergeSampled adds n samples with the given sum, which Merge counted.
func (d *Dist) MergeSampled(n, sum uint64) {
	d.Sampled += n
	d.SampledSumNs += sum
}

// MeanNs returns the mean duration of the timed instances.
func (d Dist) MeanNs() float64 {
	if d.Timed == 0 {
		return 0
	}
	return float64(d.SumNs) / float64(d.Timed)
}

// TaskStats describes the instances of one task or taskloop region, over
// all threads. A taskloop's instances are the tasks it generates, counted
// where they run.
//
// Creation time runs from Task_create_begin until the task is queued, or,
// for an undeferred task (if(0), final, included, or run at once by a
// throttling runtime), until it begins to execute: it never contains the
// task's execution. Execution time excludes the time the task was
// suspended for other tasks. Suspensions counts the times an instance was
// suspended for another task, or continued on another thread (untied).
// MaxDepth is the deepest creation depth of an instance: 1 for a task
// created by an implicit or initial task.
type TaskStats struct {
	Region      int    `json:"region"`
	Created     uint64 `json:"created"`
	Executed    uint64 `json:"executed"`
	Undeferred  uint64 `json:"undeferred"`
	Suspensions uint64 `json:"suspensions"`
	Create      Dist   `json:"create"`
	Exec        Dist   `json:"exec"`
	MaxDepth    int    `json:"max_depth"`
	// Iterations run by a taskloop's tasks.
	Iterations uint64 `json:"iterations,omitempty"`

	execNs float64 // set by Read: the execution time of all instances, see Profile.fitSamples
}

// Tree is the task creation tree, aggregated by region.
type Tree struct {
	// Edges count child tasks of region Child created by tasks of region
	// Parent (a task, taskloop or parallel region, whose implicit tasks
	// create tasks); Parent 0 is an initial task. Every pair is listed
	// with its exact count.
	Edges    []Edge `json:"edges"`
	MaxDepth int    `json:"max_depth"`
}

// An Edge of the creation tree.
type Edge struct {
	Parent int    `json:"parent"`
	Child  int    `json:"child"`
	Count  uint64 `json:"count"`
}

// Read loads and checks a profile file.
func Read(path string) (*Profile, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var p Profile
	if err := json.Unmarshal(b, &p); err != nil {
		return nil, fmt.Errorf("%s: not a gopari profile: %v", path, err)
	}
	if p.Format != Format {
		return nil, fmt.Errorf("%s: not a gopari profile (format %q)", path, p.Format)
	}
	if p.Version > Version {
		return nil, fmt.Errorf("%s: profile version %d is newer than this gopari reads (%d)", path, p.Version, Version)
	}
	if p.Version < 2 {
		p.upgrade()
	}
	p.fitSamples()
	return &p, nil
}

// Region returns the region with the given id, or nil.
func (p *Profile) Region(id int) *Region {
	if id >= 1 && id <= len(p.Regions) && p.Regions[id-1].ID == id {
		return &p.Regions[id-1]
	}
	for i := range p.Regions {
		if p.Regions[i].ID == id {
			return &p.Regions[i]
		}
	}
	return nil
}

// upgrade brings a version 1 profile to this version's meaning: version 1
// timed every visit, and had no closing-barrier phase.
func (p *Profile) upgrade() {
	for i := range p.Stats {
		for _, ph := range []*Phase{p.Stats[i].Construct, p.Stats[i].Body, p.Stats[i].Barrier, p.Stats[i].Wait} {
			if ph != nil && ph.Timed == 0 {
				ph.Timed = ph.Visits
			}
		}
	}
}
