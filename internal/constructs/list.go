// Package constructs is the one list of the region kinds gopari
// instruments and of the flags of their regions. Every table of another
// language or package that names them is generated from it by
// go generate ./internal/constructs (the generator is ./gen), or built
// from it when its package starts:
//
//   - pomprt/include/pomp.h: the "Region kinds" and "Region flags" enums
//     and the inline event functions made with POMP_PAIR_ and POMP_EVENT_
//     (marked sections of the hand-written header);
//   - pomprt/kinds_gen.go: the JSON names of kinds and flags in
//     profile.json;
//   - internal/otf2/roles_gen.go: the OTF2 region role of each kind;
//   - rewrite/flags_gen.go: the flag bits rewrite sets and their names;
//   - ids_gen.go here: the Go names of the kinds (Parallel, For, ...);
//   - from the list at start: rewrite's calls, --disable groups and lock
//     wrappers, and the parser's lock routines.
//
// docs/design.md, "Adding a construct", says what else must be written
// by hand. Kinds and flags are part of the ABI of instrumented objects:
// append, never reorder or remove (TestABIStable).
package constructs

//go:generate go run ./gen

// ID is a region kind's value in pomp.h: List[ID-1] describes it.
type ID uint16

// Event is the event code a generated inline function of pomp.h passes
// to pomp_rt_enter or pomp_rt_exit.
type Event string

// The event codes of pomp.h. Custom says that pomp.h defines the function
// by hand (out of line, or inline with arguments of its own).
const (
	Custom      Event = ""
	EvConstruct Event = "POMP_EV_CONSTRUCT" // X_enter / X_exit: the whole construct
	EvBody      Event = "POMP_EV_BODY"      // X_begin / X_end: the body
	EvBarrier   Event = "POMP_EV_BARRIER"   // Implicit_barrier_enter / exit
)

// A Call is a function of pomp.h that instrumented code calls.
type Call struct {
	Name  string
	Event Event
}

// A Pair is the calls on either side of something; either may be empty.
type Pair struct {
	Enter, Exit Call
}

// Writer says who writes the regions of a kind into a region table.
type Writer uint8

// The writers of region tables.
const (
	ByRewrite Writer = iota // rewrite/construct.go, for a class of the parser
	ByUser                  // rewrite/user.go: user regions and lock calls
	ByMPI                   // libpomp_mpi.a (pomprt/mpi), for the MPI calls it measures
)

// A Kind is one region kind.
type Kind struct {
	Const  string   // the enum constant of pomp.h, POMP_PARALLEL
	Name   string   // its name in profile.json, reports and traces
	Note   string   // a comment on its line of the enum, or ""
	Group  string   // the --disable group that turns it off, or "" (none)
	Sets   []string // the composite --disable groups that hold Group
	Role   string   // its OTF2 region role (OTF2_REGION_ROLE_...), or "" when internal/otf2 decides per region
	Writer Writer

	// Enter and Exit wrap the directive and its block, Begin and End are
	// inside the block; Cleanup is the handler that calls End when
	// cancellation leaves the block. Save says that the construct holds a
	// task scheduling point: the current task is saved before Enter and
	// restored before Exit.
	Enter, Exit Call
	Begin, End  Call
	Cleanup     string
	Save        bool
	// More are further generated event functions of the kind, which
	// rewrite calls from its own code (place.go, construct.go).
	More []Pair
	// Routines are the OpenMP routines whose calls become calls of
	// wrappers (Wrapper) with a region of this kind.
	Routines []string
}

// A Flag is one bit of a region's flags: bit i is Flags[i].
type Flag struct {
	Const string // POMP_FLAG_NOWAIT
	Name  string // its name in profile.json
	Note  string // what it says, on its line of pomp.h
}

// The composite --disable groups.
const (
	SetOMP         = "omp"
	SetSync        = "sync"
	SetTasks       = "tasks"
	SetWorksharing = "worksharing"
)

