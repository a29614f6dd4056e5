package e2e

// The runtime's trace mode (issue 13): what it writes when the budget of
// GOPARI_TRACE_MAX_BYTES cuts the stream, when a signal ends the run,
// and how much memory it keeps. The exports and their record counts are
// tested in trace_test.go.

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"gopari/internal/events"
	"gopari/internal/experiment"
	"gopari/internal/profile"
)

// eachRecord calls f with every record of a run's stream, file by file.
func eachRecord(t *testing.T, dir string, f func(rec events.Record)) {
	t.Helper()
	exp, err := events.OpenExperiment(dir)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := exp.Open()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		for {
			rec, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			f(rec)
		}
		r.Close()
	}
}

// streamTotals reads every record of a run's stream: how many, by type,
// and the sum of its DROPPED records.
func streamTotals(t *testing.T, dir string) (records int64, byType map[events.Type]int64, dropped int64) {
	t.Helper()
	byType = map[events.Type]int64{}
	eachRecord(t, dir, func(rec events.Record) {
		records++
		byType[rec.Type]++
		if rec.Type == events.Dropped {
			dropped += int64(rec.Args[0])
		}
	})
	return records, byType, dropped
}

// TestTraceStream checks a whole stream against the profile of the same
// run: one TASK_BEGIN and one TASK_END per task executed, one CREATE_BEGIN
// and CREATE_END per task created, an ENTER and EXIT per visit, the files
// and records profile.json lists.
func TestTraceStream(t *testing.T) {
	needTools(t)
	for _, c := range compilers {
		c := c
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p := build(t, c, "tasks.c")
			for _, threads := range threadCounts {
				prof, r := compareRunTraced(t, p, threads)
				records, byType, dropped := streamTotals(t, r.dir)
				if prof.Events == nil || prof.Mode != "trace" || !prof.Events.Complete {
					t.Fatalf("%s threads: mode %q, events %+v", threads, prof.Mode, prof.Events)
				}
				if records != prof.Events.Records || dropped != 0 || prof.Events.Dropped != 0 {
					t.Errorf("%s threads: %d records read, profile.json says %d; dropped %d, %d",
						threads, records, prof.Events.Records, dropped, prof.Events.Dropped)
				}
				// What a killed run would have been read by is gone
				// once the profile is written.
				for _, f := range []string{experiment.ReserveFile, experiment.StreamFile, experiment.StreamFile + ".tmp"} {
					if _, err := os.Stat(filepath.Join(r.dir, prof.Events.Dir, f)); !os.IsNotExist(err) {
						t.Errorf("%s threads: %s is still there beside the profile: %v", threads, f, err)
					}
				}
				var created, executed, visits int64
				for _, ts := range prof.Tasks {
					executed += int64(ts.Executed)
					if prof.Region(ts.Region).Kind == "task" {
						created += int64(ts.Created)
					}
				}
				// Region phases; not task instances (a task's construct, a
				// taskloop's body) nor a parallel region's fork, implicit
				// tasks and closing barrier, which have records of their own.
				for _, s := range prof.Stats {
					phases := []*profile.Phase{s.Construct, s.Body, s.Barrier, s.Wait}
					switch prof.Region(s.Region).Kind {
					case "task":
						phases[0] = nil
					case "taskloop":
						phases[1] = nil
					case "parallel":
						phases = nil
					}
					for _, ph := range phases {
						if ph != nil {
							visits += int64(ph.Visits)
						}
					}
				}
				var enters, exits int64
				for typ, n := range byType {
					if typ.IsEnter() {
						enters += n
					}
					if typ.IsExit() {
						exits += n
					}
				}
				got := fmt.Sprint(byType[events.TaskBegin]+byType[events.TaskloopBegin], byType[events.TaskEnd]+byType[events.TaskloopEnd],
					byType[events.CreateBegin], byType[events.CreateEnd], enters, exits)
				want := fmt.Sprint(executed, executed, created, created, visits, visits)
				if got != want {
					t.Errorf("%s threads: begins, ends, creations, enters, exits %s; the profile says %s", threads, got, want)
				}
			}
		})
	}
}

// compareRunTraced runs p in trace mode and checks it printed what the
// uninstrumented build prints.
func compareRunTraced(t *testing.T, p program, threads string) (*profile.Profile, result) {
	t.Helper()
	want := run(t, p.orig, []string{"OMP_NUM_THREADS=" + threads})
	got := run(t, p.inst, []string{"OMP_NUM_THREADS=" + threads, "GOPARI_MODE=trace"})
	if got.stdout != want.stdout || got.code != want.code {
		t.Fatalf("instrumented printed %q (exit %d), original %q\nstderr: %s", got.stdout, got.code, want.stdout, got.stderr)
	}
	prof := readProfile(t, got)
	if prof.UnmatchedEvents != 0 {
		t.Errorf("%s threads: %d unmatched events", threads, prof.UnmatchedEvents)
	}
	checkInvariants(t, prof)
	return prof, got
}

