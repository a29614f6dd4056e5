package perfetto

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"

	"google.golang.org/protobuf/proto"

	"gopari/internal/perfetto/pb"
)

// Read decodes a whole Perfetto trace.
func Read(r io.Reader) (*pb.Trace, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	var t pb.Trace
	if err := proto.Unmarshal(b, &t); err != nil {
		return nil, fmt.Errorf("does not decode: %v", err)
	}
	return &t, nil
}

// ChromeJSON returns the Chrome trace-event JSON that shows what trace t
// shows, for checking a Perfetto trace as a Chrome one (chrome.Check):
// interned names resolved, slices as B and E events (an E named as the
// slice it ends), flows as s and f events in the slices they belong to,
// tracks and processes as M events. It fails on what a Perfetto reader
// would refuse: a packet of another sequence, an unknown interned ID or
// track, an end without a begin.
func ChromeJSON(t *pb.Trace) ([]byte, error) {
	names, cats, keys := map[uint64]string{}, map[uint64]string{}, map[uint64]string{}
	type track struct{ pid, tid int }
	tracks := map[uint64]track{}
	open := map[uint64][]string{}
	var b bytes.Buffer
	b.WriteString(`{"traceEvents":[`)
	n := 0
	emit := func(format string, args ...any) {
		if n > 0 {
			b.WriteString(",\n")
		}
		n++
		fmt.Fprintf(&b, format, args...)
	}
	for i, p := range t.Packet {
		if p.GetTrustedPacketSequenceId() != Sequence {
			return nil, fmt.Errorf("packet %d: sequence %d", i, p.GetTrustedPacketSequenceId())
		}
		if i == 0 && p.GetSequenceFlags()&seqCleared == 0 {
			return nil, errors.New("packet 0 does not clear the incremental state")
		}
		for _, x := range p.GetInternedData().GetEventNames() {
			names[x.GetIid()] = x.GetName()
		}
		for _, x := range p.GetInternedData().GetEventCategories() {
			cats[x.GetIid()] = x.GetName()
		}
		for _, x := range p.GetInternedData().GetDebugAnnotationNames() {
			keys[x.GetIid()] = x.GetName()
		}
		if d := p.GetTrackDescriptor(); d != nil {
			if d.Process != nil {
				pid := int(d.GetProcess().GetPid())
				tracks[d.GetUuid()] = track{pid, -1}
				emit(`{"ph":"M","pid":%d,"tid":0,"name":"process_name","args":{"name":%q}}`, pid, d.GetProcess().GetProcessName())
				continue
			}
			parent, ok := tracks[d.GetParentUuid()]
			if !ok {
				return nil, fmt.Errorf("packet %d: track %d's parent %d is not described", i, d.GetUuid(), d.GetParentUuid())
			}
			tid := int(d.GetUuid()&(1<<24-1)) - 1
			tracks[d.GetUuid()] = track{parent.pid, tid}
			emit(`{"ph":"M","pid":%d,"tid":%d,"name":"thread_name","args":{"name":%q}}`, parent.pid, tid, d.GetName())
			continue
		}
		ev := p.GetTrackEvent()
		if ev == nil {
			continue
		}
		tr, ok := tracks[ev.GetTrackUuid()]
		if !ok || tr.tid < 0 {
			return nil, fmt.Errorf("packet %d: event on undescribed track %d", i, ev.GetTrackUuid())
		}
		head := fmt.Sprintf(`"pid":%d,"tid":%d,"ts":%s`, tr.pid, tr.tid, strconv.FormatFloat(float64(p.GetTimestamp())/1e3, 'f', 3, 64))
		args, err := annotations(ev, keys)
		if err != nil {
			return nil, fmt.Errorf("packet %d: %v", i, err)
		}
		name := ""
		if ev.NameIid != nil {
			if name, ok = names[ev.GetNameIid()]; !ok {
				return nil, fmt.Errorf("packet %d: unknown name ID %d", i, ev.GetNameIid())
			}
		}
		cat := ""
		for _, c := range ev.GetCategoryIids() {
			if cat, ok = cats[c]; !ok {
				return nil, fmt.Errorf("packet %d: unknown category ID %d", i, c)
			}
		}
		st := open[ev.GetTrackUuid()]
		switch ev.GetType() {
		case pb.TrackEvent_TYPE_SLICE_BEGIN:
			open[ev.GetTrackUuid()] = append(st, name)
			emit(`{"ph":"B",%s,"name":%q,"cat":%q%s}`, head, name, cat, args)
		case pb.TrackEvent_TYPE_SLICE_END:
			if len(st) == 0 {
				return nil, fmt.Errorf("packet %d: slice end without a begin on track %d", i, ev.GetTrackUuid())
			}
			open[ev.GetTrackUuid()] = st[:len(st)-1]
			emit(`{"ph":"E",%s,"name":%q%s}`, head, st[len(st)-1], args)
		case pb.TrackEvent_TYPE_INSTANT:
			emit(`{"ph":"i",%s,"s":"t","name":%q%s}`, head, name, args)
		default:
			return nil, fmt.Errorf("packet %d: event type %v", i, ev.GetType())
		}
		for _, id := range ev.GetFlowIds() {
			emit(`{"ph":"s",%s,"name":"task","cat":"task","id":"0x%x"}`, head, id)
		}
		for _, id := range ev.GetTerminatingFlowIds() {
			emit(`{"ph":"f",%s,"name":"task","cat":"task","id":"0x%x","bp":"e"}`, head, id)
		}
	}
	b.WriteString("\n]}\n")
	return b.Bytes(), nil
}

// annotations returns an event's debug annotations as the JSON of its
// Chrome arguments (",\"args\":{...}"), unsigned values in hex.
func annotations(ev *pb.TrackEvent, keys map[uint64]string) (string, error) {
	if len(ev.GetDebugAnnotations()) == 0 {
		return "", nil
	}
	var b bytes.Buffer
	b.WriteString(`,"args":{`)
	for i, a := range ev.GetDebugAnnotations() {
		k, ok := keys[a.GetNameIid()]
		if !ok {
			return "", fmt.Errorf("unknown argument name ID %d", a.GetNameIid())
		}
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%q:", k)
		switch {
		case a.UintValue != nil:
			fmt.Fprintf(&b, `"0x%x"`, a.GetUintValue())
		case a.IntValue != nil:
			fmt.Fprintf(&b, "%d", a.GetIntValue())
		case a.DoubleValue != nil:
			b.WriteString(strconv.FormatFloat(a.GetDoubleValue(), 'f', 3, 64))
		case a.StringValue != nil:
			fmt.Fprintf(&b, "%q", a.GetStringValue())
		default:
			return "", fmt.Errorf("argument %s has no value", k)
		}
	}
	b.WriteByte('}')
	return b.String(), nil
}
