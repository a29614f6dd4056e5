//go:build otf2

package otf2

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gopari/internal/events"
	"gopari/internal/events/evtest"
	"gopari/internal/profile"
	"gopari/internal/timeline"
)

// printCounts runs otf2-print on an archive and counts its records by
// type; the run must succeed without complaint.
func printCounts(t *testing.T, dir string) map[string]int64 {
	t.Helper()
	counts := map[string]int64{}
	line := regexp.MustCompile(`^([A-Z_]+)\s+\d+\s+\d+`)
	sc := bufio.NewScanner(bytes.NewReader(otf2Print(t, dir)))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if m := line.FindStringSubmatch(sc.Text()); m != nil {
			counts[m[1]]++
		}
	}
	return counts
}

// complaint matches what otf2-print says of an archive it finds wrong:
// "otf2-print: warning: invalid parent Comm…", "==ERROR==", and a
// reference it cannot resolve, "Parent: INVALID <1>".
var complaint = regexp.MustCompile(`(?m)^otf2-print:|\bwarning\b|==ERROR==|\bINVALID\b`)

// otf2Print runs otf2-print on an archive with the given options and
// returns its output; it fails the test if otf2-print fails or says
// anything on stderr, or a warning or error on stdout.
func otf2Print(t *testing.T, dir string, opts ...string) []byte {
	t.Helper()
	if _, err := exec.LookPath("otf2-print"); err != nil {
		t.Skip("otf2-print not installed (Debian otf2-tools)")
	}
	var stdout, stderr bytes.Buffer
	args := append(opts, filepath.Join(dir, "traces.otf2"))
	cmd := exec.Command("otf2-print", args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil || stderr.Len() > 0 {
		t.Fatalf("otf2-print %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	if m := complaint.FindIndex(stdout.Bytes()); m != nil {
		b := stdout.Bytes()
		start := bytes.LastIndexByte(b[:m[0]], '\n') + 1
		end := bytes.IndexByte(b[m[0]:], '\n')
		if end < 0 {
			end = len(b) - m[0]
		}
		t.Fatalf("otf2-print %s: %s", strings.Join(args, " "), b[start:m[0]+end])
	}
	return stdout.Bytes()
}

// streamCounts counts the records of a run's stream by type, reading the
// files directly.
func streamCounts(t *testing.T, exp *events.Experiment) map[events.Type]int64 {
	t.Helper()
	rs, err := exp.Open()
	if err != nil {
		t.Fatal(err)
	}
	out := map[events.Type]int64{}
	for _, r := range rs {
		for {
			rec, err := r.Next()
			if err != nil {
				break
			}
			out[rec.Type]++
		}
		r.Close()
	}
	return out
}

// export writes dir's archive and checks that otf2-print reads it, that
// it counts what the exporter says it wrote, and that the counts follow
// from the stream's: the table in the package comment.
func export(t *testing.T, dir string, switches int64) map[string]int64 {
	t.Helper()
	exp, err := events.OpenExperiment(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "otf2")
	st, err := Write(out, exp)
	if err != nil {
		t.Fatal(err)
	}
	got := printCounts(t, out)
	otf2Print(t, out, "-A")
	for k, v := range st.Records {
		if got[k] != v {
			t.Errorf("otf2-print shows %d %s records, the exporter wrote %d", got[k], k, v)
		}
	}
	n := streamCounts(t, exp)
	enters := n[events.EnterConstruct] + n[events.EnterBody] + n[events.EnterBarrier] + n[events.EnterWait] +
		n[events.ChunkBegin] + n[events.CreateBegin] + n[events.TaskBegin] + n[events.TaskloopBegin] + 2*n[events.ImplicitBegin]
	want := map[string]int64{
		"ENTER":                enters,
		"LEAVE":                enters,
		"THREAD_FORK":          n[events.Fork],
		"THREAD_JOIN":          n[events.Join],
		"THREAD_TEAM_BEGIN":    n[events.ImplicitBegin],
		"THREAD_TEAM_END":      n[events.ImplicitBegin],
		"THREAD_TASK_CREATE":   n[events.CreateBegin],
		"THREAD_TASK_COMPLETE": n[events.TaskEnd] + n[events.TaskloopEnd],
		"THREAD_TASK_SWITCH":   switches,
		"THREAD_ACQUIRE_LOCK":  n[events.LockAcquired],
		"THREAD_RELEASE_LOCK":  n[events.LockReleased],
		"MEASUREMENT_ON_OFF":   2 * n[events.Dropped],
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%d %s records, want %d", got[k], k, v)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok && got[k] > 0 {
			t.Errorf("unexpected %d %s records", got[k], k)
		}
	}
	return got
}

func TestFib(t *testing.T) {
	for _, threads := range []int{1, 2, 4} {
		dir := filepath.Join(t.TempDir(), "exp")
		_, c, err := evtest.Fib(dir, 12, 3, threads, 20, func(n int) bool { return n == 4 })
		if err != nil {
			t.Fatal(err)
		}
		// Every task begins with a switch to it, and its end switches back
		// to the task it suspended.
		got := export(t, dir, 2*int64(c.Tasks))
		if got["THREAD_TASK_CREATE"] != int64(c.Tasks) || got["THREAD_TEAM_BEGIN"] != int64(threads) {
			t.Errorf("%d threads: %v", threads, got)
		}
	}
}

func TestMixed(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "exp")
	if _, err := evtest.Mixed(dir); err != nil {
		t.Fatal(err)
	}
	// 4 task begins, 4 ends that resume a task, a RESUME on one thread
	// and the task under it resuming on the other.
	export(t, dir, 10)
}