// TestTraceBudget cuts a stream of 10^6 tiny tasks (16 MB) at 1 MB: the
// profile stays exact, the files stay within the budget but for the last
// block of each (which says what was dropped at the end), every record
// that is missing is counted by a DROPPED record in the stream and in
// profile.json, and gopari report says so.
func TestTraceBudget(t *testing.T) {
	needTools(t)
	t.Parallel()
	p := build(t, compilers[0], "tiny.c")
	const budget = 1 << 20
	for _, threads := range []string{"1", "2"} {
		r := run(t, p.inst, []string{"OMP_NUM_THREADS=" + threads, "GOPARI_MODE=trace", fmt.Sprintf("GOPARI_TRACE_MAX_BYTES=%d", budget)}, "1000000")
		if r.code != 0 || strings.TrimSpace(r.stdout) != threads {
			t.Fatalf("exit %d, %q, %s", r.code, r.stdout, r.stderr)
		}
		prof := readProfile(t, r)
		var created uint64
		for _, ts := range prof.Tasks {
			created += ts.Created
		}
		n := uint64(1000000)
		if threads == "2" {
			n = 2000000 // a million tasks per thread
		}
		if created != n {
			t.Errorf("%s threads: the profile counts %d tasks, want %d", threads, created, n)
		}
		ev := prof.Events
		records, _, dropped := streamTotals(t, r.dir)
		if ev.Dropped == 0 || dropped != ev.Dropped || records != ev.Records {
			t.Errorf("%s threads: DROPPED records say %d, profile.json %d (%d records read, %d listed)", threads, dropped, ev.Dropped, records, ev.Records)
		}
		// Four records per task; the rest is LOC, TIME and DROPPED.
		if uint64(records+ev.Dropped) < 4*n {
			t.Errorf("%s threads: %d records written and %d dropped, fewer than 4 per task", threads, records, ev.Dropped)
		}
		var files int64
		for _, f := range ev.Files {
			st, err := os.Stat(filepath.Join(r.dir, ev.Dir, f.Name))
			if err != nil || st.Size() != f.Bytes {
				t.Errorf("%s: %v, size %v, profile.json says %d", f.Name, err, st, f.Bytes)
			}
			files++
		}
		if ev.Bytes > budget+files*(events.FileHeaderSize+40) {
			t.Errorf("%s threads: %d bytes written, budget %d", threads, ev.Bytes, budget)
		}
		out, _ := exec.Command(gopariCommand(t), "report", r.dir).CombinedOutput()
		if !strings.Contains(string(out), fmt.Sprintf("%d records dropped", ev.Dropped)) {
			t.Errorf("gopari report does not say what was dropped:\n%s", out)
		}
	}
}

// TestTraceSignal ends a traced run with SIGINT: the stream is written,
// whole, beside the profile.
func TestTraceSignal(t *testing.T) {
	needTools(t)
	childSignalsDefault(t)
	p := build(t, compilers[0], "spin.c")
	res := runUntilRunning(t, []string{"/usr/bin/env", "GOPARI_MODE=trace", p.inst}, syscall.SIGINT)
	if ws := res.state.Sys().(syscall.WaitStatus); !ws.Signaled() || ws.Signal() != syscall.SIGINT {
		t.Errorf("the program ended with %v, want death by SIGINT", res.state)
	}
	prof, err := profile.Read(filepath.Join(res.exp, "profile.json"))
	if err != nil {
		t.Fatal(err)
	}
	if prof.Exit != "SIGINT" || prof.Events == nil {
		t.Fatalf("exit %q, events %+v", prof.Exit, prof.Events)
	}
	records, byType, _ := streamTotals(t, res.exp)
	if records != prof.Events.Records || byType[events.TaskBegin] == 0 {
		t.Errorf("%d records read (%d task begins), profile.json lists %d", records, byType[events.TaskBegin], prof.Events.Records)
	}
}

