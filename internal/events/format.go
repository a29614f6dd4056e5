// Package events reads the event stream that libpomp writes in trace and
// grains mode (docs/events.md): one file per OS thread, each a header and
// a sequence of blocks of compact records. It also writes such streams,
// for tests and benchmarks, and merges the files of one run into one
// sequence in time order.
//
// Damaged input never panics: every error names the file and the byte
// offset, "FILE: offset N: message".
package events

import "fmt"

// Version is the newest stream format this package reads. Version 3
// records, in grains mode too, the ENTER and EXIT records of worksharing
// constructs (for, sections, single: their body phase too) and of
// taskloops, and a section's ENTER (body) carries the section's number:
// what names the grains of the tasks created there (internal/timeline).
// Version 4: a task created in the body of a worksharing loop has the
// creating loop iteration as its CREATE_BEGIN's second word. Version 5:
// in trace mode, a program built with --functions records its measured
// function calls (FUNC_ENTER, FUNC_EXIT) and the calls a task adopts
// (FUNC_ADOPT). Version 6: the task records in short, without the task
// IDs that the block's earlier records name (see the short types below):
// a tiny task takes 24 bytes instead of 72. Version 7: TINY_TASK, an
// UNDEFERRED_TASK of short steps in one word, TASK_BEGIN_OWN,
// CREATE_QUEUED and TASK_END_BEFORE.
const Version = 7

// Magic strings of the file header and of every block.
const (
	FileMagic  = "GOPARIEV"
	BlockMagic = "BLK1"
)

// Sizes in bytes.
const (
	FileHeaderSize  = 32
	BlockHeaderSize = 16
	WordSize        = 8
	// MaxBlockPayload bounds a block's payload: a length field above it
	// is damage, not a block, and is refused before anything is read.
	MaxBlockPayload = 1 << 30
)

// A Type is a record type: bits 0-5 of a record's header word.
type Type uint8

// The record types of format 1.
const (
	Time           Type = 1 // absolute ticks: resets the running timestamp
	Loc            Type = 2 // location index: this OS thread now acts as that team-tree thread
	Dropped        Type = 3 // count: records dropped just before this point
	EnterConstruct Type = 8 // ENTER, phase construct; 9-11 body, barrier, wait
	EnterBody      Type = 9
	EnterBarrier   Type = 10
	EnterWait      Type = 11
	ExitConstruct  Type = 12 // EXIT, phase construct; 13-15 body, barrier, wait
	ExitBody       Type = 13
	ExitBarrier    Type = 14
	ExitWait       Type = 15
	Fork           Type = 16 // encountering task ID
	Join           Type = 17 // encountering task ID
	ImplicitBegin  Type = 18 // ID, parent
	ImplicitEnd    Type = 19 // ID
	CreateBegin    Type = 21 // new task's ID
	CreateEnd      Type = 22 // new task's ID
	TaskBegin      Type = 23 // ID, parent
	TaskEnd        Type = 24 // ID
	Resume         Type = 25 // ID
	TaskloopBegin  Type = 26 // ID, parent, first iteration
	TaskloopEnd    Type = 27 // ID, last iteration
	ChunkBegin     Type = 28 // first iteration
	ChunkEnd       Type = 29 // last iteration
	LockAcquired   Type = 30 // lock address
	LockReleased   Type = 31 // lock address
	// Version 2: a chunk's end and its thread's next chunk's beginning,
	// which the Reader returns as the CHUNK_END and CHUNK_BEGIN they
	// stand for (CHUNK_NEXT_STATIC, CHUNK_NEXT_DYNAMIC: the beginning has
	// a third word, 1 or 2).
	ChunkNext        Type = 32 // last | next first << 32, last value, next first value
	ChunkNextStatic  Type = 33
	ChunkNextDynamic Type = 34
	// Version 5: a measured function call begins or ends (the function's
	// address), and the number of innermost open calls that the task
	// whose begin record follows takes as its own.
	FuncEnter Type = 35 // function address
	FuncExit  Type = 36 // function address
	FuncAdopt Type = 37 // number of calls
	// Version 6: the task records in short. A block's earlier records
	// name the task: the reader keeps, from the block's start (all 0),
	// the ID of its last CREATE_BEGIN (created), and the ID and parent of
	// its last TASK_BEGIN (begun, parent), of either form. The Reader
	// returns the records they stand for, never these types.
	CreateBeginNext Type = 38 // [creating iteration]: CREATE_BEGIN of task created+1
	CreateEndLast   Type = 39 // CREATE_END of task created
	TaskBeginLast   Type = 40 // TASK_BEGIN of task created, parent parent
	TaskEndLast     Type = 41 // TASK_END of task begun
	TaskEndCreated  Type = 42 // TASK_END of task begun, then CREATE_END of task created, at the same time
	// A task run as it is created (undeferred), in one record: its
	// CREATE_BEGIN_NEXT at the record's time and its TASK_BEGIN_LAST,
	// the ticks from one to the other in bits 0-31 of the payload word;
	// its TASK_END_LAST too, the ticks from the begin in bits 32-63; and
	// the CREATE_END at its end.
	UndeferredBegin Type = 43 // ticks to the begin
	UndeferredEnd   Type = 44 // ticks to the begin | ticks from the begin to the end << 32
	UndeferredTask  Type = 45 // as UNDEFERRED_END, then the CREATE_END
	TaskBeginParent Type = 46 // ID: TASK_BEGIN of task ID, parent parent
	// Version 7: an UNDEFERRED_TASK without payload, whose three steps
	// are in the header's bits 32-63: the ticks to the creation in bits
	// 32-41 (the delta of other records), to the begin in 42-51, from the
	// begin to the end in 52-63.
	TinyTask Type = 47
	// Version 7: a TASK_BEGIN whose ID and parent are of the thread that
	// created the block's last created task (its high 32 bits): the
	// ID's low 32 bits in bits 0-31, the ID less the parent in 32-63.
	TaskBeginOwn Type = 48
	// Version 7: a CREATE_BEGIN_NEXT without payload and its task's
	// CREATE_END right after it, in one header: the ticks to the begin in
	// bits 32-51 (the delta of other records), from there to the end in
	// bits 52-63.
	CreateQueued Type = 49
	// Version 7: a TASK_END of the task begun k before the last begun
	// one (begun - k, k from 1 to 4095), without payload: the ticks since
	// the last record in bits 32-51, k in bits 52-63.
	TaskEndBefore Type = 50
)