// TestNoOverwrite checks that an existing directory is never replaced
// and that a failed export leaves nothing behind.
func TestNoOverwrite(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "exp")
	if _, err := evtest.Mixed(dir); err != nil {
		t.Fatal(err)
	}
	exp, err := events.OpenExperiment(dir)
	if err != nil {
		t.Fatal(err)
	}
	parent := t.TempDir()
	out := filepath.Join(parent, "out")
	os.Mkdir(out, 0o755)
	if _, err := Write(out, exp); err == nil || !strings.Contains(err.Error(), "exists") {
		t.Errorf("existing directory: %v", err)
	}
	// Damage the stream: the export fails and leaves only out.
	f := exp.FilePath(exp.Events.Files[1])
	st, _ := os.Stat(f)
	os.Truncate(f, st.Size()-4)
	if _, err := Write(filepath.Join(parent, "new"), exp); err == nil || !strings.Contains(err.Error(), "truncated block") {
		t.Errorf("damaged stream: %v", err)
	}
	if ents, _ := os.ReadDir(parent); len(ents) != 1 {
		t.Errorf("%d entries left in %s", len(ents), parent)
	}
}

// TestStopped checks that a run stopped in the middle gives an archive
// whose records pair up: every ENTER has its LEAVE, every team begin its
// end, every fork its join.
func TestStopped(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "exp")
	if _, err := evtest.Stopped(dir); err != nil {
		t.Fatal(err)
	}
	out := writeArchive(t, dir)
	got := printCounts(t, out)
	for _, p := range [][2]string{{"ENTER", "LEAVE"}, {"THREAD_TEAM_BEGIN", "THREAD_TEAM_END"}, {"THREAD_FORK", "THREAD_JOIN"}} {
		if got[p[0]] == 0 || got[p[0]] != got[p[1]] {
			t.Errorf("%d %s, %d %s", got[p[0]], p[0], got[p[1]], p[1])
		}
	}
}

