// Package perfetto writes a run's event stream as a Perfetto trace: the
// protobuf format that ui.perfetto.dev and trace_processor read natively,
// several times smaller than the Chrome JSON of the same slices. The
// slices are internal/chrome's (one track per team-tree thread, tasks and
// their regions as nested slices, a flow from each task's creation to its
// first execution); this package encodes them as TracePackets of one
// packet sequence: a TrackDescriptor per process and per thread, then
// TrackEvents whose names, categories and argument names are interned
// (each string is written once, in the packet that uses it first).
//
// The messages are the subset of Perfetto's schema in pb/, generated
// with google.golang.org/protobuf.
package perfetto

import (
	"bufio"
	"encoding/binary"
	"io"
	"math"

	"google.golang.org/protobuf/proto"

	"gopari/internal/chrome"
	"gopari/internal/events"
	"gopari/internal/perfetto/pb"
)

// Sequence is the trusted packet sequence ID of every packet written.
const Sequence = 1

// Sequence flags (TracePacket.SequenceFlags).
const (
	seqCleared = 1 // SEQ_INCREMENTAL_STATE_CLEARED: interning starts here
	seqNeeds   = 2 // SEQ_NEEDS_INCREMENTAL_STATE: the packet uses interned strings
)

// An Encoder writes an export's tracks and slices (a chrome.Encoder) as
// Perfetto trace packets.
type Encoder struct {
	w       *bufio.Writer
	names   map[string]uint64 // interned event names, categories, argument names
	cats    map[string]uint64
	keys    map[string]uint64
	pkt     pb.TracePacket
	ev      pb.TrackEvent
	anns    []pb.DebugAnnotation
	annPtrs []*pb.DebugAnnotation
	vals    []value            // the annotations' values
	consts  map[uint64]*uint64 // interned IDs and track UUIDs, allocated once
	ts      uint64             // the timestamp of pkt
	cat     [1]uint64          // the category of pkt
	flows   [2][1]uint64       // the flow of pkt, started and ended
	hdr     [1 + binary.MaxVarintLen64]byte
	pending bool // pkt is a slice's begin, not yet written: a flow may join it
	first   bool
	buf     []byte
	opts    proto.MarshalOptions
	err     error
	// Packets counts the packets written.
	Packets int64
	n       int64 // bytes written
}

// Written returns the bytes written so far, the begin held for a flow
// included (it is written now).
func (e *Encoder) Written() int64 {
	e.flush()
	return e.n
}

// New starts a trace on w.
func New(w io.Writer) *Encoder {
	return &Encoder{w: bufio.NewWriterSize(w, 1<<16), names: map[string]uint64{}, cats: map[string]uint64{},
		keys: map[string]uint64{}, consts: map[uint64]*uint64{}, first: true}
}

// A value is the storage of an annotation's value: a packet's fields
// point into the encoder's storage, so that encoding an event allocates
// nothing.
type value struct {
	u uint64
	i int64
	f float64
	s string
}

// The values of optional fields that every packet has.
var (
	typeBegin, typeEnd, typeInstant = pb.TrackEvent_TYPE_SLICE_BEGIN, pb.TrackEvent_TYPE_SLICE_END, pb.TrackEvent_TYPE_INSTANT
	flagsNeeds, flagsCleared        = uint32(seqNeeds), uint32(seqCleared)
	sequence                        = uint32(Sequence)
)

// constant returns a pointer to v, the same for every call with v: an
// interned ID or a track's UUID, of which an export has few.
func (e *Encoder) constant(v uint64) *uint64 {
	p, ok := e.consts[v]
	if !ok {
		p = new(uint64)
		*p = v
		e.consts[v] = p
	}
	return p
}

// Write replays exp and writes its Perfetto trace to w, cut as opt says.
func Write(w io.Writer, exp *events.Experiment, opt chrome.Options) (chrome.Stats, error) {
	return write(w, []chrome.Run{chrome.OneRun(exp)}, opt)
}

