package profile

// Call paths (profile version 4): where in the program's own code the
// time went, recorded when the program was built with gopari cc
// --functions, or sampled (GOPARI_SAMPLE_HZ; Sampling, Samples). One tree of paths is shared by every location; each
// location (Thread) counts the visits and exclusive time of the paths it
// ran. A task's paths hang below the path that created it, whichever
// thread ran it; a worker's implicit task below its master's fork.
//
// A node's inclusive time at a location is the sum of the exclusive
// times of its subtree there: recursion makes a node per depth, so
// nothing is counted twice, and a node's inclusive time at a location
// never exceeds the time that location ran.

// CallPaths is the call-path profile of a run.
type CallPaths struct {
	// Nodes are the paths; a node's index is its ID. Node 0 is the root:
	// a thread's initial task, above everything else.
	Nodes []CallNode `json:"nodes"`
	// Threads counts, per location that ran any path, each path's visits
	// and exclusive time.
	Threads []CallThread `json:"threads"`
	// MaxNodes is the node limit in force (GOPARI_CALLPATH_NODES).
	MaxNodes int `json:"max_nodes"`
	// OverflowVisits counts the visits of paths that found the tree
	// full; they, and everything below them, were charged to the one
	// node of kind "overflow", a child of the root.
	OverflowVisits uint64 `json:"overflow_visits"`
	// LostCreations counts the tasks whose creating path the runtime no
	// longer knew when they began; their paths hang below the root.
	LostCreations uint64 `json:"lost_creations"`
	// UnmatchedCalls counts function exits that matched no open call of
	// that function in the task (an untied task that moved, a longjmp).
	UnmatchedCalls uint64 `json:"unmatched_calls"`
	// CallCostNs is what one measured call (its enter and its exit)
	// cost the run, in ns, as the runtime measured it; 0 when it did not
	// (readers then estimate it: gopari filter says how).
	CallCostNs float64 `json:"call_cost_ns,omitempty"`
	// Sampling says how the run sampled its threads (GOPARI_SAMPLE_HZ),
	// nil if it did not: each location's Samples then count, per path,
	// the samples taken there.
	Sampling *Sampling `json:"sampling,omitempty"`
	// PrunedNodes counts the paths a sampled run left out of Nodes: a
	// run that measured no function (no --functions) keeps only the
	// paths that hold samples and their ancestors.
	PrunedNodes int `json:"pruned_nodes,omitempty"`
}

// Sampling is how a run sampled its call paths. A sample is taken every
// PeriodNs of its thread's CPU time (Clock "cpu") or of wall time
// ("wall"), and stands for the time its thread's clock advanced since
// the thread's previous sample (measured, so that a late or lost signal
// costs no time). Samples hang below the path gopari knew when they were taken
// (a construct, a task below its creating path, an instrumented call),
// with the functions of the unwound stack that ran inside it; a node of
// kind "idle", a child of the root, holds the samples of threads in no
// task (an OpenMP worker between teams), and a root's region node of
// phase "barrier" those taken in a parallel region's closing barrier.
type Sampling struct {
	Hz       int    `json:"hz"`
	Clock    string `json:"clock"` // "cpu" or "wall"
	PeriodNs uint64 `json:"period_ns"`
	// Samples counts the samples taken (a timer's overruns count too);
	// Dropped those lost because a thread's buffer was full, or because
	// another thread unwound its stack for 10 ms (the runtime unwinds
	// one stack at a time: pomprt/sample.c), Truncated
	// those whose stack was deeper than the runtime keeps (their
	// outermost frames are missing).
	Samples uint64 `json:"samples"`
	// Ns is the time the samples stand for, summed over threads.
	Ns uint64 `json:"ns"`
	// Signals counts the signals handled: the kernel fires CPU-time
	// timers at its tick (CONFIG_HZ), so above that rate a signal stands
	// for several samples. HandlerNs is the time of the timer's clock
	// (the thread's CPU time, or wall time) spent in the handler
	// (unwinding included) and FoldNs the CPU time of the thread that
	// folds the samples: what sampling cost the run, beside the kernel's
	// delivery of the signals.
	Signals   uint64 `json:"signals"`
	HandlerNs uint64 `json:"handler_ns"`
	FoldNs    uint64 `json:"fold_ns"`
	Dropped   uint64 `json:"dropped,omitempty"`
	// TraceLost counts the samples a traced run took but could not keep
	// for its trace (events/samples.bin holds the others).
	TraceLost uint64 `json:"trace_lost,omitempty"`
	Truncated uint64 `json:"truncated,omitempty"`
	// UnwindTables counts the code segments whose unwind tables the
	// runtime handed to libunwind at start-up (the executable's and those
	// of the libraries it needs), so that the handler finds them without
	// the loader's list and its signal masking.
	UnwindTables int `json:"unwind_tables,omitempty"`
}

