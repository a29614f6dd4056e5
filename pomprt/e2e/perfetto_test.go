package e2e

import (
	"bytes"
	"testing"

	"gopari/internal/chrome"
	"gopari/internal/events"
	"gopari/internal/perfetto"
)

// TestPerfettoTrace: the traced program of TestTraceCounts (recursive
// tasks, taskwait, taskgroup, taskloop, undeferred tasks, nested
// parallel regions, locks), at 1, 2 and 4 threads with every compiler,
// exports to a Perfetto trace that decodes against the schema into the
// Chrome JSON's slices, flows and markers, with one flow per task
// created, as the profile counts them; cut to thread 0, it has that
// thread's track only.
func TestPerfettoTrace(t *testing.T) {
	needTools(t)
	for _, c := range compilers {
		c := c
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p := build(t, c, "traced.c")
			for _, threads := range []string{"1", "2", "4"} {
				env := []string{"OMP_NUM_THREADS=" + threads, "GOPARI_MODE=trace", "OMP_MAX_ACTIVE_LEVELS=2"}
				got := run(t, p.inst, env)
				exp, err := events.OpenExperiment(got.dir)
				if err != nil {
					t.Fatalf("%s threads: %v\nstderr: %s", threads, err, got.stderr)
				}
				var created int64
				prof := readProfile(t, got)
				kind := map[int]string{}
				for _, r := range prof.Regions {
					kind[r.ID] = r.Kind
				}
				for _, ts := range prof.Tasks {
					if kind[ts.Region] == "task" {
						created += int64(ts.Created)
					}
				}
				for _, opt := range []chrome.Options{{}, {Threads: map[string]bool{"0": true}}} {
					js, pf := summaries(t, exp, opt)
					if js.Flows != pf.Flows || js.Instants != pf.Instants || js.Tracks != pf.Tracks ||
						len(js.Slices) != len(pf.Slices) || len(js.TaskSlices) != len(pf.TaskSlices) {
						t.Errorf("%s threads %v: Perfetto %+v, JSON %+v", threads, opt.Threads, pf, js)
					}
					for k, v := range js.Slices {
						if pf.Slices[k] != v {
							t.Errorf("%s threads %v: %d %s slices in the Perfetto trace, %d in the JSON", threads, opt.Threads, pf.Slices[k], k, v)
						}
					}
					if opt.Threads == nil && int64(pf.Flows) != created {
						t.Errorf("%s threads: %d flows, the profile creates %d tasks", threads, pf.Flows, created)
					}
					if opt.Threads != nil && (pf.Tracks != 1 || pf.Names[0] != "0") {
						t.Errorf("%s threads, cut to 0: tracks %v", threads, pf.Names)
					}
				}
			}
		})
	}
}

// summaries exports exp as Chrome JSON and as Perfetto, cut as opt says,
// and returns what chrome.Check finds in each (the Perfetto trace
// decoded into Chrome events).
func summaries(t *testing.T, exp *events.Experiment, opt chrome.Options) (*chrome.Summary, *chrome.Summary) {
	t.Helper()
	var js, pf bytes.Buffer
	if _, err := chrome.WriteCut(&js, exp, opt); err != nil {
		t.Fatal(err)
	}
	if _, err := perfetto.Write(&pf, exp, opt); err != nil {
		t.Fatal(err)
	}
	a, err := chrome.Check(&js)
	if err != nil {
		t.Fatalf("Chrome JSON: %v", err)
	}
	tr, err := perfetto.Read(&pf)
	if err != nil {
		t.Fatal(err)
	}
	conv, err := perfetto.ChromeJSON(tr)
	if err != nil {
		t.Fatal(err)
	}
	b, err := chrome.Check(bytes.NewReader(conv))
	if err != nil {
		t.Fatalf("Perfetto: %v", err)
	}
	return a, b
}