// WriteJob writes the ranks of an MPI job as one Perfetto trace: a
// process per rank, on one time line (chrome.Runs).
func WriteJob(w io.Writer, ranks []events.Rank, opt chrome.Options) (chrome.Stats, error) {
	runs, _, err := chrome.Runs(ranks)
	if err != nil {
		return chrome.Stats{}, err
	}
	return write(w, runs, opt)
}

func write(w io.Writer, runs []chrome.Run, opt chrome.Options) (chrome.Stats, error) {
	e := New(w)
	st, err := chrome.Export(e, runs, opt)
	if err != nil {
		return st, err
	}
	return st, e.Finish()
}

// Finish writes what is pending and flushes.
func (e *Encoder) Finish() error {
	e.flush()
	if e.err != nil {
		return e.err
	}
	return e.w.Flush()
}

func processUUID(pid int) uint64    { return uint64(pid) << 24 }
func trackUUID(pid, tid int) uint64 { return uint64(pid)<<24 | uint64(tid+1) }

// Process describes process pid, whose tracks are shown in the order
// Track gives them.
func (e *Encoder) Process(pid int, name string, sort int) {
	e.flush()
	e.pkt = pb.TracePacket{TrackDescriptor: &pb.TrackDescriptor{Uuid: proto.Uint64(processUUID(pid)),
		Process:       &pb.ProcessDescriptor{Pid: proto.Int32(int32(pid)), ProcessName: proto.String(name)},
		ChildOrdering: pb.TrackDescriptor_EXPLICIT.Enum()}}
	e.put()
}

// Track describes thread tid of process pid, a track of its own, shown
// in the order sort among its process's.
func (e *Encoder) Track(pid, tid int, name string, sort int) {
	e.flush()
	e.pkt = pb.TracePacket{TrackDescriptor: &pb.TrackDescriptor{Uuid: proto.Uint64(trackUUID(pid, tid)),
		ParentUuid: proto.Uint64(processUUID(pid)), Name: proto.String(name), SiblingOrderRank: proto.Int32(int32(sort))}}
	e.put()
}

// Begin writes a slice's begin; it is held until the next call, which
// may be a flow that belongs to it.
func (e *Encoder) Begin(pid, tid int, ns float64, s *chrome.Slice) {
	e.event(pid, tid, ns, pb.TrackEvent_TYPE_SLICE_BEGIN, s.Name, s.Cat, s.Args)
	e.pending = true
}

// End writes a slice's end, with its arguments, if any.
func (e *Encoder) End(pid, tid int, ns float64, s *chrome.Slice, args []chrome.Arg) {
	e.event(pid, tid, ns, pb.TrackEvent_TYPE_SLICE_END, "", "", args)
	e.put()
}

// Flow adds flow id to the slice begun last: as its start, or as its
// end (a terminating flow ID).
func (e *Encoder) Flow(pid, tid int, ns float64, id uint64, start bool) {
	if !e.pending || e.ev.GetTrackUuid() != trackUUID(pid, tid) {
		// No slice to join: the flow's step is an instant of its own.
		e.event(pid, tid, ns, pb.TrackEvent_TYPE_INSTANT, "task", "task", nil)
	}
	// A slice joins at most one flow (a creation starts its task's, a
	// task's first slice ends it).
	if start {
		e.flows[0][0] = id
		e.ev.FlowIds = e.flows[0][:]
	} else {
		e.flows[1][0] = id
		e.ev.TerminatingFlowIds = e.flows[1][:]
	}
	e.pending = true
}

// Instant writes an instant event.
func (e *Encoder) Instant(pid, tid int, ns float64, name string, args []chrome.Arg) {
	e.event(pid, tid, ns, pb.TrackEvent_TYPE_INSTANT, name, "", args)
	e.put()
}