// MaxType is the largest type a 6-bit field holds.
const MaxType = 63

// UnknownIteration is the iteration of a TASKLOOP_END whose last
// iteration the runtime could not tell.
const UnknownIteration = -1 << 63

// A Phase is the part of a region that an ENTER or EXIT record opens or
// closes, as profile.json's phases.
type Phase uint8

const (
	PhaseConstruct Phase = iota
	PhaseBody
	PhaseBarrier
	PhaseWait
)

var phaseNames = [...]string{"construct", "body", "barrier", "wait"}

func (p Phase) String() string {
	if int(p) < len(phaseNames) {
		return phaseNames[p]
	}
	return fmt.Sprintf("phase%d", p)
}

// IsEnter reports whether t opens a region phase, and IsExit whether it
// closes one; PhaseOf tells which.
func (t Type) IsEnter() bool { return t >= EnterConstruct && t <= EnterWait }
func (t Type) IsExit() bool  { return t >= ExitConstruct && t <= ExitWait }

// PhaseOf returns the phase of an ENTER or EXIT type.
func (t Type) PhaseOf() Phase {
	if t.IsEnter() {
		return Phase(t - EnterConstruct)
	}
	return Phase(t - ExitConstruct)
}

// spec describes a known type: its name, the payload words it needs and
// whether it carries a region.
type spec struct {
	name   string
	words  int
	region bool
}

