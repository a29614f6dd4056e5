package perfetto

import (
	"bytes"
	"encoding/json"
	"io"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"

	"gopari/internal/chrome"
	"gopari/internal/events"
	"gopari/internal/events/evtest"
)

type jsonEvent struct {
	Ph   string          `json:"ph"`
	Pid  int             `json:"pid"`
	Tid  int             `json:"tid"`
	Ts   *float64        `json:"ts"`
	Name string          `json:"name"`
	Cat  string          `json:"cat"`
	ID   json.RawMessage `json:"id"`
	Bp   string          `json:"bp"`
	S    string          `json:"s"`
	Args map[string]any  `json:"args"`
}

// decode decodes a Chrome trace's events, leaving out the processes'
// sort indexes, which Perfetto's process tracks do not carry.
func decode(t *testing.T, b []byte) []jsonEvent {
	t.Helper()
	var doc struct{ TraceEvents []jsonEvent }
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	var out []jsonEvent
	for _, e := range doc.TraceEvents {
		if e.Name != "process_sort_index" {
			out = append(out, e)
		}
	}
	return out
}

// same exports runs as Chrome JSON and as Perfetto, and checks that the
// Perfetto trace decodes against the schema into the very events of the
// JSON, which chrome.Check accepts; it returns both sizes.
func same(t *testing.T, name string, cut bool, runs func(w *bytes.Buffer, p bool) (chrome.Stats, error)) (int, int) {
	t.Helper()
	var js, pf bytes.Buffer
	jst, err := runs(&js, false)
	if err != nil {
		t.Fatal(err)
	}
	pst, err := runs(&pf, true)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := Read(bytes.NewReader(pf.Bytes()))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	conv, err := ChromeJSON(tr)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if _, err := chrome.Check(bytes.NewReader(js.Bytes())); err != nil {
		t.Errorf("%s: JSON: %v", name, err)
	}
	if _, err := chrome.Check(bytes.NewReader(conv)); err != nil && !cut {
		t.Errorf("%s: %v", name, err)
	}
	want, got := decode(t, js.Bytes()), decode(t, conv)
	if len(want) != len(got) {
		t.Fatalf("%s: %d events in the Perfetto trace, %d in the JSON", name, len(got), len(want))
	}
	for i := range want {
		if !reflect.DeepEqual(want[i], got[i]) {
			w, _ := json.Marshal(want[i])
			g, _ := json.Marshal(got[i])
			t.Fatalf("%s: event %d:\nJSON     %s\nPerfetto %s", name, i, w, g)
		}
	}
	if jst != pst {
		t.Errorf("%s: stats %+v, JSON's %+v", name, pst, jst)
	}
	return js.Len(), pf.Len()
}

func scenario(t *testing.T, make func(dir string) (*evtest.Sim, error)) *events.Experiment {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "exp")
	if _, err := make(dir); err != nil {
		t.Fatal(err)
	}
	exp, err := events.OpenExperiment(dir)
	if err != nil {
		t.Fatal(err)
	}
	return exp
}

// TestSameAsJSON: the Perfetto trace of every scenario shows exactly the
// events of its Chrome JSON (tasks, regions, flows, dropped records, a
// stopped run), whole and cut to a window and a thread, and is several
// times smaller.
func TestSameAsJSON(t *testing.T) {
	t.Parallel()
	fib := func(dir string) (*evtest.Sim, error) {
		s, _, err := evtest.Fib(dir, 14, 3, 4, 40, func(n int) bool { return n == 4 })
		return s, err
	}
	for name, mk := range map[string]func(string) (*evtest.Sim, error){"fib": fib, "mixed": evtest.Mixed, "gaps": evtest.Gaps, "stopped": evtest.Stopped} {
		exp := scenario(t, mk)
		for _, opt := range []chrome.Options{{}, {Window: true, From: 300, To: 2000}, {Threads: map[string]bool{"0.1": true}}} {
			label := name + " " + strconv.FormatBool(opt.Window) + " " + strconv.Itoa(len(opt.Threads))
			j, p := same(t, label, opt.Window, func(w *bytes.Buffer, pf bool) (chrome.Stats, error) {
				if pf {
					return Write(w, exp, opt)
				}
				return chrome.WriteCut(w, exp, opt)
			})
			if name == "fib" && !opt.Window && opt.Threads == nil && p*3 > j {
				t.Errorf("fib: Perfetto %d bytes, JSON %d: not 3 times smaller", p, j)
			}
			t.Logf("%s: JSON %d bytes, Perfetto %d", label, j, p)
		}
	}
}

// TestJob: a job's Perfetto trace has the processes, tracks and flows of
// its Chrome JSON.
func TestJob(t *testing.T) {
	t.Parallel()
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
	same(t, "job", false, func(w *bytes.Buffer, pf bool) (chrome.Stats, error) {
		if pf {
			return WriteJob(w, ranks, chrome.Options{})
		}
		return chrome.WriteJob(w, "ompi-7", ranks)
	})
}

// TestEstimate: the estimated size of Fib's Perfetto trace, whole and
// cut to a thread, is within 10% of what is written.
func TestEstimate(t *testing.T) {
	t.Parallel()
	exp := scenario(t, func(dir string) (*evtest.Sim, error) {
		s, _, err := evtest.Fib(dir, 16, 3, 4, 40, func(n int) bool { return n == 4 })
		return s, err
	})
	for _, opt := range []chrome.Options{{}, {Threads: map[string]bool{"0.1": true}}} {
		runs := []chrome.Run{chrome.OneRun(exp)}
		cs, err := chrome.Census(runs, opt)
		if err != nil {
			t.Fatal(err)
		}
		est := chrome.Estimate(New(io.Discard), runs, cs, opt)
		var b bytes.Buffer
		if _, err := Write(&b, exp, opt); err != nil {
			t.Fatal(err)
		}
		got := int64(b.Len())
		t.Logf("%v: estimated %d bytes, wrote %d", opt.Threads, est, got)
		if d := float64(est-got) / float64(got); d > 0.1 || d < -0.1 {
			t.Errorf("%v: estimated %d bytes, wrote %d", opt.Threads, est, got)
		}
	}
}
