package chrome

import (
	"bufio"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"

	"gopari/internal/events"
)

// JSON encodes an export as Chrome trace-event JSON: B and E events for
// slices, s and f events for flows (the f binding to its enclosing
// slice), i events, and M events naming processes and threads.
type JSON struct {
	w      *bufio.Writer
	first  bool
	buf    []byte
	quoted map[string]string // slice name -> JSON string
	n      int64             // bytes of the events written
}

// Written returns the bytes of the events written so far.
func (j *JSON) Written() int64 { return j.n }

// NewJSON starts a trace on w.
func NewJSON(w io.Writer) *JSON {
	j := &JSON{w: bufio.NewWriterSize(w, 1<<16), first: true, quoted: map[string]string{}}
	j.w.WriteString(`{"displayTimeUnit":"ns","traceEvents":[`)
	return j
}

// Finish ends the trace with otherData, the JSON object other.
func (j *JSON) Finish(other string) error {
	fmt.Fprintf(j.w, "\n],\"otherData\":%s}\n", other)
	return j.w.Flush()
}

// Write replays exp and writes its Chrome JSON to w.
func Write(w io.Writer, exp *events.Experiment) (Stats, error) {
	return WriteCut(w, exp, Options{})
}

// WriteCut writes exp's Chrome JSON cut as opt says.
func WriteCut(w io.Writer, exp *events.Experiment, opt Options) (Stats, error) {
	j := NewJSON(w)
	st, err := Export(j, []Run{OneRun(exp)}, opt)
	if err != nil {
		return st, err
	}
	return st, j.Finish(fmt.Sprintf(`{"program":%s,"pid":%d,"clock":%s,"dropped_records":%d,"complete":%t,"unmatched":%d%s}`,
		strconv.Quote(exp.Program), exp.PID, strconv.Quote(exp.Clock.Name), st.Timeline.Dropped, exp.Events.Complete, st.Timeline.Unmatched, opt.cut()))
}

// WriteJob writes the ranks of the MPI job named job as one Chrome trace:
// a process per rank, with its team-tree threads as tracks (see Runs).
func WriteJob(w io.Writer, job string, ranks []events.Rank) (Stats, error) {
	return WriteJobCut(w, job, ranks, Options{})
}

// WriteJobCut writes a job's Chrome JSON cut as opt says.
func WriteJobCut(w io.Writer, job string, ranks []events.Rank, opt Options) (Stats, error) {
	runs, origin, err := Runs(ranks)
	if err != nil {
		return Stats{}, err
	}
	j := NewJSON(w)
	st, err := Export(j, runs, opt)
	if err != nil {
		return st, err
	}
	complete := true
	for _, r := range ranks {
		complete = complete && r.Exp.Events.Complete
	}
	return st, j.Finish(fmt.Sprintf(`{"job":%s,"ranks":%d,"realtime0_ns":%d,"dropped_records":%d,"complete":%t,"unmatched":%d%s}`,
		strconv.Quote(job), len(ranks), origin, st.Timeline.Dropped, complete, st.Timeline.Unmatched, opt.cut()))
}

// cut returns the otherData fields of a cut export: window_us, the
// window in microseconds, and threads, the team paths kept.
func (o Options) cut() string {
	var b []byte
	if o.Window {
		// An open end (--window 5:) is null.
		end := "null"
		if !math.IsInf(o.To, 1) {
			end = strconv.FormatFloat(o.To/1e3, 'f', 3, 64)
		}
		b = fmt.Appendf(b, `,"window_us":[%.3f,%s]`, o.From/1e3, end)
	}
	if o.Threads != nil {
		b = append(b, `,"threads":[`...)
		for i, p := range slices.Sorted(maps.Keys(o.Threads)) {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendQuote(b, p)
		}
		b = append(b, ']')
	}
	return string(b)
}

// Process writes the process's name and sort index.
func (j *JSON) Process(pid int, name string, sort int) {
	j.begin("M", pid, 0, 0)
	j.buf = append(j.buf, `,"name":"process_name","args":{"name":`...)
	j.buf = strconv.AppendQuote(j.buf, name)
	j.end("}")
	j.begin("M", pid, 0, 0)
	j.buf = append(j.buf, `,"name":"process_sort_index","args":{"sort_index":`...)
	j.buf = strconv.AppendInt(j.buf, int64(sort), 10)
	j.end("}")
}

