//go:build otf2

package e2e

// What the OTF2 and Chrome exports say of real runs (issue 23): archives
// that otf2-print reads without a warning, the regions of combined
// constructs named as Score-P names them, every task's creating thread
// as the program saw it, and a marker for every gap of a stream that
// lost records, on the locations that lost them.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gopari/internal/chrome"
	"gopari/internal/events"
	"gopari/internal/otf2"
	"gopari/internal/profile"
)

// complaint matches what otf2-print says of an archive it finds wrong:
// "otf2-print: warning: invalid parent Comm…", "==ERROR==", and a
// reference it cannot resolve, "Parent: INVALID <1>".
var complaint = regexp.MustCompile(`(?m)^otf2-print:|\bwarning\b|==ERROR==|\bINVALID\b`)

// otf2Print runs otf2-print with opts on the archive in dir and returns
// its output. It fails the test if otf2-print fails, says anything on
// stderr, or prints a warning, an error or an invalid reference.
func otf2Print(t *testing.T, dir string, opts ...string) []byte {
	t.Helper()
	if _, err := exec.LookPath("otf2-print"); err != nil {
		t.Fatalf("otf2-print not installed (Debian otf2-tools), though gopari was built with OTF2")
	}
	args := append(opts, filepath.Join(dir, "traces.otf2"))
	var out, errb bytes.Buffer
	cmd := exec.Command("otf2-print", args...)
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil || errb.Len() > 0 {
		t.Fatalf("otf2-print %s: %v\n%s", strings.Join(args, " "), err, errb.Bytes())
	}
	b := out.Bytes()
	if m := complaint.FindIndex(b); m != nil {
		start := bytes.LastIndexByte(b[:m[0]], '\n') + 1
		end := bytes.IndexByte(b[m[0]:], '\n')
		if end < 0 {
			end = len(b) - m[0]
		}
		t.Fatalf("otf2-print %s: %s", strings.Join(args, " "), b[start:m[0]+end])
	}
	return b
}

// locationNames maps an archive's location IDs to their names' paths
// ("thread 0.1" -> "0.1"), from otf2-print -G.
func locationNames(defs []byte) map[string]string {
	out := map[string]string{}
	for _, m := range regexp.MustCompile(`(?m)^LOCATION +(\d+) +Name: "thread ([^"]*)"`).FindAllSubmatch(defs, -1) {
		out[string(m[1])] = string(m[2])
	}
	return out
}

// TestTraceOTF2Definitions records otf2defs.c (combined constructs,
// tasks of the initial thread outside any parallel region after one,
// taskloops that several threads encounter or run, a combined parallel
// master taskloop, nested teams) at 1, 2 and 4 threads with every
// compiler, and exports it. otf2-print reads the whole archive without a
// warning; each leaf of a combined construct is a region named by its
// own directive, as Score-P names it; and every task's creating thread,
// in its THREAD_TASK_CREATE (on the creating location) and in the
// identity its switches and completion carry, is the thread the program
// saw creating it (for a taskloop's task, encountering the taskloop).
func TestTraceOTF2Definitions(t *testing.T) {
	needTools(t)
	src, err := os.ReadFile(filepath.Join("testdata", "otf2defs.c"))
	if err != nil {
		t.Fatal(err)
	}
	wantRegions := combinedRegions(t, "otf2defs.c", src)
	for _, c := range compilers {
		c := c
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p := build(t, c, "otf2defs.c")
			for _, threads := range []string{"1", "2", "4"} {
				env := []string{"OMP_NUM_THREADS=" + threads, "OMP_MAX_ACTIVE_LEVELS=2", "GOPARI_MODE=trace"}
				want, got := run(t, p.orig, env), run(t, p.inst, env)
				if got.stdout != want.stdout || got.code != 0 || !strings.Contains(got.stdout, "every task seen") {
					t.Fatalf("%s threads: instrumented printed %q (exit %d), original %q\nstderr: %s", threads, got.stdout, got.code, want.stdout, got.stderr)
				}
				exp, err := events.OpenExperiment(got.dir)
				if err != nil {
					t.Fatal(err)
				}
				dir := filepath.Join(t.TempDir(), "otf2")
				if _, err := otf2.Write(dir, exp); err != nil {
					t.Fatal(err)
				}
				otf2Print(t, dir, "-A")
				defs := otf2Print(t, dir, "-G")
				roles := regionRoles(defs)
				for name, role := range wantRegions {
					if roles[name] != role {
						t.Errorf("%s threads: region %q has role %q, want %s", threads, name, roles[name], role)
					}
				}
				for name := range roles {
					if regexp.MustCompile(`^!\$omp parallel (for|sections|master)`).MatchString(name) {
						t.Errorf("%s threads: a region named after the whole combined construct: %s", threads, name)
					}
				}
				tasks, other := otf2Tasks(t, otf2Print(t, dir), locationNames(defs))
				seen := programTasks(got.stderr)
				slices.Sort(tasks)
				if !slices.Equal(tasks, seen) {
					t.Errorf("%s threads: tasks (line creator executor) in the archive:\n%s\nthe program saw:\n%s", threads, strings.Join(tasks, "\n"), strings.Join(seen, "\n"))
				}
				t.Logf("%s threads: %d tasks, %d run by another thread than their creator", threads, len(tasks), other)
			}
		})
	}
}