// A CallNode is one call path: its parent's path and one more frame.
type CallNode struct {
	Parent int    `json:"parent"` // -1 for the root
	Kind   string `json:"kind"`   // "root", "function", "region", "overflow" or "idle"
	// Addr is a function's entry address in the run's address space, as
	// the compiler's instrumentation passed it; Mappings resolve it.
	Addr uint64 `json:"addr,omitempty"`
	// Region and Frame name a region node: the region's ID and what ran
	// there: "task" (an explicit task's execution), "taskloop" (a
	// taskloop task's), "implicit" (a parallel region's implicit task),
	// "fork" (a parallel region on the thread that forked it) or "phase"
	// (a region's Phase: construct, body, barrier or wait).
	Region int    `json:"region,omitempty"`
	Frame  string `json:"frame,omitempty"`
	Phase  string `json:"phase,omitempty"`
}

// CallThread is what one location ran of the call paths.
type CallThread struct {
	Thread int `json:"thread"` // index into Profile.Threads
	// Nodes holds one [node ID, visits, exclusive ns] per path this
	// location ran, by node ID.
	Nodes [][3]uint64 `json:"nodes"`
	// Samples holds one [node ID, samples, CPU ns] per path this
	// location was sampled in (GOPARI_SAMPLE_HZ), by node ID; CPU ns is
	// the thread's CPU time (wall time with GOPARI_SAMPLE_CLOCK=wall)
	// that the samples stand for (Sampling).
	Samples [][3]uint64 `json:"samples,omitempty"`
}

// A Mapping is a file mapped into the run's address space, as
// /proc/self/maps showed it at the end of the run: addresses in
// [Start, Limit) are at Offset of File. BuildID is the file's GNU build
// ID (hex), so that a reader can tell a rebuilt file from the one that
// ran.
type Mapping struct {
	Start   uint64 `json:"start"`
	Limit   uint64 `json:"limit"`
	Offset  uint64 `json:"offset"`
	File    string `json:"file"`
	BuildID string `json:"build_id,omitempty"`
}

// DropLeaves returns nodes without the leaves that drop selects, the
// others' parents renumbered, and per node of nodes its ID in the result
// (-1 for a dropped one). The runtime drops its cost probe's node so
// (pomprt/callcost.c). A node with children is never dropped. The result
// reuses nodes' array (a parent comes before its children), which the
// runtime's exit fills once with the collector off.
func DropLeaves(nodes []CallNode, drop func(CallNode) bool) ([]CallNode, []int) {
	parent := make([]bool, len(nodes))
	for _, n := range nodes {
		if n.Parent >= 0 && n.Parent < len(nodes) {
			parent[n.Parent] = true
		}
	}
	ids := make([]int, len(nodes))
	out := nodes[:0]
	for i, n := range nodes {
		if !parent[i] && drop(n) {
			ids[i] = -1
			continue
		}
		if n.Parent >= 0 && n.Parent < len(nodes) {
			n.Parent = ids[n.Parent]
		}
		ids[i] = len(out)
		out = append(out, n)
	}
	return out, ids
}