// List holds every region kind, in the order of their values: List[i]
// has value i+1. Append only.
var List = []Kind{
	{Const: "POMP_PARALLEL", Name: "parallel", Group: "parallel", Sets: []string{SetOMP}, Role: "PARALLEL",
		Enter: Call{Name: "POMP_Parallel_fork"}, Exit: Call{Name: "POMP_Parallel_join"}, Save: true,
		Begin: Call{Name: "POMP_Parallel_begin"}, End: Call{Name: "POMP_Parallel_end"}, Cleanup: "POMP_Parallel_end_cleanup"},
	{Const: "POMP_FOR", Name: "for", Group: "for", Sets: []string{SetWorksharing, SetOMP}, Role: "LOOP",
		Enter: Call{"POMP_For_enter", EvConstruct}, Exit: Call{"POMP_For_exit", EvConstruct}},
	{Const: "POMP_SECTIONS", Name: "sections", Group: "sections", Sets: []string{SetWorksharing, SetOMP}, Role: "SECTIONS",
		Enter: Call{"POMP_Sections_enter", EvConstruct}, Exit: Call{"POMP_Sections_exit", EvConstruct},
		More: []Pair{SectionBody}},
	{Const: "POMP_SINGLE", Name: "single", Group: "single", Sets: []string{SetWorksharing, SetOMP}, Role: "SINGLE",
		Enter: Call{"POMP_Single_enter", EvConstruct}, Exit: Call{"POMP_Single_exit", EvConstruct},
		Begin: Call{"POMP_Single_begin", EvBody}, End: Call{"POMP_Single_end", EvBody}},
	{Const: "POMP_SCOPE", Name: "scope", Group: "scope", Sets: []string{SetWorksharing, SetOMP}, Role: "WORKSHARE",
		Enter: Call{"POMP_Scope_enter", EvConstruct}, Exit: Call{"POMP_Scope_exit", EvConstruct}},
	{Const: "POMP_MASTER", Name: "master", Note: "master and masked", Group: "master", Sets: []string{SetWorksharing, SetOMP}, Role: "MASTER",
		Begin: Call{"POMP_Master_begin", EvConstruct}, End: Call{"POMP_Master_end", EvConstruct}},
	{Const: "POMP_CRITICAL", Name: "critical", Group: "critical", Sets: []string{SetSync, SetOMP}, Role: "CRITICAL",
		Enter: Call{"POMP_Critical_enter", EvConstruct}, Exit: Call{"POMP_Critical_exit", EvConstruct},
		Begin: Call{"POMP_Critical_begin", EvBody}, End: Call{"POMP_Critical_end", EvBody}},
	{Const: "POMP_ATOMIC", Name: "atomic", Group: "atomic", Sets: []string{SetSync, SetOMP}, Role: "ATOMIC",
		Enter: Call{"POMP_Atomic_enter", EvConstruct}, Exit: Call{"POMP_Atomic_exit", EvConstruct}},
	{Const: "POMP_FLUSH", Name: "flush", Group: "flush", Sets: []string{SetSync, SetOMP}, Role: "FLUSH",
		Enter: Call{"POMP_Flush_enter", EvConstruct}, Exit: Call{"POMP_Flush_exit", EvConstruct}},
	{Const: "POMP_BARRIER", Name: "barrier", Group: "barrier", Sets: []string{SetSync, SetOMP}, Role: "BARRIER",
		Enter: Call{"POMP_Barrier_enter", EvConstruct}, Exit: Call{"POMP_Barrier_exit", EvConstruct}, Save: true,
		More: []Pair{ImplicitBarrier}},
	{Const: "POMP_TASKWAIT", Name: "taskwait", Group: "taskwait", Sets: []string{SetSync, SetTasks, SetOMP}, Role: "TASK_WAIT",
		Enter: Call{"POMP_Taskwait_begin", EvConstruct}, Exit: Call{"POMP_Taskwait_end", EvConstruct}, Save: true},
	{Const: "POMP_TASKYIELD", Name: "taskyield", Group: "taskyield", Sets: []string{SetSync, SetTasks, SetOMP}, Role: "CODE",
		Enter: Call{"POMP_Taskyield_begin", EvConstruct}, Exit: Call{"POMP_Taskyield_end", EvConstruct}, Save: true},
	{Const: "POMP_TASK", Name: "task", Group: "task", Sets: []string{SetTasks, SetOMP}, Role: "TASK",
		Enter: Call{Name: "POMP_Task_create_begin"}, Exit: Call{Name: "POMP_Task_create_end"}, Save: true,
		Begin: Call{Name: "POMP_Task_begin"}, End: Call{Name: "POMP_Task_end"}, Cleanup: "POMP_Task_end_cleanup",
		More: []Pair{{Enter: TaskCreateIter}}},
	{Const: "POMP_TASKGROUP", Name: "taskgroup", Group: "taskgroup", Sets: []string{SetTasks, SetOMP}, Role: "TASK_WAIT",
		Enter: Call{"POMP_Taskgroup_enter", EvConstruct}, Exit: Call{"POMP_Taskgroup_exit", EvConstruct}, Save: true,
		Begin: Call{"POMP_Taskgroup_begin", EvBody}, End: Call{"POMP_Taskgroup_end", EvBody}},
	{Const: "POMP_TASKLOOP", Name: "taskloop", Group: "taskloop", Sets: []string{SetTasks, SetOMP}, Role: "LOOP",
		Enter: Call{Name: "POMP_Taskloop_enter"}, Exit: Call{"POMP_Taskloop_exit", EvConstruct}, Save: true},
	{Const: "POMP_ORDERED", Name: "ordered", Group: "ordered", Sets: []string{SetSync, SetOMP}, Role: "ORDERED",
		Enter: Call{"POMP_Ordered_enter", EvConstruct}, Exit: Call{"POMP_Ordered_exit", EvConstruct},
		Begin: Call{"POMP_Ordered_begin", EvBody}, End: Call{"POMP_Ordered_end", EvBody}},
	{Const: "POMP_SIMD", Name: "simd", Group: "simd", Sets: []string{SetOMP}, Role: "LOOP",
		Enter: Call{"POMP_Simd_enter", EvConstruct}, Exit: Call{"POMP_Simd_exit", EvConstruct}},
	{Const: "POMP_LOOP", Name: "loop", Group: "loop", Sets: []string{SetWorksharing, SetOMP}, Role: "LOOP",
		Enter: Call{"POMP_Loop_enter", EvConstruct}, Exit: Call{"POMP_Loop_exit", EvConstruct}, Save: true},
	{Const: "POMP_CANCEL", Name: "cancel", Group: "cancel", Sets: []string{SetOMP}, Role: "CODE",
		Enter: Call{"POMP_Cancel_enter", EvConstruct}, Exit: Call{"POMP_Cancel_exit", EvConstruct}},
	{Const: "POMP_CANCELLATION_POINT", Name: "cancellation point", Group: "cancel", Sets: []string{SetOMP}, Role: "CODE",
		Enter: Call{"POMP_Cancellation_point_enter", EvConstruct}, Exit: Call{"POMP_Cancellation_point_exit", EvConstruct}},
	{Const: "POMP_USER", Name: "user", Group: "user", Role: "CODE", Writer: ByUser,
		Enter: Call{"POMP_User_region_begin", EvConstruct}, Exit: Call{"POMP_User_region_end", EvConstruct}},
	{Const: "POMP_LOCK", Name: "lock", Group: "locks", Sets: []string{SetSync, SetOMP}, Role: "WRAPPER", Writer: ByUser,
		Routines: []string{"omp_init_lock", "omp_init_lock_with_hint", "omp_destroy_lock", "omp_set_lock",
			"omp_unset_lock", "omp_test_lock", "omp_init_nest_lock", "omp_init_nest_lock_with_hint",
			"omp_destroy_nest_lock", "omp_set_nest_lock", "omp_unset_nest_lock", "omp_test_nest_lock"}},
	{Const: "POMP_MPI", Name: "mpi", Note: "an MPI call, measured by libpomp_mpi.a", Writer: ByMPI},
}

