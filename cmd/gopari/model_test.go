package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopari/internal/model"
	"gopari/internal/profile"
)

// fakeProfile writes the profile of a run at t threads of a program with
// a parallel region whose fork-join takes 1 µs + 2 µs · t per visit and a
// critical section whose body takes 500 ns, and returns its directory.
func fakeProfile(t *testing.T, dir string, threads int, edit func(*profile.Profile)) string {
	t.Helper()
	p := &profile.Profile{
		Format: profile.Format, Version: profile.Version, Program: "./prog", Mode: "profile", Clock: profile.Clock{Name: "tsc"}, Exit: "exit",
		OSThreads: threads,
		Regions: []profile.Region{
			{ID: 1, Kind: "parallel", Name: "parallel", File: "prog.c", BeginLine: 10, EndLine: 20},
			{ID: 2, Kind: "critical", Name: "critical", File: "prog.c", BeginLine: 12, EndLine: 13},
		},
	}
	fork := uint64(1000 + 2000*threads)
	p.Stats = append(p.Stats, profile.Stat{Region: 1, Thread: 0, Construct: &profile.Phase{Visits: 10, InclNs: 10 * fork, ExclNs: 10 * fork}})
	for th := 1; th <= threads; th++ {
		p.Stats = append(p.Stats, profile.Stat{Region: 2, Thread: th, Body: &profile.Phase{Visits: 4, InclNs: 2000, ExclNs: 2000}})
	}
	if edit != nil {
		edit(p)
	}
	d := filepath.Join(dir, fmt.Sprintf("t%d", threads))
	if err := os.MkdirAll(d, 0o755); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(p)
	if err := os.WriteFile(filepath.Join(d, "profile.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	return d
}

// TestModelKnownValues fits profiles whose numbers are known exactly.
func TestModelKnownValues(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []int{1, 2, 4, 8} {
		fakeProfile(t, dir, n, nil)
	}
	stdout, _ := gopariStatus(t, 0, "model", "--predict", "16", dir)
	for _, want := range []string{
		"Scaling models of ./prog from 4 runs at t = 1, 2, 4, 8 threads, 1 each",
		"growth: the model at t = 16 over the measurement at t = 1",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	lines := strings.Split(stdout, "\n")
	// (1 + 2·16) / (1 + 2·1) = 11: the worst first.
	for i, want := range []string{
		"11.00 3 µs 33 µs 1 µs + 2 µs · t 1.000 - grows faster than log t: check construct (max) prog.c:10-20 parallel",
		"1.00 500 ns 500 ns 500 ns - - scales body (max) prog.c:12-13 critical",
	} {
		if got := strings.Join(strings.Fields(lines[4+i]), " "); got != want {
			t.Errorf("row %d:\n%s\nwant\n%s", i+1, got, want)
		}
	}

	// Named twice, a run counts once.
	stdout, _ = gopariStatus(t, 0, "model", "--json", "--predict", "16", filepath.Join(dir, "t1"), filepath.Join(dir, "t2"), filepath.Join(dir, "t4", "profile.json"), filepath.Join(dir, "t8"), dir)
	var ms []model.JSON
	if err := json.Unmarshal([]byte(stdout), &ms); err != nil {
		t.Fatal(err)
	}
	if len(ms) < 2 {
		t.Fatalf("%d models", len(ms))
	}
	m := ms[0]
	if m.File != "prog.c" || m.Line != 10 || m.Kind != "parallel" || m.Metric != "construct" || m.I != 1 || m.J != 0 ||
		fmt.Sprintf("%.6g %.6g %.6g", m.C0, m.C1, m.Growth) != "1000 2000 11" || m.AdjR2 != 1 || m.Verdict != "check" || m.Noise != nil {
		t.Errorf("model: %+v", m)
	}
	if len(ms[0].Points[0].Values) != 1 {
		t.Errorf("t=1 has %d values, want 1", len(ms[0].Points[0].Values))
	}
	if m := ms[1]; m.Kind != "critical" || m.Metric != "body" || m.Class != "constant" || fmt.Sprintf("%.6g", m.C0) != "500" || m.Verdict != "scales" {
		t.Errorf("model: %+v", m)
	}
}

// TestModelBadInput: each mistake is named, with exit status 1.
func TestModelBadInput(t *testing.T) {
	dir := t.TempDir()
	t1, t2 := fakeProfile(t, dir, 1, nil), fakeProfile(t, dir, 2, nil)
	other := fakeProfile(t, filepath.Join(dir, "other"), 4, func(p *profile.Profile) {
		p.Program = "./qs"
		p.Regions[1].BeginLine = 14
	})
	same := fakeProfile(t, filepath.Join(dir, "same"), 2, nil)
	newer := fakeProfile(t, filepath.Join(dir, "newer"), 4, func(p *profile.Profile) { p.Version = 99 })
	nothreads := fakeProfile(t, filepath.Join(dir, "nothreads"), 4, func(p *profile.Profile) { p.OSThreads = 0 })
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{t1, t2, other}, "are profiles of different programs (./qs has critical at prog.c:14, ./prog has not)"},
		{[]string{t2, same}, "all 2 profiles ran at 2 thread(s): a model needs runs at 3 or more thread counts"},
		{[]string{t1, t2}, "the profiles ran at 1, 2 threads: a model needs runs at 3 or more thread counts"},
		{[]string{t1, filepath.Join(dir, "nosuch")}, "nosuch: no such file or directory"},
		{[]string{t1, t2, newer}, "profile version 99 is newer than this gopari reads"},
		{[]string{filepath.Join(dir, "other")}, "all 1 profiles ran at 4 thread(s)"},
		{[]string{t1, t2, nothreads}, "the profile does not say how many threads ran"},
	} {
		_, stderr := gopariStatus(t, 1, append([]string{"model"}, c.args...)...)
		if !strings.Contains(stderr, c.msg) {
			t.Errorf("gopari model %s: stderr %q, want %q", strings.Join(c.args, " "), stderr, c.msg)
		}
	}
	empty := t.TempDir()
	if _, stderr := gopariStatus(t, 1, "model", empty); !strings.Contains(stderr, "no profile.json in it or in its subdirectories") {
		t.Errorf("empty directory: %s", stderr)
	}
	if _, stderr := gopariStatus(t, 2, "scale", "--threads", "1,2", "--", "true"); !strings.Contains(stderr, "a model needs 3 or more thread counts") {
		t.Errorf("scale with two counts: %s", stderr)
	}
}

// TestScaleFailingRun: a failing run stops gopari scale with the
// program's output and exit status.
func TestScaleFailingRun(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "fail.sh")
	os.WriteFile(script, []byte(`#!/bin/sh
echo out $OMP_NUM_THREADS
echo err >&2
[ "$OMP_NUM_THREADS" = 2 ] && exit 7
mkdir "$GOPARI_EXPERIMENT_DIRECTORY" && echo '{"format": "gopari-profile", "version": 1}' >"$GOPARI_EXPERIMENT_DIRECTORY/profile.json"
`), 0o755)
	_, stderr := gopariStatus(t, 7, "scale", "--threads", "1,2,3", "--out", filepath.Join(dir, "runs"), "--", script)
	for _, want := range []string{"run 2 of 9: 2 thread(s)", "at 2 thread(s) failed: exit status 7", "--- its stdout:\nout 2\n", "--- its stderr:\nerr\n"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	// The first run wrote no profile: that stops it too, at run 1.
	os.WriteFile(script, []byte("#!/bin/sh\nexit 0\n"), 0o755)
	_, stderr = gopariStatus(t, 1, "scale", "--threads", "1,2,3", "--out", filepath.Join(dir, "runs2"), "--", script)
	if !strings.Contains(stderr, "wrote no profile") {
		t.Errorf("stderr: %s", stderr)
	}
	// --out is never reused.
	if _, stderr := gopariStatus(t, 1, "scale", "--threads", "1,2,3", "--out", filepath.Join(dir, "runs"), "--", script); !strings.Contains(stderr, "exists and is not empty") {
		t.Errorf("stderr: %s", stderr)
	}
}

// TestModelSecondParameter: runs that vary in the thread count and in a
// recorded parameter get one model in both; a run that recorded no value
// takes the one given with --param.
func TestModelSecondParameter(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []int{100, 200, 400, 800} {
		for _, th := range []int{1, 2, 4, 8} {
			d := fakeProfile(t, filepath.Join(dir, fmt.Sprintf("n%d", n)), th, func(p *profile.Profile) {
				fork := uint64(1000 + 2*th*n)
				p.Stats[0].Construct = &profile.Phase{Visits: 10, InclNs: 10 * fork, ExclNs: 10 * fork}
			})
			if n == 800 {
				continue // recorded nothing: --param n=800
			}
			rec := fmt.Sprintf(`{"format": "gopari-run", "version": 1, "threads": %d, "repetition": 1, "params": {"n": "%d"}}`, th, n)
			if err := os.WriteFile(filepath.Join(d, "run.json"), []byte(rec), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	extrap := filepath.Join(dir, "x.txt")
	args := []string{"model", "--predict", "16", "--param", "n=800", "--extrap", extrap}
	for _, n := range []int{100, 200, 400, 800} {
		args = append(args, filepath.Join(dir, fmt.Sprintf("n%d", n)))
	}
	stdout, _ := gopariStatus(t, 0, args...)
	if !strings.Contains(stdout, "growth: the model at t = 16 over the measurement at t = 1, both at n = 800") {
		t.Errorf("header:\n%s", stdout)
	}
	lines := strings.Split(stdout, "\n")
	// (1000 + 2·16·800) / (1000 + 2·1·800) = 26600 / 2600
	if got, want := strings.Join(strings.Fields(lines[4]), " "), "10.23 2.6 µs 26.6 µs 1 µs + 2 ns · t · n 1.000 - grows faster than log: check construct (max) prog.c:10-20 parallel"; got != want {
		t.Errorf("first row:\n%s\nwant\n%s", got, want)
	}
	stdout, _ = gopariStatus(t, 0, append([]string{"model", "--json"}, args[1:]...)...)
	var ms []model.JSON
	if err := json.Unmarshal([]byte(stdout), &ms); err != nil {
		t.Fatal(err)
	}
	m := ms[0]
	if m.Param != "n" || fmt.Sprint(m.Params) != "[t n]" || len(m.Terms) != 1 || len(m.Terms[0].Factors) != 2 || len(m.PointsXY) != 16 ||
		m.Terms[0].Factors[1].Param != "n" || m.Terms[0].Factors[1].I != 1 || fmt.Sprintf("%.6g", m.Terms[0].Coef) != "2" || m.Class != "linear" {
		t.Errorf("model: %+v", m)
	}
	b, err := os.ReadFile(extrap)
	if err != nil {
		t.Fatal(err)
	}
	e, err := parseExtraP(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(e.points) != 16 || fmt.Sprint(e.params, e.points[:5]) != "[t n] [[1 100] [2 100] [4 100] [8 100] [1 200]]" {
		t.Errorf("Extra-P parameters %v, points %v", e.params, e.points)
	}
	if d := e.data[[2]string{"prog.c:10 parallel", "construct.max"}]; fmt.Sprint(d[15]) != "[13800]" {
		t.Errorf("Extra-P data at t=8, n=800: %v", d)
	}
}

// TestModelTaskAndLockMetrics: a task region whose creation takes
// 50 ns + 10 ns · t and whose execution takes 2 µs per task, a lock whose
// wait per acquisition is 20 ns + 100 ns · t, and a critical section whose
// body takes 480 ns at t = 1 and 500 ns above: a constant (the change is
// below 10%), whose growth is 1 however its first point strays.
func TestModelTaskAndLockMetrics(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []int{1, 2, 4, 8} {
		fakeProfile(t, dir, n, func(p *profile.Profile) {
			p.Regions = append(p.Regions,
				profile.Region{ID: 3, Kind: "task", Name: "task", File: "prog.c", BeginLine: 15, EndLine: 16},
				profile.Region{ID: 4, Kind: "lock", Name: "omp_set_lock", File: "prog.c", BeginLine: 18, EndLine: 18})
			tasks := uint64(100 * n)
			p.Tasks = append(p.Tasks, profile.TaskStats{Region: 3, Created: tasks, Executed: tasks,
				Create: profile.Dist{Timed: tasks, SumNs: tasks * uint64(50+10*n)},
				Exec:   profile.Dist{Timed: tasks, SumNs: tasks * 2000}})
			for th := 0; th < n; th++ {
				// Each thread acquires 10 + th times: the wait is per
				// acquisition, over all threads.
				acq := uint64(10 + th)
				p.Stats = append(p.Stats, profile.Stat{Region: 4, Thread: th, Construct: &profile.Phase{Visits: acq, InclNs: 30 * acq, ExclNs: 30 * acq},
					LockAcquired: acq, LockWaitNs: acq * uint64(20+100*n)})
				if n == 1 {
					p.Stats[1].Body.InclNs = 4 * 480
				}
			}
		})
	}
	stdout, _ := gopariStatus(t, 0, "model", "--json", "--top", "0", "--predict", "16", dir)
	var ms []model.JSON
	if err := json.Unmarshal([]byte(stdout), &ms); err != nil {
		t.Fatal(err)
	}
	got := map[string]model.JSON{}
	for _, m := range ms {
		got[m.Kind+" "+m.Metric] = m
	}
	for _, want := range []struct {
		key, model, class, stat string
		growth                  float64
	}{
		// (50 + 10·16) / (50 + 10·1) = 3.5
		{"task task_create", "50 ns + 10 ns · t", "linear", "mean", 3.5},
		{"task task_exec", "2 µs", "constant", "mean", 1},
		// (20 + 100·16) / (20 + 100·1) = 13.5
		{"lock lock_wait", "20 ns + 100 ns · t", "linear", "mean", 13.5},
		// the mean of 480, 500, 500, 500; growth 1, not 495/480
		{"critical body", "495 ns", "constant", "max", 1},
	} {
		m, ok := got[want.key]
		if !ok {
			t.Errorf("no model of %s in %s", want.key, stdout)
			continue
		}
		if m.Model != want.model || m.Class != want.class || m.Stat != want.stat || math.Abs(m.Growth-want.growth) > 1e-9 {
			t.Errorf("%s: model %q class %s stat %s growth %v, want %q %s %s %v", want.key, m.Model, m.Class, m.Stat, m.Growth, want.model, want.class, want.stat, want.growth)
		}
	}
	// The table ranks the lock first, and the constants last at 1.00.
	stdout, _ = gopariStatus(t, 0, "model", "--top", "0", "--predict", "16", dir)
	if !strings.Contains(stdout, "over the measurement at t = 1 (1 for a constant); worst first") {
		t.Errorf("header:\n%s", stdout)
	}
	lines := strings.Split(stdout, "\n")
	if f := strings.Fields(lines[4]); f[0] != "13.50" || !strings.Contains(lines[4], "lock_wait (mean)") {
		t.Errorf("first row: %s", lines[4])
	}
	if !strings.Contains(strings.Join(strings.Fields(stdout), " "), "1.00 480 ns 495 ns 495 ns - - scales body (max)") {
		t.Errorf("the critical body's row:\n%s", stdout)
	}
}
