package chrome

import (
	"encoding/json"
	"fmt"
	"io"
)

// Summary is what Check found in a Chrome trace.
type Summary struct {
	Tracks     int
	Slices     map[string]int // B events by category
	TaskSlices map[string]int // execution slices by task ID
	Flows      int
	Instants   int
	Names      map[int]string // thread names by tid
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
// parses; every slice is closed; slices on a track nest; every flow
// starts inside the creation of its task and ends inside that task's
// first execution slice; timestamps never go backwards on a track.
func Check(r io.Reader) (*Summary, error) {
	var doc struct {
		TraceEvents []jsonEvent `json:"traceEvents"`
	}
	if err := json.NewDecoder(r).Decode(&doc); err != nil {
		return nil, fmt.Errorf("does not parse: %v", err)
	}
	type key struct{ pid, tid int }
	stacks := map[key][]*jsonEvent{}
	last := map[key]float64{}
	s := &Summary{Slices: map[string]int{}, TaskSlices: map[string]int{}, Names: map[int]string{}}
	firstSlice := map[string]*jsonEvent{} // task ID -> its first execution slice
	starts := map[string]bool{}
	ends := map[string]bool{}
	for i := range doc.TraceEvents {
		e := &doc.TraceEvents[i]
		k := key{e.Pid, e.Tid}
		if e.Ph == "M" {
			if e.Name == "thread_name" {
				s.Names[e.Tid], _ = e.Args["name"].(string)
			}
			continue
		}
		if e.Ts == nil {
			return nil, fmt.Errorf("event %d (%s %q) has no ts", i, e.Ph, e.Name)
		}
		if ts, ok := last[k]; ok && *e.Ts < ts {
			return nil, fmt.Errorf("event %d: track %d goes back in time from %.3f to %.3f", i, e.Tid, ts, *e.Ts)
		}
		last[k] = *e.Ts
		st := stacks[k]
		var top *jsonEvent
		if len(st) > 0 {
			top = st[len(st)-1]
		}
		switch e.Ph {
		case "B":
			stacks[k] = append(st, e)
			s.Slices[e.Cat]++
			if e.Cat == "task" || e.Cat == "barrier" {
				id, _ := e.Args["id"].(string)
				s.TaskSlices[id]++
				if firstSlice[id] == nil {
					firstSlice[id] = e
				}
			}
		case "E":
			if top == nil {
				return nil, fmt.Errorf("event %d: E on track %d without an open slice", i, e.Tid)
			}
			stacks[k] = st[:len(st)-1]
		case "s", "f":
			id := string(e.ID)
			if e.Name != "task" {
				return nil, fmt.Errorf("event %d: flow %s named %q", i, id, e.Name)
			}
			if e.Ph == "s" {
				if starts[id] {
					return nil, fmt.Errorf("event %d: second flow start for task %s", i, id)
				}
				starts[id] = true
				if top == nil || top.Cat != "create" || fmt.Sprintf("%q", top.Args["task"]) != id {
					return nil, fmt.Errorf("event %d: flow %s does not start inside the creation of its task", i, id)
				}
				continue
			}
			if !starts[id] {
				return nil, fmt.Errorf("event %d: flow %s ends before it starts", i, id)
			}
			if ends[id] {
				return nil, fmt.Errorf("event %d: second flow end for task %s", i, id)
			}
			ends[id] = true
			if e.Bp != "e" {
				return nil, fmt.Errorf("event %d: flow end %s does not bind to its enclosing slice", i, id)
			}
			if top == nil || top.Cat != "task" || fmt.Sprintf("%q", top.Args["id"]) != id || firstSlice[top.Args["id"].(string)] != top {
				return nil, fmt.Errorf("event %d: flow %s does not end inside its task's first execution slice", i, id)
			}
			s.Flows++
		case "i", "I":
			s.Instants++
		default:
			return nil, fmt.Errorf("event %d: unexpected phase %q", i, e.Ph)
		}
	}
	for k, st := range stacks {
		if len(st) > 0 {
			return nil, fmt.Errorf("track %d: %d slices never closed (innermost %q)", k.tid, len(st), st[len(st)-1].Name)
		}
	}
	for id := range starts {
		if !ends[id] {
			return nil, fmt.Errorf("flow %s never ends", id)
		}
	}
	s.Tracks = len(s.Names)
	return s, nil
}