// combinedRegions returns the regions the combined constructs of src
// define, as Score-P names them, with their roles: "!$omp parallel
// @file:line" PARALLEL, and one for each further leaf.
func combinedRegions(t *testing.T, file string, src []byte) map[string]string {
	t.Helper()
	leaves := map[string][][2]string{
		"parallel for":             {{"parallel", "PARALLEL"}, {"for", "LOOP"}},
		"parallel sections":        {{"parallel", "PARALLEL"}, {"sections", "SECTIONS"}},
		"parallel master taskloop": {{"parallel", "PARALLEL"}, {"master", "MASTER"}, {"taskloop", "LOOP"}},
	}
	out := map[string]string{}
	found := map[string]bool{}
	pragma := regexp.MustCompile(`^\s*#pragma omp (parallel (?:for|sections|master taskloop))\b`)
	for i, line := range strings.Split(string(src), "\n") {
		m := pragma.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		found[m[1]] = true
		for _, l := range leaves[m[1]] {
			out[fmt.Sprintf("!$omp %s @%s:%d", l[0], file, i+1)] = l[1]
		}
	}
	if len(found) != len(leaves) {
		t.Fatalf("%s has %d of the %d combined constructs", file, len(found), len(leaves))
	}
	return out
}

// regionRoles maps the region names of otf2-print -G to their roles.
func regionRoles(defs []byte) map[string]string {
	out := map[string]string{}
	re := regexp.MustCompile(`(?m)^REGION +\d+ +Name: "([^"]*)" <\d+> .*, Role: ([A-Z_0-9]+),`)
	for _, m := range re.FindAllSubmatch(defs, -1) {
		out[string(m[1])] = string(m[2])
	}
	return out
}