// TestLocationWithoutEvents: a location whose records were all dropped
// (or that never recorded) still gets an event file, without which
// otf2-print cannot read the archive.
func TestLocationWithoutEvents(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "exp")
	s, err := evtest.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	par := s.Region("parallel", "x.c", 1)
	a := s.Thread()
	s.Loc("0", 0)
	a.Put(events.Loc, 0, s.Loc("0.0", 0))
	a.Put(events.EnterConstruct, par)
	a.Put(events.ExitConstruct, par)
	s.Loc("0.1", 0)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	got := export(t, dir, 0)
	if got["ENTER"] != 1 {
		t.Errorf("%v", got)
	}
}

// TestDroppedMarked: the records the runtime dropped are a gap in the
// archive, MEASUREMENT_ON_OFF off with their number, then on.
func TestDroppedMarked(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "exp")
	if _, err := evtest.Mixed(dir); err != nil {
		t.Fatal(err)
	}
	out := writeArchive(t, dir)
	printCounts(t, out)
	b, err := exec.Command("otf2-print", filepath.Join(out, "traces.otf2")).Output()
	if err != nil {
		t.Fatal(err)
	}
	gap := regexp.MustCompile(`MEASUREMENT_ON_OFF +1 +(\d+) +Mode: OFF\s+ADDITIONAL ATTRIBUTES: \("dropped records" <0>; UINT64; 5\)(?s:.*)MEASUREMENT_ON_OFF +1 +(\d+) +Mode: ON`)
	if m := gap.FindSubmatch(b); m == nil {
		t.Errorf("no gap of 5 records on location 1:\n%s", b)
	} else if off, on := string(m[1]), string(m[2]); off > on || len(off) != len(on) {
		t.Errorf("the gap runs from %s to %s", off, on)
	}
}

// TestJob exports a job of two ranks, each the Mixed run, rank 1 started
// 1 ms of wall-clock time after rank 0: one archive, a location group per
// rank with its four threads, twice the records of one run, and rank 1's
// events 1 ms after rank 0's.
func TestJob(t *testing.T) {
	dir, ranks := mixedJob(t)
	out := filepath.Join(t.TempDir(), "otf2")
	st, err := WriteJob(out, "ompi-7", ranks)
	if err != nil {
		t.Fatal(err)
	}
	one := export(t, filepath.Join(dir, "rank-00000"), 10)
	got := printCounts(t, out)
	for k, v := range one {
		if got[k] != 2*v || st.Records[k] != 2*v {
			t.Errorf("%s: %d records (exporter: %d), want twice %d", k, got[k], st.Records[k], v)
		}
	}
	defs, err := exec.Command("otf2-print", "-G", filepath.Join(out, "traces.otf2")).Output()
	if err != nil {
		t.Fatal(err)
	}
	groups := regexp.MustCompile(`(?m)^LOCATION_GROUP +(\d+) +Name: "([^"]*)"`).FindAllSubmatch(defs, -1)
	if len(groups) != 2 || string(groups[0][2]) != "MPI rank 0 (pid 4242)" || string(groups[1][2]) != "MPI rank 1 (pid 4243)" {
		t.Errorf("location groups %q\n%s", groups, defs)
	}
	locs := regexp.MustCompile(`(?m)^LOCATION +(\d+) +Name: "thread ([0-9.]+)".*Group: "MPI rank (\d)`).FindAllSubmatch(defs, -1)
	if len(locs) != 8 {
		t.Fatalf("%d locations\n%s", len(locs), defs)
	}
	for i, l := range locs {
		if want := strconv.Itoa(i / 4); string(l[3]) != want {
			t.Errorf("location %s (thread %s) in rank %s, want %s", l[1], l[2], l[3], want)
		}
	}
	if !bytes.Contains(defs, []byte("Ticks per Seconds: 1000000000, Global Offset: 10, Length: 1000510")) {
		t.Errorf("clock properties:\n%s", defs)
	}
	// Each rank's fork: its first event, 10 ticks of 1 ns after its start.
	evs, _ := exec.Command("otf2-print", filepath.Join(out, "traces.otf2")).Output()
	forks := regexp.MustCompile(`(?m)^THREAD_FORK +(\d+) +(\d+)`).FindAllSubmatch(evs, -1)
	if len(forks) != 4 || string(forks[0][1]) != "0" || string(forks[0][2]) != "10" {
		t.Fatalf("forks %q", forks)
	}
	for _, f := range forks {
		if string(f[1]) == "4" && string(f[2]) != "1000010" {
			t.Errorf("rank 1's first fork at %s, want 1000010", f[2])
		}
	}
}