// Track writes the thread's name and sort index.
func (j *JSON) Track(pid, tid int, name string, sort int) {
	j.begin("M", pid, tid, 0)
	j.buf = append(j.buf, `,"name":"thread_name","args":{"name":`...)
	j.buf = strconv.AppendQuote(j.buf, name)
	j.end("}")
	j.begin("M", pid, tid, 0)
	j.buf = append(j.buf, `,"name":"thread_sort_index","args":{"sort_index":`...)
	j.buf = strconv.AppendInt(j.buf, int64(sort), 10)
	j.end("}")
}

// begin starts an event of phase ph on track tid at time ns.
func (j *JSON) begin(ph string, pid, tid int, ns float64) {
	j.buf = j.buf[:0]
	if !j.first {
		j.buf = append(j.buf, ",\n"...)
	} else {
		j.buf = append(j.buf, '\n')
	}
	j.first = false
	j.buf = append(j.buf, `{"ph":"`...)
	j.buf = append(j.buf, ph...)
	j.buf = append(j.buf, `","pid":`...)
	j.buf = strconv.AppendInt(j.buf, int64(pid), 10)
	j.buf = append(j.buf, `,"tid":`...)
	j.buf = strconv.AppendInt(j.buf, int64(tid), 10)
	if ph != "M" {
		j.buf = append(j.buf, `,"ts":`...)
		j.buf = strconv.AppendFloat(j.buf, ns/1e3, 'f', 3, 64)
	}
}

func (j *JSON) end(tail string) {
	j.buf = append(j.buf, tail...)
	j.buf = append(j.buf, '}')
	j.w.Write(j.buf)
	j.n += int64(len(j.buf))
}

func hex(b []byte, v uint64) []byte {
	b = append(b, `"0x`...)
	b = strconv.AppendUint(b, v, 16)
	return append(b, '"')
}

// quote returns name as a JSON string; slices have few names, quoted
// once each.
func (j *JSON) quote(name string) string {
	q, ok := j.quoted[name]
	if !ok {
		q = strconv.Quote(name)
		j.quoted[name] = q
	}
	return q
}

func (j *JSON) args(args []Arg) {
	if len(args) == 0 {
		return
	}
	j.buf = append(j.buf, `,"args":{`...)
	for i, a := range args {
		if i > 0 {
			j.buf = append(j.buf, ',')
		}
		j.buf = append(j.buf, '"')
		j.buf = append(j.buf, a.Key...)
		j.buf = append(j.buf, `":`...)
		switch a.Kind {
		case Hex:
			j.buf = hex(j.buf, a.U)
		case Int:
			j.buf = strconv.AppendInt(j.buf, a.I, 10)
		case Float:
			j.buf = strconv.AppendFloat(j.buf, a.F, 'f', 3, 64)
		case String:
			j.buf = strconv.AppendQuote(j.buf, a.S)
		}
	}
	j.buf = append(j.buf, '}')
}

// Begin writes a B event.
func (j *JSON) Begin(pid, tid int, ns float64, s *Slice) {
	j.begin("B", pid, tid, ns)
	j.buf = append(j.buf, `,"name":`...)
	j.buf = append(j.buf, j.quote(s.Name)...)
	j.buf = append(j.buf, `,"cat":"`...)
	j.buf = append(j.buf, s.Cat...)
	j.buf = append(j.buf, '"')
	j.args(s.Args)
	j.end("")
}

// End writes an E event, named as the slice it ends.
func (j *JSON) End(pid, tid int, ns float64, s *Slice, args []Arg) {
	j.begin("E", pid, tid, ns)
	j.buf = append(j.buf, `,"name":`...)
	j.buf = append(j.buf, j.quote(s.Name)...)
	j.args(args)
	j.end("")
}

// Flow writes an s or f event of flow id, named task.
func (j *JSON) Flow(pid, tid int, ns float64, id uint64, start bool) {
	ph := "f"
	if start {
		ph = "s"
	}
	j.begin(ph, pid, tid, ns)
	j.buf = append(j.buf, `,"name":"task","cat":"task","id":`...)
	j.buf = hex(j.buf, id)
	if !start {
		j.buf = append(j.buf, `,"bp":"e"`...)
	}
	j.end("")
}

// Instant writes an i event of thread scope.
func (j *JSON) Instant(pid, tid int, ns float64, name string, args []Arg) {
	j.begin("i", pid, tid, ns)
	j.buf = append(j.buf, `,"s":"t","name":`...)
	j.buf = strconv.AppendQuote(j.buf, name)
	j.args(args)
	j.end("")
}
