package chrome

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gopari/internal/events"
	"gopari/internal/events/evtest"
	"gopari/internal/timeline"
)

func export(t *testing.T, dir string) (*Summary, Stats, []byte) {
	t.Helper()
	exp, err := events.OpenExperiment(dir)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	st, err := Write(&buf, exp)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := Check(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.Bytes())
	}
	return sum, st, buf.Bytes()
}

// suspensions replays dir and returns every task's suspensions by ID, as
// Check's TaskSlices keys them.
func suspensions(t *testing.T, dir string) map[string]int {
	exp, err := events.OpenExperiment(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	r := timeline.New(exp)
	err = r.Run(func(ev *timeline.Event) error {
		switch ev.Type {
		case events.TaskEnd, events.TaskloopEnd:
			out["0x"+strconv.FormatUint(ev.Task.ID, 16)] = ev.Task.Suspensions
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestFib checks the structure of fib's trace: one flow per task, one
// execution slice per task plus one per suspension, thread names.
func TestFib(t *testing.T) {
	for _, threads := range []int{1, 2, 4} {
		dir := filepath.Join(t.TempDir(), "exp")
		_, want, err := evtest.Fib(dir, 11, 3, threads, 40, func(n int) bool { return n == 4 })
		if err != nil {
			t.Fatal(err)
		}
		sum, st, _ := export(t, dir)
		if sum.Flows != want.Tasks || st.Flows != int64(want.Tasks) {
			t.Errorf("%d threads: %d flows, want %d", threads, sum.Flows, want.Tasks)
		}
		// Creations are split too, where an undeferred task ran inside.
		if sum.Slices["create"] != want.Tasks+want.Undeferred {
			t.Errorf("%d threads: %d creation slices, want %d", threads, sum.Slices["create"], want.Tasks+want.Undeferred)
		}
		susp := suspensions(t, dir)
		if len(susp) != want.Tasks {
			t.Fatalf("%d tasks ended, want %d", len(susp), want.Tasks)
		}
		for id, n := range susp {
			if sum.TaskSlices[id] != n+1 {
				t.Errorf("%d threads: task %s has %d execution slices, want %d (1 + %d suspensions)", threads, id, sum.TaskSlices[id], n+1, n)
			}
		}
		if sum.Tracks != threads+1 || sum.Names[0] != "0" || sum.Names[1] != "0.0" {
			t.Errorf("%d threads: tracks %v", threads, sum.Names)
		}
	}
}

// TestMixed checks the trace of a run that uses every record type.
func TestMixed(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "exp")
	if _, err := evtest.Mixed(dir); err != nil {
		t.Fatal(err)
	}
	sum, st, out := export(t, dir)
	if sum.Flows != 2 || sum.Slices["chunk"] != 4 || sum.Slices["parallel"] != 2 || sum.Instants != 9 {
		t.Errorf("summary %+v\n%s", sum, out)
	}
	if st.Timeline.Dropped != 5 || st.Timeline.Unmatched != 0 {
		t.Errorf("stats %+v", st.Timeline)
	}
	// The task suspended at the taskyield on 0.0 and resumed on 0.1 has two
	// execution slices, one on each track.
	if sum.TaskSlices["0x2"] != 2 {
		t.Errorf("task 0x2: %d slices\n%s", sum.TaskSlices["0x2"], out)
	}
	if !bytes.Contains(out, []byte(`"name":"thread_name","args":{"name":"0.1.0"}`)) {
		t.Errorf("no track named 0.1.0")
	}
}

// TestStopped checks that a run stopped in the middle still gives closed,
// nested slices.
func TestStopped(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "exp")
	if _, err := evtest.Stopped(dir); err != nil {
		t.Fatal(err)
	}
	sum, st, _ := export(t, dir)
	if sum.Flows != 1 || st.Timeline.Unmatched != 0 {
		t.Errorf("%+v %+v", sum, st)
	}
}

// TestJob exports a job of two ranks, each the Mixed run, rank 1 started
// 1 ms after rank 0: a process per rank (pid rank + 1), its tracks, flows
// that stay unique though the ranks' task IDs are the same, and rank 1's
// times 1000 µs after rank 0's.
func TestJob(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "job")
	if err := evtest.Job(dir, "ompi-7", 1e6, []func(string) (*evtest.Sim, error){evtest.Mixed, evtest.Mixed}); err != nil {
		t.Fatal(err)
	}
	var ranks []events.Rank
	for r := 0; r < 2; r++ {
		exp, err := events.OpenExperiment(filepath.Join(dir, "rank-0000"+strconv.Itoa(r)))
		if err != nil {
			t.Fatal(err)
		}
		ranks = append(ranks, events.Rank{Rank: r, Exp: exp})
	}
	var buf bytes.Buffer
	st, err := WriteJob(&buf, "ompi-7", ranks)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := Check(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.Bytes())
	}
	one, _, _ := export(t, filepath.Join(dir, "rank-00000"))
	if sum.Flows != 2*one.Flows || st.Flows != int64(2*one.Flows) || sum.Tracks != 2*one.Tracks || sum.Instants != 2*one.Instants {
		t.Errorf("job %+v, one rank %+v", sum, one)
	}
	var doc struct {
		TraceEvents []jsonEvent    `json:"traceEvents"`
		OtherData   map[string]any `json:"otherData"`
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	first := map[int]float64{}
	names := map[int]string{}
	for _, e := range doc.TraceEvents {
		if e.Ph == "M" && e.Name == "process_name" {
			names[e.Pid], _ = e.Args["name"].(string)
		}
		if _, ok := first[e.Pid]; !ok && e.Ts != nil && e.Ph != "M" {
			first[e.Pid] = *e.Ts
		}
	}
	if names[1] != "rank 0: ./synthetic (pid 4242)" || names[2] != "rank 1: ./synthetic (pid 4243)" || len(names) != 2 {
		t.Errorf("processes %q", names)
	}
	if d := first[2] - first[1]; d != 1000 {
		t.Errorf("rank 1 starts %.3f µs after rank 0, want 1000", d)
	}
	if doc.OtherData["job"] != "ompi-7" || doc.OtherData["dropped_records"] != 10.0 {
		t.Errorf("otherData %v", doc.OtherData)
	}
}

// TestCheckRejects: Check refuses an E that closes another slice, a task
// creation without its flow and a flow that never ends in a task that
// ran; it accepts an open flow of a task that never ran.
func TestCheckRejects(t *testing.T) {
	for _, c := range []struct{ name, doc, want string }{
		{"E of another slice", `{"traceEvents":[
			{"ph":"B","pid":1,"tid":0,"ts":1,"name":"a","cat":"region"},
			{"ph":"B","pid":1,"tid":0,"ts":2,"name":"b","cat":"region"},
			{"ph":"E","pid":1,"tid":0,"ts":3,"name":"a"},
			{"ph":"E","pid":1,"tid":0,"ts":4,"name":"b"}]}`, `E "a" on track 0 closes slice "b"`},
		{"creation without a flow", `{"traceEvents":[
			{"ph":"B","pid":1,"tid":0,"ts":1,"name":"create task t.c:1","cat":"create","args":{"task":"0x5"}},
			{"ph":"E","pid":1,"tid":0,"ts":2,"name":"create task t.c:1"}]}`, "the creation of task \"0x5\" has no flow"},
		{"flow of a task that ran, never ended", `{"traceEvents":[
			{"ph":"B","pid":1,"tid":0,"ts":1,"name":"create task t.c:1","cat":"create","args":{"task":"0x5"}},
			{"ph":"s","pid":1,"tid":0,"ts":1,"name":"task","id":"0x5"},
			{"ph":"E","pid":1,"tid":0,"ts":2,"name":"create task t.c:1"},
			{"ph":"B","pid":1,"tid":1,"ts":3,"name":"task t.c:1","cat":"task","args":{"id":"0x5"}},
			{"ph":"E","pid":1,"tid":1,"ts":4,"name":"task t.c:1"}]}`, "flow \"0x5\" never ends"},
	} {
		if _, err := Check(strings.NewReader(c.doc)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	// A task the program never ran (it exited or was killed first) keeps
	// its flow open.
	unrun := `{"traceEvents":[
			{"ph":"B","pid":1,"tid":0,"ts":1,"name":"create task t.c:1","cat":"create","args":{"task":"0x5"}},
			{"ph":"s","pid":1,"tid":0,"ts":1,"name":"task","id":"0x5"},
			{"ph":"E","pid":1,"tid":0,"ts":2,"name":"create task t.c:1"}]}`
	if _, err := Check(strings.NewReader(unrun)); err != nil {
		t.Errorf("a task that never ran: %v", err)
	}
}

// TestNames: masked, a construct of kind master, is named masked, and
// so is the masked leaf of "parallel masked taskloop"; an MPI call by its
// name, without a place in the source.
func TestNames(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "exp")
	s, err := evtest.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	masked, master, send := s.Region("master", "m.c", 3), s.Region("master", "m.c", 5), s.Region("mpi", "MPI", 0)
	s.Name(masked, "masked")
	s.Name(send, "MPI_Send")
	leaf := s.Region("master", "m.c", 7)
	s.Name(leaf, "parallel masked taskloop")
	s.Flag(leaf, "combined")
	a := s.Thread()
	a.Put(events.Loc, 0, s.Loc("0", 0))
	for _, r := range []uint32{masked, master, send, leaf} {
		a.Put(events.EnterConstruct, r)
		a.Put(events.ExitConstruct, r)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	_, _, out := export(t, dir)
	for _, want := range []string{`"name":"masked m.c:3"`, `"name":"master m.c:5"`, `"name":"MPI_Send"`, `"name":"masked m.c:7"`} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("no %s in\n%s", want, out)
		}
	}
}

// TestGaps: every gap of a run that lost records in every way
// (evtest.Gaps) is an instant event on its track, where the gap begins,
// with the records lost as its argument dropped_records, and from_us and
// to_us: the DROPPED record's gap and the end gaps of the stream that
// stopped, up to the end of the run, on tracks 0.0 (5 and 3 records),
// 0.1 (7) and 0.2 (11, its OS thread wrote no file): 26, as profile.json
// counts, and as otherData's dropped_records says.
func TestGaps(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "exp")
	if _, err := evtest.Gaps(dir); err != nil {
		t.Fatal(err)
	}
	_, st, out := export(t, dir)
	var doc struct {
		TraceEvents []struct {
			Ph   string         `json:"ph"`
			Tid  int            `json:"tid"`
			Ts   float64        `json:"ts"`
			Name string         `json:"name"`
			Args map[string]any `json:"args"`
		} `json:"traceEvents"`
		OtherData map[string]any `json:"otherData"`
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	endUs := float64(evtest.GapsWallNs) / 1e3
	var gaps []string
	var sum int64
	for _, e := range doc.TraceEvents {
		n, ok := e.Args["dropped_records"].(float64)
		if e.Ph != "i" || !ok {
			continue
		}
		g := strconv.Itoa(e.Tid) + ": " + strconv.Itoa(int(n))
		if e.Args["to_us"] == endUs {
			g += " to the end"
		}
		if e.Ts != e.Args["from_us"] || e.Ts > e.Args["to_us"].(float64) || !strings.HasPrefix(e.Name, strconv.Itoa(int(n))+" records dropped") {
			t.Errorf("gap %q at %v: %v", e.Name, e.Ts, e.Args)
		}
		gaps = append(gaps, g)
		sum += int64(n)
	}
	slices.Sort(gaps)
	want := []string{"1: 3 to the end", "1: 5", "2: 7 to the end", "3: 11 to the end"}
	if !slices.Equal(gaps, want) || sum != 26 || st.Timeline.Dropped != 26 || doc.OtherData["dropped_records"] != 26.0 {
		t.Errorf("gaps %q, %d records (stats %d, otherData %v); want %q, 26 records", gaps, sum, st.Timeline.Dropped, doc.OtherData["dropped_records"], want)
	}
}