// Calls of a kind's More that rewrite places by name, and the one that
// belongs to no kind.
var (
	// SectionBody wraps each section of a sections construct (place.go).
	SectionBody = Pair{Call{Name: "POMP_Section_begin"}, Call{"POMP_Section_end", EvBody}}
	// ImplicitBarrier is the implicit barrier of a worksharing construct,
	// made explicit: its events are the worksharing region's.
	ImplicitBarrier = Pair{Call{"POMP_Implicit_barrier_enter", EvBarrier}, Call{"POMP_Implicit_barrier_exit", EvBarrier}}
	// TaskCreateIter is Enter of a task created in the body of a for loop
	// (rewrite/iteration.go).
	TaskCreateIter = Call{Name: "POMP_Task_create_begin_iter"}
	// BodyCleanup is the cleanup handler of a body (Begin..End, or a
	// section) whose kind has no Cleanup of its own.
	BodyCleanup = "POMP_Body_end_cleanup"
)

// AllCalls returns the calls of every kind (Calls) and BodyCleanup.
func AllCalls() []string {
	out := []string{BodyCleanup}
	for i := range List {
		out = append(out, List[i].Calls()...)
	}
	return out
}

// Flags are the bits of a region's flags, bit i Flags[i]. Append only.
var Flags = []Flag{
	{"POMP_FLAG_NOWAIT", "nowait", "the user wrote nowait"},
	{"POMP_FLAG_BARRIER", "barrier", "gopari turned the implicit barrier into an explicit one"},
	{"POMP_FLAG_IMPLICIT_BARRIER", "implicit_barrier", "the implicit barrier is kept, inside X_enter..X_exit"},
	{"POMP_FLAG_COMBINED", "combined", "a leaf of a combined construct"},
	{"POMP_FLAG_UNTIED", "untied", "an untied task kept untied"},
	{"POMP_FLAG_TIED", "tied", "gopari removed untied"},
	{"POMP_FLAG_CLEANUP", "cleanup", "end events come from cleanup handlers (cancellation)"},
	{"POMP_FLAG_IF", "if", "the construct has an if clause"},
	{"POMP_FLAG_FINAL", "final", "a task with a final clause"},
	{"POMP_FLAG_MERGEABLE", "mergeable", "a task with a mergeable clause"},
	{"POMP_FLAG_DEPEND", "depend", "depend or doacross clauses"},
	{"POMP_FLAG_CHUNKS", "chunks", "a for loop whose chunks are recorded (--chunks)"},
}