// TestJoinDropped: the records from the middle of a parallel region to
// the end were dropped, its JOIN among them; the thread's last block
// says so at the encountering location. The archive closes the team at
// the end, its fork no earlier than the gap marked there before it.
func TestJoinDropped(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "exp")
	s, err := evtest.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	par := s.Region("parallel", "x.c", 1)
	a := s.Thread()
	a.Put(events.Loc, 0, s.Loc("0", 0))
	a.Put(events.Fork, par, 0)
	a.Put(events.Loc, 0, s.Loc("0.0", 0))
	a.Put(events.ImplicitBegin, par, a.NewID(), 0)
	a.Wait(100)
	a.Put(events.Loc, 0, s.Loc("0", 0))
	a.Put(events.Dropped, 0, 7)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	got := printCounts(t, writeArchive(t, dir))
	if got["THREAD_FORK"] != 1 || got["THREAD_JOIN"] != 1 || got["MEASUREMENT_ON_OFF"] != 2 || got["THREAD_TEAM_END"] != 1 {
		t.Errorf("%v", got)
	}
}

// writeArchive exports the run in dir and returns the archive's directory.
func writeArchive(t *testing.T, dir string) string {
	t.Helper()
	exp, err := events.OpenExperiment(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "otf2")
	if _, err := Write(out, exp); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestCommsParentFirst: the initial thread forks a team, one of whose
// threads forks a nested team; after the join, the initial thread
// creates a task outside any parallel region, so that its own team is
// used last. Every team is defined after its parent, as otf2-print
// wants (it warns "invalid parent Comm" otherwise).
func TestCommsParentFirst(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "exp")
	s, err := evtest.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	par, inner := s.Region("parallel", "x.c", 1), s.Region("parallel", "x.c", 3)
	task := s.Region("task", "x.c", 9)
	a, b := s.Thread(), s.Thread()
	a.Put(events.Loc, 0, s.Loc("0", 0))
	a.Put(events.Fork, par, 0)
	b.T = a.T
	a.Put(events.Loc, 0, s.Loc("0.0", 0))
	b.Put(events.Loc, 0, s.Loc("0.1", 1))
	ia, ib := a.NewID(), b.NewID()
	a.Put(events.ImplicitBegin, par, ia, 0)
	b.Put(events.ImplicitBegin, par, ib, 0)
	b.Put(events.Fork, inner, ib)
	b.Put(events.Loc, 0, s.Loc("0.1.0", 1))
	in := b.NewID()
	b.Put(events.ImplicitBegin, inner, in, ib)
	b.Put(events.ImplicitEnd, inner, in)
	b.Put(events.Loc, 0, s.Loc("0.1", 1))
	b.Put(events.Join, inner, ib)
	a.Put(events.ImplicitEnd, par, ia)
	b.Put(events.ImplicitEnd, par, ib)
	a.T = max(a.T, b.T)
	a.Put(events.Loc, 0, s.Loc("0", 0))
	a.Put(events.Join, par, 0)
	tk := a.NewID()
	a.Put(events.CreateBegin, task, tk)
	a.Put(events.CreateEnd, task, tk)
	a.Put(events.TaskBegin, task, tk, 0)
	a.Put(events.TaskEnd, task, tk)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	got := export(t, dir, 2)
	if got["THREAD_TASK_CREATE"] != 1 {
		t.Errorf("%v", got)
	}
	defs := otf2Print(t, writeArchive(t, dir), "-G")
	comms := regexp.MustCompile(`(?m)^COMM +(\d+) +Name: "([^"]*)".*Parent: (?:"([^"]*)"|UNDEFINED)`).FindAllSubmatch(defs, -1)
	var order []string
	defined := map[string]bool{}
	for _, c := range comms {
		name, parent := string(c[2]), string(c[3])
		if parent != "" && !defined[parent] {
			t.Errorf("team %q is defined before its parent %q", name, parent)
		}
		defined[name] = true
		order = append(order, name+" < "+parent)
	}
	want := []string{"initial thread 0 < ", "team of thread 0 < initial thread 0", "team of thread 0.1 < team of thread 0"}
	if strings.Join(order, "; ") != strings.Join(want, "; ") {
		t.Errorf("teams (name < parent) %q, want %q\n%s", order, want, defs)
	}
}

