package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"gopari/internal/chrome"
	"gopari/internal/events"
	"gopari/internal/events/evtest"
	"gopari/internal/otf2"
	"gopari/internal/perfetto"
	"gopari/internal/traceexport"
)

// bigStream writes a run of 4 OS threads, locations 0, 0.1, 0.2 and 0.3,
// each entering and leaving a critical region 1,250,000 times: 10^7
// records. At 1 ns a tick from the run's start, thread k's i-th critical
// section lasts from 20i+k to 20i+k+10 ns.
func bigStream(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "exp")
	s, err := evtest.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	s.BlockSize = 1 << 20
	crit := s.Region("critical", "big.c", 7)
	for k := 0; k < 4; k++ {
		path := "0"
		if k > 0 {
			path = "0." + strconv.Itoa(k)
		}
		th := s.Thread()
		th.Put(events.Loc, 0, s.Loc(path, k))
		for i := uint64(0); i < bigPairs; i++ {
			th.T = s.Tick0 + 20*i + uint64(k)
			th.Put(events.EnterConstruct, crit)
			th.T = s.Tick0 + 20*i + uint64(k) + 10
			th.Put(events.ExitConstruct, crit)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return dir
}

const bigPairs = 1_250_000

// cutEvent is a trace event of the cut export, as the test predicts it.
type cutEvent struct {
	ph   string
	ts   float64 // µs
	name string
}

// wantCut returns the events of thread k's track in the window [from,
// to] (ns): its initial task, and the critical sections, each begun at
// its ENTER or at from, ended at its EXIT or at to.
func wantCut(k int, from, to float64) []cutEvent {
	const crit = "critical big.c:7"
	out := []cutEvent{{"B", from / 1e3, "initial task"}}
	for i := 0; i < bigPairs; i++ {
		s, e := float64(20*i+k), float64(20*i+k+10)
		if e < from || s > to {
			continue
		}
		out = append(out, cutEvent{"B", max(s, from) / 1e3, crit})
		if e <= to {
			out = append(out, cutEvent{"E", e / 1e3, crit})
		} else {
			out = append(out, cutEvent{"E", to / 1e3, crit})
		}
	}
	return append(out, cutEvent{"E", to / 1e3, "initial task"})
}

// TestTraceCut exports a stream of 10^7 records: whole, its Chrome JSON
// (about 700 MB) is refused above the limit, with the estimate and the
// choices; cut with --window and --threads, the Chrome JSON has exactly
// the events of the critical sections of threads 0.1 and 0.3 in the
// window, clipped to it, and nothing of the other threads; the Perfetto
// trace the same events; each estimate is within 10% of what is written,
// and progress is reported on stderr. It changes traceexport's hooks, so
// it does not run in parallel.
func TestTraceCut(t *testing.T) {
	limit, announce, every := traceexport.ChromeLimit, traceexport.Announce, traceexport.Every
	defer func() { traceexport.ChromeLimit, traceexport.Announce, traceexport.Every = limit, announce, every }()
	traceexport.ChromeLimit, traceexport.Announce, traceexport.Every = 100e6, 0, 0
	start := time.Now()
	dir := bigStream(t)
	t.Logf("stream written in %v", time.Since(start))
	out := t.TempDir()
	js, pf := filepath.Join(out, "cut.json"), filepath.Join(out, "cut.pftrace")

	code, stdout, stderr := gopari(t, "trace", "--chrome", js, dir)
	m := regexp.MustCompile(`the Chrome JSON would be about ([0-9.]+) MB, more than a browser's trace viewer loads \(100.0 MB\): cut it with --window START:END \(the run lasts 0.025 s\) or --threads LIST \(0, 0.1, 0.2, 0.3\), write --perfetto FILE \(about [0-9.]+ MB\)`).FindStringSubmatch(stderr)
	if code != 1 || m == nil || stdout != "" {
		t.Fatalf("whole: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if est, _ := strconv.ParseFloat(m[1], 64); est < 500 || est > 900 {
		t.Errorf("whole: estimated %v MB for 10^7 events", est)
	}
	if _, err := os.Stat(js); !os.IsNotExist(err) {
		t.Errorf("a refused export left %s: %v", js, err)
	}
	t.Logf("refused in %v", time.Since(start))

	// The window: 10,000,005.5 ns to 10,020,005.5 ns.
	from, to := 0.0100000055, 0.0100200055
	args := []string{"trace", "--chrome", js, "--perfetto", pf, "--threads", "0.1,0.3",
		"--window", strconv.FormatFloat(from, 'g', -1, 64) + ":" + strconv.FormatFloat(to, 'g', -1, 64), dir}
	ar := filepath.Join(out, "cut.otf2")
	if otf2.Available {
		args = append([]string{"trace", "--otf2", ar}, args[1:]...)
	}
	code, stdout, stderr = gopari(t, args...)
	if code != 0 || !strings.Contains(stdout, "wrote "+js+": ") || !strings.Contains(stdout, "wrote "+pf+": ") {
		t.Fatalf("cut: exit %d: %s%s", code, stdout, stderr)
	}
	t.Logf("cut in %v", time.Since(start))
	if !strings.Contains(stderr, "gopari trace: chrome: ") || !strings.Contains(stderr, "% of ") {
		t.Errorf("no progress on stderr: %q", stderr)
	}
	b, err := os.ReadFile(js)
	if err != nil {
		t.Fatal(err)
	}
	checkEstimate(t, stderr, "the Chrome JSON", js, len(b))
	if _, err := chrome.Check(bytes.NewReader(b)); err != nil {
		t.Fatal(err)
	}
	got := cutEvents(t, b)
	for _, k := range []int{0, 2} {
		if _, ok := got[-1-k]; ok {
			t.Errorf("the track of thread %d is named though it is cut out", k)
		}
	}
	for _, k := range []int{0, 1, 2, 3} {
		var want []cutEvent
		if k == 1 || k == 3 {
			want = wantCut(k, from*1e9, to*1e9)
		}
		if len(got[k]) != len(want) {
			t.Fatalf("thread %d: %d events, want %d", k, len(got[k]), len(want))
		}
		for i := range want {
			g, w := got[k][i], want[i]
			if g.ph != w.ph || g.name != w.name || math.Abs(g.ts-w.ts) > 0.0011 {
				t.Fatalf("thread %d: event %d is %+v, want %+v", k, i, g, w)
			}
		}
	}
	p, err := os.ReadFile(pf)
	if err != nil {
		t.Fatal(err)
	}
	checkEstimate(t, stderr, "the Perfetto trace", pf, len(p))
	tr, err := perfetto.Read(bytes.NewReader(p))
	if err != nil {
		t.Fatal(err)
	}
	conv, err := perfetto.ChromeJSON(tr)
	if err != nil {
		t.Fatal(err)
	}
	if pg := cutEvents(t, conv); len(pg[1]) != len(got[1]) || len(pg[3]) != len(got[3]) || len(pg[0])+len(pg[2]) != 0 {
		t.Errorf("Perfetto: %d and %d events on threads 0.1 and 0.3, %d elsewhere; JSON %d and %d", len(pg[1]), len(pg[3]), len(pg[0])+len(pg[2]), len(got[1]), len(got[3]))
	}
	t.Logf("JSON %d bytes, Perfetto %d; %d events on thread 0.1", len(b), len(p), len(got[1]))
	if otf2.Available {
		var n int64
		filepath.Walk(ar, func(_ string, fi os.FileInfo, err error) error {
			if err == nil && !fi.IsDir() {
				n += fi.Size()
			}
			return nil
		})
		checkEstimate(t, stderr, "the OTF2 archive", ar, int(n))
	}
}

// cutEvents returns a Chrome trace's B and E events by track (tid), and
// the tracks named, as keys -1-tid.
func cutEvents(t *testing.T, b []byte) map[int][]cutEvent {
	t.Helper()
	var doc struct {
		TraceEvents []struct {
			Ph   string  `json:"ph"`
			Tid  int     `json:"tid"`
			Ts   float64 `json:"ts"`
			Name string  `json:"name"`
		} `json:"traceEvents"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	out := map[int][]cutEvent{}
	for _, e := range doc.TraceEvents {
		if e.Ph == "M" {
			if e.Name == "thread_name" {
				out[-1-e.Tid] = nil // named
			}
			continue
		}
		out[e.Tid] = append(out[e.Tid], cutEvent{e.Ph, e.Ts, e.Name})
	}
	return out
}

// checkEstimate finds what stderr announced for path and checks it is
// within 10% of size.
func checkEstimate(t *testing.T, stderr, what, path string, size int) {
	t.Helper()
	m := regexp.MustCompile(regexp.QuoteMeta("gopari trace: writing "+what+" to "+path+": about ") + `([0-9.]+) (kB|MB|B) `).FindStringSubmatch(stderr)
	if m == nil {
		t.Fatalf("no estimate of %s in %q", path, stderr)
	}
	est, _ := strconv.ParseFloat(m[1], 64)
	est *= map[string]float64{"B": 1, "kB": 1e3, "MB": 1e6}[m[2]]
	if d := (est - float64(size)) / float64(size); d > 0.1 || d < -0.1 {
		t.Errorf("%s: estimated %.0f bytes, wrote %d", what, est, size)
	}
	t.Logf("%s: estimated %.0f bytes, wrote %d", what, est, size)
}

// TestTracePerfettoJob exports a job's ranks as one Perfetto trace, cut
// to thread 0.1: a process per rank with a profile, each with the one
// track asked for, and the same events as the Chrome JSON of the same
// cut.
func TestTracePerfettoJob(t *testing.T) {
	t.Parallel()
	dir := fakeJob(t)
	out := t.TempDir()
	js, pf := filepath.Join(out, "job.json"), filepath.Join(out, "job.pftrace")
	code, stdout, stderr := gopari(t, "trace", "--perfetto", pf, "--chrome", js, "--threads", "0.1", dir)
	if code != 0 || !strings.Contains(stdout, "wrote "+pf+": ") {
		t.Fatalf("exit %d: %s%s", code, stdout, stderr)
	}
	p, err := os.ReadFile(pf)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := perfetto.Read(bytes.NewReader(p))
	if err != nil {
		t.Fatal(err)
	}
	conv, err := perfetto.ChromeJSON(tr)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(js)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		TraceEvents []struct {
			Ph   string         `json:"ph"`
			Pid  int            `json:"pid"`
			Tid  int            `json:"tid"`
			Name string         `json:"name"`
			Args map[string]any `json:"args"`
		} `json:"traceEvents"`
	}
	if err := json.Unmarshal(conv, &doc); err != nil {
		t.Fatal(err)
	}
	tracks := map[string]bool{}
	for _, e := range doc.TraceEvents {
		if e.Ph == "M" && e.Name == "thread_name" {
			tracks[strconv.Itoa(e.Pid)+" "+e.Args["name"].(string)] = true
		}
	}
	if len(tracks) != 2 || !tracks["1 0.1"] || !tracks["2 0.1"] {
		t.Errorf("tracks %v, want 0.1 of ranks 0 and 1 (pids 1 and 2)", tracks)
	}
	pe, je := cutEvents(t, conv), cutEvents(t, b)
	if len(pe[2]) == 0 || len(pe[2]) != len(je[2]) {
		t.Errorf("track 0.1: %d events in the Perfetto trace, %d in the JSON", len(pe[2]), len(je[2]))
	}
}