// Get returns the kind with value id.
func Get(id ID) *Kind { return &List[id-1] }

// Calls returns every call of the kind: Enter, Exit, Begin, End, Cleanup
// and More, the empty ones left out.
func (k *Kind) Calls() []string {
	var out []string
	add := func(c ...Call) {
		for _, x := range c {
			if x.Name != "" {
				out = append(out, x.Name)
			}
		}
	}
	add(k.Enter, k.Exit, k.Begin, k.End, Call{Name: k.Cleanup})
	for _, p := range k.More {
		add(p.Enter, p.Exit)
	}
	for _, r := range k.Routines {
		add(Call{Name: Wrapper(r)})
	}
	return out
}

// Wrapper is the name of the wrapper of an OpenMP routine:
// omp_set_lock is wrapped by POMP_Set_lock.
func Wrapper(routine string) string {
	rest := routine[len("omp_"):]
	return "POMP_" + string(rest[0]-'a'+'A') + rest[1:]
}

// Wrappers maps each of the kind's Routines to its Wrapper.
func (k *Kind) Wrappers() map[string]string {
	out := make(map[string]string, len(k.Routines))
	for _, r := range k.Routines {
		out[r] = Wrapper(r)
	}
	return out
}

// Groups returns the --disable groups: each kind's Group names itself,
// and each composite group the groups of its kinds, in the list's order.
func Groups() map[string][]string {
	out := map[string][]string{}
	for _, k := range List {
		if k.Group == "" {
			continue
		}
		out[k.Group] = []string{k.Group}
		for _, s := range k.Sets {
			if !contains(out[s], k.Group) {
				out[s] = append(out[s], k.Group)
			}
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