// TestTaskloopCreator: thread 0.1 encounters a taskloop whose two tasks
// run on threads 0.0 and 0.1. Both tasks were created by thread 1 of
// the team, whichever thread ran them: their identity in every record
// that names them (switches, completion) says creating thread 1.
func TestTaskloopCreator(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "exp")
	s, err := evtest.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	par, tl := s.Region("parallel", "x.c", 1), s.Region("taskloop", "x.c", 4)
	a, b := s.Thread(), s.Thread()
	a.Put(events.Loc, 0, s.Loc("0", 0))
	a.Put(events.Fork, par, 0)
	b.T = a.T
	a.Put(events.Loc, 0, s.Loc("0.0", 0))
	b.Put(events.Loc, 0, s.Loc("0.1", 1))
	ia, ib := a.NewID(), b.NewID()
	a.Put(events.ImplicitBegin, par, ia, 0)
	b.Put(events.ImplicitBegin, par, ib, 0)
	b.Put(events.EnterConstruct, tl)
	a.T = max(a.T, b.T)
	l1, l2 := b.NewID(), b.NewID()
	a.Put(events.TaskloopBegin, tl, l1, ib, 0)
	b.Put(events.TaskloopBegin, tl, l2, ib, 4)
	a.Put(events.TaskloopEnd, tl, l1, 3)
	b.Put(events.TaskloopEnd, tl, l2, 7)
	b.Put(events.ExitConstruct, tl)
	a.Put(events.ImplicitEnd, par, ia)
	b.Put(events.ImplicitEnd, par, ib)
	a.T = max(a.T, b.T)
	a.Put(events.Loc, 0, s.Loc("0", 0))
	a.Put(events.Join, par, 0)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	export(t, dir, 4)
	evs := otf2Print(t, writeArchive(t, dir))
	named := regexp.MustCompile(`(?m)^(THREAD_TASK_SWITCH|THREAD_TASK_COMPLETE) +(\d+) .*Creating Thread: (\d+) .*Generation Number: ([1-9]\d*)$`).FindAllSubmatch(evs, -1)
	ran := map[string]bool{}
	for _, m := range named {
		ran[string(m[2])] = true
		if string(m[3]) != "1" {
			t.Errorf("%s on location %s names creating thread %s, want 1", m[1], m[2], m[3])
		}
	}
	if len(named) != 4 || len(ran) != 2 {
		t.Errorf("%d records name the taskloop's tasks, on locations %v; want 4 on 2\n%s", len(named), ran, evs)
	}
}

