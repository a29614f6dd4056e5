package chrome

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
)

// Summary is what Check found in a Chrome trace.
type Summary struct {
	Tracks     int
	Slices     map[string]int // B events by category
	TaskSlices map[string]int // execution slices by task ID
	Flows      int
	Instants   int
	Names      map[int]string // track names in the order of their metadata (tids in a single run's trace)
}

type jsonEvent struct {
	Ph   string          `json:"ph"`
	Pid  int             `json:"pid"`
	Tid  int             `json:"tid"`
	Ts   *float64        `json:"ts"`
	Name string          `json:"name"`
	Cat  string          `json:"cat"`
	ID   json.RawMessage `json:"id"`
	Bp   string          `json:"bp"`
	Args map[string]any  `json:"args"`
}

// Check reads a Chrome trace and checks what issue 13 asks of it: it
// parses; every slice is closed, by an E event of its own name; slices
// on a track nest; every task creation has its flow, which starts inside
// that creation and ends inside the task's first execution slice, if the
// task ever ran;
// timestamps never go backwards on a track. Tracks are keyed by process
// and thread: a job's trace has a process per rank. In a trace cut to a
// window (otherData's window_us), a creation open at the window's start
// may have no flow: it began before; in a trace cut to some threads
// (otherData's threads), a flow may end nowhere: its task began on a
// thread left out.
func Check(r io.Reader) (*Summary, error) {
	var doc struct {
		TraceEvents []jsonEvent `json:"traceEvents"`
		OtherData   struct {
			Window  []float64 `json:"window_us"`
			Threads []string  `json:"threads"`
		} `json:"otherData"`
	}
	if err := json.NewDecoder(r).Decode(&doc); err != nil {
		return nil, fmt.Errorf("does not parse: %v", err)
	}
	c := &checker{stacks: map[trackKey][]*jsonEvent{}, last: map[trackKey]float64{}, firstSlice: map[string]*jsonEvent{},
		starts: map[string]bool{}, ends: map[string]bool{}, created: map[string]int{},
		s: &Summary{Slices: map[string]int{}, TaskSlices: map[string]int{}, Names: map[int]string{}}}
	if w := doc.OtherData.Window; len(w) == 2 {
		c.from = &w[0]
	}
	for i := range doc.TraceEvents {
		if err := c.event(i, &doc.TraceEvents[i]); err != nil {
			return nil, err
		}
	}
	for k, st := range c.stacks {
		if len(st) > 0 {
			return nil, fmt.Errorf("track %d of process %d: %d slices never closed (innermost %q)", k.tid, k.pid, len(st), st[len(st)-1].Name)
		}
	}
	for id := range c.starts {
		// A task that never ran (the program exited or was killed
		// before) keeps its flow open: there is no slice to end it in.
		if !c.ends[id] && c.firstSlice[id] != nil && doc.OtherData.Threads == nil {
			return nil, fmt.Errorf("flow %s never ends", id)
		}
	}
	for id, i := range c.created {
		if !c.starts[id] {
			return nil, fmt.Errorf("event %d: the creation of task %s has no flow", i, id)
		}
	}
	c.s.Tracks = len(c.s.Names)
	return c.s, nil
}

type trackKey struct{ pid, tid int }

type checker struct {
	stacks     map[trackKey][]*jsonEvent
	last       map[trackKey]float64
	firstSlice map[string]*jsonEvent // flow ID -> its task's first execution slice
	starts     map[string]bool
	ends       map[string]bool
	created    map[string]int // flow ID -> the event that created its task
	from       *float64       // the window's start, in a cut trace
	s          *Summary
}

// flowID is the ID of the flow of the task a slice executes or creates
// (key: "id" or "task"): in a job's trace the slice's "flow" argument,
// else the task's ID.
func flowID(e *jsonEvent, key string) string {
	if f, ok := e.Args["flow"].(string); ok {
		return strconv.Quote(f)
	}
	id, _ := e.Args[key].(string)
	return strconv.Quote(id)
}

func (c *checker) event(i int, e *jsonEvent) error {
	k := trackKey{e.Pid, e.Tid}
	s := c.s
	if e.Ph == "M" {
		if e.Name == "thread_name" {
			s.Names[len(s.Names)], _ = e.Args["name"].(string)
		}
		return nil
	}
	if e.Ts == nil {
		return fmt.Errorf("event %d (%s %q) has no ts", i, e.Ph, e.Name)
	}
	if ts, ok := c.last[k]; ok && *e.Ts < ts {
		return fmt.Errorf("event %d: track %d goes back in time from %.3f to %.3f", i, e.Tid, ts, *e.Ts)
	}
	c.last[k] = *e.Ts
	st := c.stacks[k]
	var top *jsonEvent
	if len(st) > 0 {
		top = st[len(st)-1]
	}
	switch e.Ph {
	case "B":
		c.stacks[k] = append(st, e)
		s.Slices[e.Cat]++
		if e.Cat == "task" || e.Cat == "barrier" {
			id, _ := e.Args["id"].(string)
			s.TaskSlices[id]++
			if f := flowID(e, "id"); c.firstSlice[f] == nil {
				c.firstSlice[f] = e
			}
		}
		if e.Cat == "create" {
			if _, ok := c.created[flowID(e, "task")]; !ok && (c.from == nil || *e.Ts != *c.from) {
				c.created[flowID(e, "task")] = i
			}
		}
	case "E":
		if top == nil {
			return fmt.Errorf("event %d: E on track %d without an open slice", i, e.Tid)
		}
		if e.Name != top.Name {
			return fmt.Errorf("event %d: E %q on track %d closes slice %q", i, e.Name, e.Tid, top.Name)
		}
		c.stacks[k] = st[:len(st)-1]
	case "s", "f":
		return c.flow(i, e, top)
	case "i", "I":
		s.Instants++
	default:
		return fmt.Errorf("event %d: unexpected phase %q", i, e.Ph)
	}
	return nil
}

// flow checks a flow event against the slice it is in, top.
func (c *checker) flow(i int, e *jsonEvent, top *jsonEvent) error {
	id := string(e.ID)
	if e.Name != "task" {
		return fmt.Errorf("event %d: flow %s named %q", i, id, e.Name)
	}
	if e.Ph == "s" {
		if c.starts[id] {
			return fmt.Errorf("event %d: second flow start for task %s", i, id)
		}
		c.starts[id] = true
		if top == nil || top.Cat != "create" || flowID(top, "task") != id {
			return fmt.Errorf("event %d: flow %s does not start inside the creation of its task", i, id)
		}
		return nil
	}
	if !c.starts[id] {
		return fmt.Errorf("event %d: flow %s ends before it starts", i, id)
	}
	if c.ends[id] {
		return fmt.Errorf("event %d: second flow end for task %s", i, id)
	}
	c.ends[id] = true
	if e.Bp != "e" {
		return fmt.Errorf("event %d: flow end %s does not bind to its enclosing slice", i, id)
	}
	if top == nil || top.Cat != "task" || flowID(top, "id") != id || c.firstSlice[id] != top {
		return fmt.Errorf("event %d: flow %s does not end inside its task's first execution slice", i, id)
	}
	c.s.Flows++
	return nil
}
