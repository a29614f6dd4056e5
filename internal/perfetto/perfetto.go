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
		keys: map[string]uint64{}, first: true}
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

// Process describes process pid.
func (e *Encoder) Process(pid int, name string, sort int) {
	e.flush()
	e.pkt = pb.TracePacket{TrackDescriptor: &pb.TrackDescriptor{Uuid: proto.Uint64(processUUID(pid)),
		Process: &pb.ProcessDescriptor{Pid: proto.Int32(int32(pid)), ProcessName: proto.String(name)}}}
	e.put()
}

// Track describes thread tid of process pid, a track of its own.
func (e *Encoder) Track(pid, tid int, name string, sort int) {
	e.flush()
	e.pkt = pb.TracePacket{TrackDescriptor: &pb.TrackDescriptor{Uuid: proto.Uint64(trackUUID(pid, tid)),
		ParentUuid: proto.Uint64(processUUID(pid)), Name: proto.String(name)}}
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
	if start {
		e.ev.FlowIds = append(e.ev.FlowIds, id)
	} else {
		e.ev.TerminatingFlowIds = append(e.ev.TerminatingFlowIds, id)
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
	e.ev = pb.TrackEvent{Type: typ.Enum(), TrackUuid: proto.Uint64(trackUUID(pid, tid))}
	if name != "" {
		iid, fresh := intern(e.names, name)
		e.ev.NameIid = proto.Uint64(iid)
		if fresh {
			in = &pb.InternedData{}
			in.EventNames = append(in.EventNames, &pb.EventName{Iid: proto.Uint64(iid), Name: proto.String(name)})
		}
	}
	if cat != "" {
		iid, fresh := intern(e.cats, cat)
		e.ev.CategoryIids = append(e.ev.CategoryIids, iid)
		if fresh {
			if in == nil {
				in = &pb.InternedData{}
			}
			in.EventCategories = append(in.EventCategories, &pb.EventCategory{Iid: proto.Uint64(iid), Name: proto.String(cat)})
		}
	}
	in = e.annotate(args, in)
	e.pkt = pb.TracePacket{Timestamp: proto.Uint64(uint64(max(0, math.Round(ns)))), TrackEvent: &e.ev,
		SequenceFlags: proto.Uint32(seqNeeds), InternedData: in}
}

// annotate turns args into the event's debug annotations, interning
// their names into in.
func (e *Encoder) annotate(args []chrome.Arg, in *pb.InternedData) *pb.InternedData {
	if len(args) == 0 {
		return in
	}
	e.anns = append(e.anns[:0], make([]pb.DebugAnnotation, len(args))...)
	e.annPtrs = e.annPtrs[:0]
	for i, a := range args {
		iid, fresh := intern(e.keys, a.Key)
		if fresh {
			if in == nil {
				in = &pb.InternedData{}
			}
			in.DebugAnnotationNames = append(in.DebugAnnotationNames, &pb.DebugAnnotationName{Iid: proto.Uint64(iid), Name: proto.String(a.Key)})
		}
		d := &e.anns[i]
		d.NameIid = proto.Uint64(iid)
		switch a.Kind {
		case chrome.Hex:
			d.UintValue = proto.Uint64(a.U)
		case chrome.Int:
			d.IntValue = proto.Int64(a.I)
		case chrome.Float:
			d.DoubleValue = proto.Float64(a.F)
		case chrome.String:
			d.StringValue = proto.String(a.S)
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
	e.pkt.TrustedPacketSequenceId = proto.Uint32(Sequence)
	if e.first {
		e.pkt.SequenceFlags = proto.Uint32(seqCleared)
		e.first = false
	}
	b, err := e.opts.MarshalAppend(e.buf[:0], &e.pkt)
	if err != nil {
		e.err = err
		return
	}
	e.buf = b
	var hdr [1 + binary.MaxVarintLen64]byte
	hdr[0] = 1<<3 | 2
	n := binary.PutUvarint(hdr[1:], uint64(len(b)))
	e.w.Write(hdr[:1+n])
	_, e.err = e.w.Write(b)
	e.n += int64(1 + n + len(b))
	e.Packets++
}