// TestCombinedNames: the leaves of a combined construct are named as
// Score-P names them, each by its own directive.
func TestCombinedNames(t *testing.T) {
	for _, tc := range []struct {
		kind, name string
		flags      []string
		want       string
	}{
		{"parallel", "parallel for", []string{"combined"}, "!$omp parallel @c.c:3"},
		{"for", "parallel for", []string{"combined"}, "!$omp for @c.c:3"},
		{"for", "parallel for simd", []string{"combined"}, "!$omp for simd @c.c:3"},
		{"sections", "parallel sections", []string{"combined"}, "!$omp sections @c.c:3"},
		{"master", "parallel masked taskloop", []string{"combined"}, "!$omp masked @c.c:3"},
		{"taskloop", "parallel master taskloop simd", []string{"combined"}, "!$omp taskloop simd @c.c:3"},
		{"loop", "parallel loop", []string{"combined"}, "!$omp loop @c.c:3"},
		{"for", "for simd", nil, "!$omp for simd @c.c:3"}, // not combined: its name
		{"master", "masked", nil, "!$omp masked @c.c:3"},
	} {
		r := &profile.Region{ID: 1, Kind: tc.kind, Name: tc.name, File: "c.c", BeginLine: 3, EndLine: 5, Flags: tc.flags}
		if d := define(r, uint8(timeline.FrameConstruct)); d.name != tc.want {
			t.Errorf("%s of %s: %q, want %q", tc.kind, tc.name, d.name, tc.want)
		}
	}
}

// TestGapsMarked: every gap of a run that lost records in every way
// (evtest.Gaps) is a MEASUREMENT_ON_OFF pair on its location, off with
// the records lost as its attribute, on at its end: the DROPPED record's
// gap and the end gaps of the stream that stopped, up to the end of the
// run, on locations 0.0 (5 and 3 records), 0.1 (7) and 0.2 (11, its OS
// thread wrote no file): 26, as profile.json counts.
func TestGapsMarked(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "exp")
	s, err := evtest.Gaps(dir)
	if err != nil {
		t.Fatal(err)
	}
	exp, err := events.OpenExperiment(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := writeArchive(t, dir)
	evs := otf2Print(t, out)
	marks := regexp.MustCompile(`(?m)^MEASUREMENT_ON_OFF +(\d+) +(\d+) +Mode: (OFF\s+ADDITIONAL ATTRIBUTES: \("dropped records" <\d+>; UINT64; (\d+)\)|ON)$`).FindAllSubmatch(evs, -1)
	open := map[string]uint64{} // location -> time of its open gap
	which := map[string]int{}   // location -> its open gap's index in gaps
	var gaps []string
	var sum int64
	end := strconv.FormatUint(s.Tick0+evtest.GapsWallNs, 10)
	for _, m := range marks {
		loc, at := string(m[1]), string(m[2])
		ts, _ := strconv.ParseUint(at, 10, 64)
		if string(m[3]) == "ON" {
			from, ok := open[loc]
			if !ok || ts < from {
				t.Errorf("location %s: measurement on at %d without a gap open before", loc, ts)
			}
			delete(open, loc)
			if at == end {
				gaps[which[loc]] += " to the end"
			}
			continue
		}
		if _, ok := open[loc]; ok {
			t.Errorf("location %s: a gap opens inside another", loc)
		}
		open[loc], which[loc] = ts, len(gaps)
		n, _ := strconv.ParseInt(string(m[4]), 10, 64)
		sum += n
		gaps = append(gaps, loc+": "+string(m[4]))
	}
	slices.Sort(gaps)
	want := []string{"1: 3 to the end", "1: 5", "2: 7 to the end", "3: 11 to the end"}
	if len(open) > 0 || !slices.Equal(gaps, want) || sum != exp.Events.Dropped || sum != 26 {
		t.Errorf("gaps %q (open %v), %d records; want %q, %d records (profile.json)\n%s", gaps, open, sum, want, exp.Events.Dropped, evs)
	}
}

// mixedJob writes a job of two ranks, each the Mixed run, rank 1 started
// 1 ms of wall-clock time after rank 0, and opens its ranks; it returns
// the job's directory and the ranks.
func mixedJob(t *testing.T) (string, []events.Rank) {
	t.Helper()
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
	return dir, ranks
}