// otf2Tasks reads the tasks of otf2-print's events, each named by its
// identity (team, creating thread, generation number): for each task
// that began, "LINE CREATOR EXECUTOR", the line of its region, the path
// of the thread its identity names as its creator and of the location
// of its first switch (its begin; a task is counted whether its end
// was recorded or not). It checks that each THREAD_TASK_CREATE is on
// the location its identity names as creating thread, and returns how
// many tasks another thread than their creator ran.
func otf2Tasks(t *testing.T, evs []byte, locs map[string]string) (tasks []string, other int) {
	t.Helper()
	ident := regexp.MustCompile(`^(THREAD_TASK_CREATE|THREAD_TASK_SWITCH|THREAD_TASK_COMPLETE) +(\d+) +\d+ +Thread Team: "([^"]*)" <\d+>, Creating Thread: (\d+) \("thread ([^"]*)" <\d+>\), Generation Number: (\d+)$`)
	enter := regexp.MustCompile(`^ENTER +(\d+) +\d+ +Region: "!\$omp (?:taskloop )?task @[^:]*:(\d+)"`)
	type task struct{ line, creator, executor string }
	var order []*task
	begun := map[string]*task{}
	pending := map[string]*task{} // location -> the task it switched to first, whose region it enters next
	sc := bufio.NewScanner(bytes.NewReader(evs))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if m := enter.FindStringSubmatch(line); m != nil {
			if tk := pending[m[1]]; tk != nil {
				tk.line = m[2]
				delete(pending, m[1])
			}
			continue
		}
		m := ident.FindStringSubmatch(line)
		if m == nil || m[6] == "0" { // generation 0: an implicit or initial task
			continue
		}
		at, creator, key := locs[m[2]], m[5], m[3]+" "+m[4]+" "+m[6]
		switch m[1] {
		case "THREAD_TASK_CREATE":
			if at != creator {
				t.Errorf("task %s created on thread %s names thread %s as its creator", key, at, creator)
			}
		case "THREAD_TASK_SWITCH":
			if begun[key] == nil {
				tk := &task{creator: creator, executor: at}
				begun[key], pending[m[2]] = tk, tk
				order = append(order, tk)
			}
		}
	}
	for _, tk := range order {
		tasks = append(tasks, tk.line+" "+tk.creator+" "+tk.executor)
		if tk.creator != tk.executor {
			other++
		}
	}
	return tasks, other
}

