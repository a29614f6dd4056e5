package chrome

import (
	"bytes"
	"path/filepath"
	"strconv"
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