var specs = [MaxType + 1]spec{
	Time:             {"TIME", 1, false},
	Loc:              {"LOC", 1, false},
	Dropped:          {"DROPPED", 1, false},
	EnterConstruct:   {"ENTER_CONSTRUCT", 0, true},
	EnterBody:        {"ENTER_BODY", 0, true},
	EnterBarrier:     {"ENTER_BARRIER", 0, true},
	EnterWait:        {"ENTER_WAIT", 0, true},
	ExitConstruct:    {"EXIT_CONSTRUCT", 0, true},
	ExitBody:         {"EXIT_BODY", 0, true},
	ExitBarrier:      {"EXIT_BARRIER", 0, true},
	ExitWait:         {"EXIT_WAIT", 0, true},
	Fork:             {"FORK", 1, true},
	Join:             {"JOIN", 1, true},
	ImplicitBegin:    {"IMPLICIT_BEGIN", 2, true},
	ImplicitEnd:      {"IMPLICIT_END", 1, true},
	CreateBegin:      {"CREATE_BEGIN", 1, true},
	CreateEnd:        {"CREATE_END", 1, true},
	TaskBegin:        {"TASK_BEGIN", 2, true},
	TaskEnd:          {"TASK_END", 1, true},
	Resume:           {"RESUME", 1, false},
	TaskloopBegin:    {"TASKLOOP_BEGIN", 3, true},
	TaskloopEnd:      {"TASKLOOP_END", 2, true},
	ChunkBegin:       {"CHUNK_BEGIN", 1, true},
	ChunkEnd:         {"CHUNK_END", 1, true},
	LockAcquired:     {"LOCK_ACQUIRED", 1, true},
	LockReleased:     {"LOCK_RELEASED", 1, true},
	ChunkNext:        {"CHUNK_NEXT", 3, true},
	ChunkNextStatic:  {"CHUNK_NEXT_STATIC", 3, true},
	ChunkNextDynamic: {"CHUNK_NEXT_DYNAMIC", 3, true},
	FuncEnter:        {"FUNC_ENTER", 1, false},
	FuncExit:         {"FUNC_EXIT", 1, false},
	FuncAdopt:        {"FUNC_ADOPT", 1, false},
	CreateBeginNext:  {"CREATE_BEGIN_NEXT", 0, true},
	CreateEndLast:    {"CREATE_END_LAST", 0, true},
	TaskBeginLast:    {"TASK_BEGIN_LAST", 0, true},
	TaskEndLast:      {"TASK_END_LAST", 0, true},
	TaskEndCreated:   {"TASK_END_CREATED", 0, true},
	UndeferredBegin:  {"UNDEFERRED_BEGIN", 1, true},
	UndeferredEnd:    {"UNDEFERRED_END", 1, true},
	UndeferredTask:   {"UNDEFERRED_TASK", 1, true},
	TaskBeginParent:  {"TASK_BEGIN_PARENT", 1, true},
	TinyTask:         {"TINY_TASK", 0, true},
	TaskBeginOwn:     {"TASK_BEGIN_OWN", 1, true},
	CreateQueued:     {"CREATE_QUEUED", 0, true},
	TaskEndBefore:    {"TASK_END_BEFORE", 0, true},
}

// short reports whether t is a short task record of version 6 or 7.
func (t Type) short() bool { return t >= CreateBeginNext && t <= TaskEndBefore }

// since returns the version of the format that introduced short type t.
func (t Type) since() int {
	if t >= TinyTask {
		return 7
	}
	return 6
}

// Stands returns the types of the records that one record of type t
// stands for, in order, where it stands for others than itself (the
// short task records, CHUNK_NEXT), and nil for any other type: for
// readers of raw blocks.
func (t Type) Stands() []Type {
	switch t {
	case CreateBeginNext:
		return []Type{CreateBegin}
	case CreateEndLast:
		return []Type{CreateEnd}
	case TaskBeginLast, TaskBeginParent, TaskBeginOwn:
		return []Type{TaskBegin}
	case TaskEndLast, TaskEndBefore:
		return []Type{TaskEnd}
	case TaskEndCreated:
		return []Type{TaskEnd, CreateEnd}
	case CreateQueued:
		return []Type{CreateBegin, CreateEnd}
	case UndeferredBegin:
		return []Type{CreateBegin, TaskBegin}
	case UndeferredEnd:
		return []Type{CreateBegin, TaskBegin, TaskEnd}
	case UndeferredTask, TinyTask:
		return []Type{CreateBegin, TaskBegin, TaskEnd, CreateEnd}
	case ChunkNext, ChunkNextStatic, ChunkNextDynamic:
		return []Type{ChunkEnd, ChunkBegin}
	}
	return nil
}

// Known reports whether t is a type of format 1.
func (t Type) Known() bool { return t <= MaxType && specs[t].name != "" }

// Words returns the number of payload words a known type carries.
func (t Type) Words() int { return specs[t&MaxType].words }

func (t Type) String() string {
	if t.Known() {
		return specs[t].name
	}
	return fmt.Sprintf("type%d", uint8(t))
}

// KnownTypes returns every type of format 1, in order.
func KnownTypes() []Type {
	var out []Type
	for t := Type(0); t <= MaxType; t++ {
		if t.Known() {
			out = append(out, t)
		}
	}
	return out
}

// A Record is one decoded record.
type Record struct {
	Type   Type
	Region uint32 // 0 when the type has none
	// Time is the record's absolute timestamp in ticks.
	Time uint64
	// N is the number of payload words the record carried; Args holds the
	// first three.
	N    int
	Args [3]uint64
}

// Header is a file's header.
type Header struct {
	Version    int
	HeaderSize int
	OSThread   uint32
	PID        uint32
	Tick0      uint64
}

// Error is damage in a stream: the file, the byte offset where the damage
// was found, and what is wrong.
type Error struct {
	File   string
	Offset int64
	Msg    string
}

func (e *Error) Error() string { return fmt.Sprintf("%s: offset %d: %s", e.File, e.Offset, e.Msg) }