// programTasks reads the "task LINE CREATOR EXECUTOR" lines a run of
// otf2defs.c printed, sorted, without "task ".
func programTasks(stderr string) []string {
	var out []string
	for _, l := range strings.Split(stderr, "\n") {
		if s, ok := strings.CutPrefix(l, "task "); ok {
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return out
}

// TestTraceGapsMarked records gaps.c, whose thread 0 records much and
// the others little, so that the stream loses records: under a file size
// limit of 300 KB (the stream stops; the other threads never wrote a block,
// events.unwritten counts them), and under GOPARI_TRACE_MAX_BYTES=300K
// (DROPPED records). Both exports mark every gap on the locations of the
// OS thread that lost it: OTF2 a MEASUREMENT_ON_OFF pair whose off
// carries the records lost, Chrome an instant with dropped_records. Per
// OS thread, the records of its gaps are what profile.json says it
// dropped; in all, events.dropped.
func TestTraceGapsMarked(t *testing.T) {
	needTools(t)
	t.Parallel()
	p := build(t, compilers[0], "gaps.c")
	// 300 KB per file (dash's ulimit -f counts 512-byte blocks): one
	// block of 256 KiB is written, the next one fails.
	limited := []string{"/bin/sh", "-c", `ulimit -f 600 && trap "" XFSZ && exec "$0" "$@"`, p.inst, "200000"}
	for _, threads := range []string{"1", "2", "4"} {
		env := []string{"OMP_NUM_THREADS=" + threads, "GOPARI_MODE=trace"}
		stopped := run(t, limited[0], env, limited[1:]...)
		budget := run(t, p.inst, append(env, "GOPARI_TRACE_MAX_BYTES=300K"), "200000")
		for _, r := range []struct {
			what string
			res  result
		}{{"file size limit", stopped}, {"GOPARI_TRACE_MAX_BYTES", budget}} {
			what := r.what + ", " + threads + " threads"
			if r.res.code != 0 || strings.TrimSpace(r.res.stdout) != "200000" {
				t.Fatalf("%s: exit %d, %q\n%s", what, r.res.code, r.res.stdout, r.res.stderr)
			}
			prof := readProfile(t, r.res)
			ev := prof.Events
			if ev == nil || ev.Dropped == 0 {
				t.Fatalf("%s: nothing dropped: %+v", what, ev)
			}
			if r.what == "file size limit" && (ev.Stopped == "" || len(ev.Unwritten) != prof.OSThreads-1) {
				t.Errorf("%s: stopped %q, %d OS threads without a file, want %d", what, ev.Stopped, len(ev.Unwritten), prof.OSThreads-1)
			}
			// What each OS thread lost, as profile.json says.
			want := map[int]int64{}
			for _, f := range ev.Files {
				if f.Dropped > 0 {
					want[f.OSThread] += f.Dropped
				}
			}
			for _, u := range ev.Unwritten {
				want[u.OSThread] += u.Dropped
			}
			exp, err := events.OpenExperiment(r.res.dir)
			if err != nil {
				t.Fatal(err)
			}
			o, c := otf2Gaps(t, exp, prof), chromeGaps(t, exp, prof)
			if fmt.Sprint(o) != fmt.Sprint(want) || fmt.Sprint(c) != fmt.Sprint(want) {
				t.Errorf("%s: records in the gaps by OS thread: OTF2 %v, Chrome %v; profile.json %v (events.dropped %d)", what, o, c, want, ev.Dropped)
			}
		}
	}
}

// otf2Gaps exports exp as OTF2 and returns the records its gaps say were
// lost, by the OS thread of their location (profile.json's os_thread).
// Each gap opens with the count and closes, on its location.
func otf2Gaps(t *testing.T, exp *events.Experiment, prof *profile.Profile) map[int]int64 {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "otf2")
	if _, err := otf2.Write(dir, exp); err != nil {
		t.Fatal(err)
	}
	locs := locationNames(otf2Print(t, dir, "-G"))
	osOf := map[string]int{}
	for _, th := range prof.Threads {
		osOf[th.Path] = th.OSThread
	}
	out := map[int]int64{}
	open := map[string]bool{}
	mark := regexp.MustCompile(`(?m)^MEASUREMENT_ON_OFF +(\d+) +\d+ +Mode: (?:OFF\s+ADDITIONAL ATTRIBUTES: \("dropped records" <\d+>; UINT64; (\d+)\)|(ON))$`)
	for _, m := range mark.FindAllSubmatch(otf2Print(t, dir), -1) {
		loc := string(m[1])
		if string(m[3]) == "ON" {
			if !open[loc] {
				t.Errorf("location %s: measurement on without a gap", locs[loc])
			}
			open[loc] = false
			continue
		}
		if open[loc] {
			t.Errorf("location %s: a gap inside a gap", locs[loc])
		}
		open[loc] = true
		n, _ := strconv.ParseInt(string(m[2]), 10, 64)
		out[osOf[locs[loc]]] += n
	}
	for loc, o := range open {
		if o {
			t.Errorf("location %s: a gap never closed", locs[loc])
		}
	}
	return out
}

// chromeGaps exports exp as Chrome JSON and returns the records its gap
// instants say were lost, by the OS thread of their track.
func chromeGaps(t *testing.T, exp *events.Experiment, prof *profile.Profile) map[int]int64 {
	t.Helper()
	var js bytes.Buffer
	if _, err := chrome.Write(&js, exp); err != nil {
		t.Fatal(err)
	}
	if _, err := chrome.Check(bytes.NewReader(js.Bytes())); err != nil {
		t.Fatalf("Chrome JSON: %v", err)
	}
	var doc struct {
		TraceEvents []struct {
			Ph   string         `json:"ph"`
			Tid  int            `json:"tid"`
			Args map[string]any `json:"args"`
		} `json:"traceEvents"`
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	out := map[int]int64{}
	for _, e := range doc.TraceEvents {
		if n, ok := e.Args["dropped_records"].(float64); ok && e.Ph == "i" {
			out[prof.Threads[e.Tid].OSThread] += int64(n)
		}
	}
	return out
}