// TestTraceMemory runs 10^6 and 10^7 tiny tasks per thread at 2 threads
// (2×10^6 and 2×10^7 in all) traced, and checks that the peak memory did
// not grow by 20 MB. What it measures: that the runtime's memory does not
// grow with the events it records. The streams are cut at 16 MB by
// GOPARI_TRACE_MAX_BYTES, so as to spare the disk (10^8 tasks uncut write
// 7 GB); a cut stream fills and hands over the same 256 KiB buffers, it
// only skips their write(2), whose pages belong to the kernel's cache, not
// to the process. make bench's trace part measures 10^6 against 10^8 tasks
// (5.6 MiB both, one thread, on the machine of the README).
func TestTraceMemory(t *testing.T) {
	needTools(t)
	if testing.Short() {
		t.Skip("short")
	}
	t.Parallel()
	p := build(t, compilers[0], "tiny.c")
	peak := func(n string) int64 {
		r := run(t, p.inst, []string{"OMP_NUM_THREADS=2", "GOPARI_MODE=trace", "GOPARI_TRACE_MAX_BYTES=16M"}, n)
		var kb int64
		for _, line := range strings.Split(r.stderr, "\n") {
			if strings.HasPrefix(line, "peak ") {
				fmt.Sscanf(line, "peak %d kB", &kb)
			}
		}
		if kb == 0 {
			t.Fatalf("no peak in %q", r.stderr)
		}
		return kb
	}
	small, large := peak("1000000"), peak("10000000")
	if large > small+20*1024 {
		t.Errorf("peak RSS grew from %d KiB at 10^6 tasks per thread to %d KiB at 10^7", small, large)
	}
	t.Logf("peak RSS %d KiB at 10^6 tasks per thread, %d KiB at 10^7", small, large)
}

// TestTraceDiskFull fills the stream's space: through a file size limit
// (RLIMIT_FSIZE, with SIGXFSZ ignored, so that writes fail with EFBIG),
// and, where this test may mount one, on a tmpfs of 8 MB (ENOSPC). The
// stream stops, its records are counted as dropped from then on, the
// profile is written, exact, and says where the stream stopped, and
// what was written can be read.
func TestTraceDiskFull(t *testing.T) {
	needTools(t)
	t.Parallel()
	p := build(t, compilers[0], "tiny.c")
	// 1 MB per file: dash's ulimit -f counts 512-byte blocks.
	limited := []string{"/bin/sh", "-c", `ulimit -f 2048 && trap "" XFSZ && exec "$0" "$@"`, p.inst, "1000000"}
	r := run(t, limited[0], []string{"OMP_NUM_THREADS=2", "GOPARI_MODE=trace"}, limited[1:]...)
	checkStopped(t, "file size limit", r, r.dir, "file too large")

	mnt := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", mnt).CombinedOutput(); err != nil {
		t.Logf("no tmpfs (%v: %s): the full disk is tested through the file size limit only", err, strings.TrimSpace(string(out)))
		return
	}
	defer exec.Command("umount", mnt).Run()
	exp := filepath.Join(mnt, "exp")
	r = run(t, p.inst, []string{"OMP_NUM_THREADS=2", "GOPARI_MODE=trace", "GOPARI_EXPERIMENT_DIRECTORY=" + exp}, "1000000")
	checkStopped(t, "8 MB tmpfs", r, exp, "no space left on device")
}

// checkStopped checks a run of 10^6 tiny tasks per thread at 2 threads
// whose stream stopped with message why.
func checkStopped(t *testing.T, what string, r result, dir, why string) {
	t.Helper()
	if r.code != 0 || strings.TrimSpace(r.stdout) != "2" {
		t.Fatalf("%s: exit %d, %q, %s", what, r.code, r.stdout, r.stderr)
	}
	prof, err := profile.Read(filepath.Join(dir, "profile.json"))
	if err != nil {
		t.Fatalf("%s: %v\nstderr: %s", what, err, r.stderr)
	}
	var created uint64
	for _, ts := range prof.Tasks {
		created += ts.Created
	}
	ev := prof.Events
	if created != 2000000 || ev == nil || !strings.Contains(ev.Stopped, why) || ev.Dropped == 0 {
		t.Fatalf("%s: %d tasks (want 2000000), events %+v", what, created, ev)
	}
	records, _, dropped := streamTotals(t, dir)
	if records != ev.Records || uint64(records+ev.Dropped) < 4*created {
		t.Errorf("%s: %d records read, profile.json lists %d and %d dropped (%d in DROPPED records): fewer than 4 per task",
			what, records, ev.Records, ev.Dropped, dropped)
	}
	for _, f := range []string{experiment.ReserveFile, experiment.StreamFile} {
		if _, err := os.Stat(filepath.Join(dir, ev.Dir, f)); !os.IsNotExist(err) {
			t.Errorf("%s: %s is still there beside the profile: %v", what, f, err)
		}
	}
}
