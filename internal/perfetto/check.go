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
// tracks (their names and sort indexes) and processes as M events. It fails on what a Perfetto reader
// would refuse: a packet of another sequence, an unknown interned ID or
// track, an end without a begin.
func ChromeJSON(t *pb.Trace) ([]byte, error) {
	c := &converter{names: map[uint64]string{}, cats: map[uint64]string{}, keys: map[uint64]string{},
		tracks: map[uint64]track{}, open: map[uint64][]string{}}
	c.b.WriteString(`{"traceEvents":[`)
	for i, p := range t.Packet {
		if p.GetTrustedPacketSequenceId() != Sequence {
			return nil, fmt.Errorf("packet %d: sequence %d", i, p.GetTrustedPacketSequenceId())
		}
		if i == 0 && p.GetSequenceFlags()&seqCleared == 0 {
			return nil, errors.New("packet 0 does not clear the incremental state")
		}
		for _, x := range p.GetInternedData().GetEventNames() {
			c.names[x.GetIid()] = x.GetName()
		}
		for _, x := range p.GetInternedData().GetEventCategories() {
			c.cats[x.GetIid()] = x.GetName()
		}
		for _, x := range p.GetInternedData().GetDebugAnnotationNames() {
			c.keys[x.GetIid()] = x.GetName()
		}
		var err error
		if d := p.GetTrackDescriptor(); d != nil {
			err = c.describe(d)
		} else if ev := p.GetTrackEvent(); ev != nil {
			err = c.event(p.GetTimestamp(), ev)
		}
		if err != nil {
			return nil, fmt.Errorf("packet %d: %v", i, err)
		}
	}
	c.b.WriteString("\n]}\n")
	return c.b.Bytes(), nil
}

type track struct{ pid, tid int }

// A converter turns packets into Chrome JSON events.
type converter struct {
	names, cats, keys map[uint64]string
	tracks            map[uint64]track
	open              map[uint64][]string // per track, the names of the open slices
	b                 bytes.Buffer
	n                 int
}

func (c *converter) emit(format string, args ...any) {
	if c.n > 0 {
		c.b.WriteString(",\n")
	}
	c.n++
	fmt.Fprintf(&c.b, format, args...)
}

// describe takes a process's or a thread's track.
func (c *converter) describe(d *pb.TrackDescriptor) error {
	if d.Process != nil {
		pid := int(d.GetProcess().GetPid())
		c.tracks[d.GetUuid()] = track{pid, -1}
		c.emit(`{"ph":"M","pid":%d,"tid":0,"name":"process_name","args":{"name":%q}}`, pid, d.GetProcess().GetProcessName())
		return nil
	}
	parent, ok := c.tracks[d.GetParentUuid()]
	if !ok {
		return fmt.Errorf("track %d's parent %d is not described", d.GetUuid(), d.GetParentUuid())
	}
	tid := int(d.GetUuid()&(1<<24-1)) - 1
	c.tracks[d.GetUuid()] = track{parent.pid, tid}
	c.emit(`{"ph":"M","pid":%d,"tid":%d,"name":"thread_name","args":{"name":%q}}`, parent.pid, tid, d.GetName())
	if d.SiblingOrderRank != nil {
		c.emit(`{"ph":"M","pid":%d,"tid":%d,"name":"thread_sort_index","args":{"sort_index":%d}}`, parent.pid, tid, d.GetSiblingOrderRank())
	}
	return nil
}

// event converts a track event at time ts (ns).
func (c *converter) event(ts uint64, ev *pb.TrackEvent) error {
	tr, ok := c.tracks[ev.GetTrackUuid()]
	if !ok || tr.tid < 0 {
		return fmt.Errorf("event on undescribed track %d", ev.GetTrackUuid())
	}
	head := fmt.Sprintf(`"pid":%d,"tid":%d,"ts":%s`, tr.pid, tr.tid, strconv.FormatFloat(float64(ts)/1e3, 'f', 3, 64))
	args, err := annotations(ev, c.keys)
	if err != nil {
		return err
	}
	name, cat := "", ""
	if ev.NameIid != nil {
		if name, ok = c.names[ev.GetNameIid()]; !ok {
			return fmt.Errorf("unknown name ID %d", ev.GetNameIid())
		}
	}
	for _, id := range ev.GetCategoryIids() {
		if cat, ok = c.cats[id]; !ok {
			return fmt.Errorf("unknown category ID %d", id)
		}
	}
	st := c.open[ev.GetTrackUuid()]
	switch ev.GetType() {
	case pb.TrackEvent_TYPE_SLICE_BEGIN:
		c.open[ev.GetTrackUuid()] = append(st, name)
		c.emit(`{"ph":"B",%s,"name":%q,"cat":%q%s}`, head, name, cat, args)
	case pb.TrackEvent_TYPE_SLICE_END:
		if len(st) == 0 {
			return fmt.Errorf("slice end without a begin on track %d", ev.GetTrackUuid())
		}
		c.open[ev.GetTrackUuid()] = st[:len(st)-1]
		c.emit(`{"ph":"E",%s,"name":%q%s}`, head, st[len(st)-1], args)
	case pb.TrackEvent_TYPE_INSTANT:
		c.emit(`{"ph":"i",%s,"s":"t","name":%q%s}`, head, name, args)
	default:
		return fmt.Errorf("event type %v", ev.GetType())
	}
	for _, id := range ev.GetFlowIds() {
		c.emit(`{"ph":"s",%s,"name":"task","cat":"task","id":"0x%x"}`, head, id)
	}
	for _, id := range ev.GetTerminatingFlowIds() {
		c.emit(`{"ph":"f",%s,"name":"task","cat":"task","id":"0x%x","bp":"e"}`, head, id)
	}
	return nil
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
