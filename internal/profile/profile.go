// Package profile defines the profile that libpomp writes at exit and
// gopari report reads: versioned JSON, one file per run.
package profile

import (
	"encoding/json"
	"fmt"
	"os"
)

// Format and Version identify the file. Readers refuse other formats and
// newer versions.
const (
	Format  = "gopari-profile"
	Version = 1
)

// A Profile is everything one run recorded.
type Profile struct {
	Format  string   `json:"format"`
	Version int      `json:"version"`
	Program string   `json:"program"`
	Args    []string `json:"args,omitempty"`
	PID     int      `json:"pid"`
	Mode    string   `json:"mode"`
	Clock   string   `json:"clock"` // tsc or monotonic
	WallNs  uint64   `json:"wall_ns"`
	// Exit says how the profile came to be written: "exit" for a normal
	// exit or exit(), or the name of a signal.
	Exit string `json:"exit"`

	Regions []Region `json:"regions"`
	// Threads are locations in the team tree: one per place, such as 0.1.1
	// (thread 1 of the team forked by thread 0.1). Several may have run on
	// one OS thread.
	Threads   []Thread    `json:"threads"`
	OSThreads int         `json:"os_threads"`
	Stats     []Stat      `json:"stats"`
	Tasks     []TaskStats `json:"tasks"`
	Tree      Tree        `json:"creation_tree"`
	// UnmatchedEvents counts end events without their begin on the same
	// thread (cancellation, exit from inside a region, migrated untied
	// tasks); their time is not attributed.
	UnmatchedEvents uint64 `json:"unmatched_events"`
}

// A Region is one instrumented construct.
type Region struct {
	ID        int      `json:"id"`
	Kind      string   `json:"kind"` // parallel, for, task, critical, ...
	Name      string   `json:"name"` // the directive as written, e.g. "parallel for"
	File      string   `json:"file"`
	BeginLine int      `json:"begin_line"`
	EndLine   int      `json:"end_line"`
	SubName   string   `json:"sub_name,omitempty"` // critical name, user region or lock routine
	Clauses   string   `json:"clauses,omitempty"`
	Flags     []string `json:"flags,omitempty"`
}

// A Thread is a location in the team tree.
type Thread struct {
	Index         int    `json:"index"`
	Path          string `json:"path"`
	Level         int    `json:"level"`
	OSThread      int    `json:"os_thread"`
	ImplicitTasks uint64 `json:"implicit_tasks"`
}

// A Phase is the time spent in one part of a region.
type Phase struct {
	Visits uint64 `json:"visits"`
	InclNs uint64 `json:"incl_ns"`
	ExclNs uint64 `json:"excl_ns"`
}

// A Stat is what one thread (location) spent in one region. Construct is
// the whole construct as its thread saw it (enter to exit; for a task, its
// execution; for a parallel region, fork to join); Body the part
// executed (single, master, critical, section bodies and each implicit
// task of a parallel region); Barrier the implicit barrier of a
// worksharing construct; Wait the end of a taskgroup.
type Stat struct {
	Region        int    `json:"region"`
	Thread        int    `json:"thread"`
	Construct     *Phase `json:"construct,omitempty"`
	Body          *Phase `json:"body,omitempty"`
	Barrier       *Phase `json:"barrier,omitempty"`
	Wait          *Phase `json:"wait,omitempty"`
	TasksCreated  uint64 `json:"tasks_created,omitempty"`
	TasksExecuted uint64 `json:"tasks_executed,omitempty"`
	Suspensions   uint64 `json:"suspensions,omitempty"`
	LockAcquired  uint64 `json:"lock_acquired,omitempty"`
	LockWaitNs    uint64 `json:"lock_wait_ns,omitempty"`
}

// A Dist summarizes durations. Timed counts the instances measured; when
// it is below the number of instances, SumNs covers only those.
type Dist struct {
	Timed uint64 `json:"timed"`
	SumNs uint64 `json:"sum_ns"`
	MinNs uint64 `json:"min_ns"`
	MaxNs uint64 `json:"max_ns"`
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

// MeanNs returns the mean duration.
func (d Dist) MeanNs() float64 {
	if d.Timed == 0 {
		return 0
	}
	return float64(d.SumNs) / float64(d.Timed)
}

// TaskStats describes the instances of one task region, over all
// threads. Creation time runs from Task_create_begin to Task_create_end
// (for an undeferred task it includes its execution); execution time
// excludes the time the task was suspended.
type TaskStats struct {
	Region      int    `json:"region"`
	Created     uint64 `json:"created"`
	Executed    uint64 `json:"executed"`
	Undeferred  uint64 `json:"undeferred"`
	Suspensions uint64 `json:"suspensions"`
	Create      Dist   `json:"create"`
	Exec        Dist   `json:"exec"`
	MaxDepth    int    `json:"max_depth"`
}

// CreateTotalNs estimates the total creation time from the timed
// creations.
func (t TaskStats) CreateTotalNs() float64 { return t.Create.MeanNs() * float64(t.Created) }

// Tree is the task creation tree, aggregated by region.
type Tree struct {
	// Edges count child tasks of region Child created by tasks of region
	// Parent; Parent 0 is the initial task (or an implicit task outside
	// any instrumented parallel region), -1 stands for parents not
	// individually counted.
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