// event makes a track event packet, after writing the one pending.
func (e *Encoder) event(pid, tid int, ns float64, typ pb.TrackEvent_Type, name, cat string, args []chrome.Arg) {
	e.flush()
	var in *pb.InternedData
	e.ev = pb.TrackEvent{TrackUuid: e.constant(trackUUID(pid, tid))}
	switch typ {
	case pb.TrackEvent_TYPE_SLICE_BEGIN:
		e.ev.Type = &typeBegin
	case pb.TrackEvent_TYPE_SLICE_END:
		e.ev.Type = &typeEnd
	default:
		e.ev.Type = &typeInstant
	}
	if name != "" {
		iid, fresh := intern(e.names, name)
		e.ev.NameIid = e.constant(iid)
		if fresh {
			in = &pb.InternedData{}
			in.EventNames = append(in.EventNames, &pb.EventName{Iid: proto.Uint64(iid), Name: proto.String(name)})
		}
	}
	if cat != "" {
		iid, fresh := intern(e.cats, cat)
		e.cat[0] = iid
		e.ev.CategoryIids = e.cat[:]
		if fresh {
			if in == nil {
				in = &pb.InternedData{}
			}
			in.EventCategories = append(in.EventCategories, &pb.EventCategory{Iid: proto.Uint64(iid), Name: proto.String(cat)})
		}
	}
	in = e.annotate(args, in)
	e.ts = uint64(max(0, math.Round(ns)))
	e.pkt = pb.TracePacket{Timestamp: &e.ts, TrackEvent: &e.ev, SequenceFlags: &flagsNeeds, InternedData: in}
}

// annotate turns args into the event's debug annotations, interning
// their names into in.
func (e *Encoder) annotate(args []chrome.Arg, in *pb.InternedData) *pb.InternedData {
	if len(args) == 0 {
		return in
	}
	if len(e.anns) < len(args) {
		e.anns = make([]pb.DebugAnnotation, len(args))
		e.vals = make([]value, len(args))
	}
	e.annPtrs = e.annPtrs[:0]
	for i, a := range args {
		iid, fresh := intern(e.keys, a.Key)
		if fresh {
			if in == nil {
				in = &pb.InternedData{}
			}
			in.DebugAnnotationNames = append(in.DebugAnnotationNames, &pb.DebugAnnotationName{Iid: proto.Uint64(iid), Name: proto.String(a.Key)})
		}
		d, v := &e.anns[i], &e.vals[i]
		*d = pb.DebugAnnotation{NameIid: e.constant(iid)}
		switch a.Kind {
		case chrome.Hex:
			v.u, d.UintValue = a.U, &v.u
		case chrome.Int:
			v.i, d.IntValue = a.I, &v.i
		case chrome.Float:
			v.f, d.DoubleValue = a.F, &v.f
		case chrome.String:
			v.s, d.StringValue = a.S, &v.s
		}
		e.annPtrs = append(e.annPtrs, d)
	}
	e.ev.DebugAnnotations = e.annPtrs
	return in
}

// intern returns the interning ID of s in table m, and whether it is
// new (IDs start at 1).
func intern(m map[string]uint64, s string) (uint64, bool) {
	if iid, ok := m[s]; ok {
		return iid, false
	}
	iid := uint64(len(m) + 1)
	m[s] = iid
	return iid, true
}

// flush writes the pending begin, if any.
func (e *Encoder) flush() {
	if e.pending {
		e.pending = false
		e.put()
	}
}

// put writes e.pkt as one packet of the Trace message: field 1, length
// delimited.
func (e *Encoder) put() {
	if e.err != nil {
		return
	}
	e.pkt.TrustedPacketSequenceId = &sequence
	if e.first {
		e.pkt.SequenceFlags = &flagsCleared
		e.first = false
	}
	b, err := e.opts.MarshalAppend(e.buf[:0], &e.pkt)
	if err != nil {
		e.err = err
		return
	}
	e.buf = b
	e.hdr[0] = 1<<3 | 2
	n := binary.PutUvarint(e.hdr[1:], uint64(len(b)))
	e.w.Write(e.hdr[:1+n])
	_, e.err = e.w.Write(b)
	e.n += int64(1 + n + len(b))
	e.Packets++
}
