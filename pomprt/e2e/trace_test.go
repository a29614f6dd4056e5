//go:build otf2

package e2e

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"syscall"
	"testing"

	"gopari/internal/chrome"
	"gopari/internal/events"
	"gopari/internal/otf2"
	"gopari/internal/profile"
)

// TestTraceCounts is issue 13's acceptance: a traced run of a program
// with recursive tasks, taskwait, taskgroup, taskloop, undeferred tasks,
// nested parallel regions, locks and critical sections, at 1, 2 and 4
// threads with every compiler, exports to an OTF2 archive that otf2-print
// reads, whose records by type equal what the profile counts, exactly;
// and to Chrome JSON that chrome.Check accepts.
func TestTraceCounts(t *testing.T) {
	needTools(t)
	if _, err := exec.LookPath("otf2-print"); err != nil {
		t.Skip("otf2-print not installed (Debian otf2-tools)")
	}
	for _, c := range compilers {
		c := c
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p := build(t, c, "traced.c")
			for _, threads := range []string{"1", "2", "4"} {
				env := []string{"OMP_NUM_THREADS=" + threads, "GOPARI_MODE=trace", "OMP_MAX_ACTIVE_LEVELS=2"}
				want, got := run(t, p.orig, env), run(t, p.inst, env)
				if got.stdout != want.stdout || got.code != want.code {
					t.Fatalf("%v: instrumented printed %q (exit %d), original %q (exit %d)\nstderr: %s",
						env, got.stdout, got.code, want.stdout, want.code, got.stderr)
				}
				exp, err := events.OpenExperiment(got.dir)
				if err != nil {
					t.Fatalf("%s threads: a run in trace mode wrote no event stream: %v\nstderr: %s", threads, err, got.stderr)
				}
				prof := readProfile(t, got)
				counts := exportCounts(t, exp)
				for k, v := range expectedCounts(prof) {
					if counts[k] != v {
						t.Errorf("%s threads: %d %s records, the profile says %d", threads, counts[k], k, v)
					}
				}
			}
		})
	}
}

// expectedCounts derives the OTF2 record counts from a profile, by the
// mapping of internal/otf2 (README, "gopari trace").
func expectedCounts(p *profile.Profile) map[string]int64 {
	kind := map[int]string{}
	for _, r := range p.Regions {
		kind[r.ID] = r.Kind
	}
	var enter, fork, implicit, created, executed, susp, acquired int64
	for _, s := range p.Stats {
		for _, ph := range []*profile.Phase{s.Construct, s.Body, s.Barrier, s.Wait} {
			if ph != nil {
				enter += int64(ph.Visits)
			}
		}
		switch kind[s.Region] {
		case "parallel":
			if s.Construct != nil {
				enter -= int64(s.Construct.Visits) // fork..join is THREAD_FORK/JOIN, not a region
				fork += int64(s.Construct.Visits)
			}
			if s.Body != nil {
				implicit += int64(s.Body.Visits)
			}
		case "critical":
			if s.Body != nil {
				acquired += int64(s.Body.Visits)
			}
		}
		acquired += int64(s.LockAcquired)
		susp += int64(s.Suspensions)
	}
	for _, ts := range p.Tasks {
		executed += int64(ts.Executed)
		if kind[ts.Region] == "task" {
			created += int64(ts.Created)
		}
	}
	return map[string]int64{
		"ENTER":                enter + created,
		"LEAVE":                enter + created,
		"THREAD_FORK":          fork,
		"THREAD_JOIN":          fork,
		"THREAD_TEAM_BEGIN":    implicit,
		"THREAD_TEAM_END":      implicit,
		"THREAD_TASK_CREATE":   created,
		"THREAD_TASK_COMPLETE": executed,
		"THREAD_TASK_SWITCH":   executed + susp,
		"THREAD_ACQUIRE_LOCK":  acquired,
		"THREAD_RELEASE_LOCK":  acquired,
	}
}

// exportCounts writes exp as OTF2 and Chrome JSON, checks the JSON and
// the archive (otf2-print reads it all without a warning), and counts
// otf2-print's records by type.
func exportCounts(t *testing.T, exp *events.Experiment) map[string]int64 {
	t.Helper()
	dir := t.TempDir()
	if _, err := otf2.Write(filepath.Join(dir, "otf2"), exp); err != nil {
		t.Fatal(err)
	}
	var js bytes.Buffer
	if _, err := chrome.Write(&js, exp); err != nil {
		t.Fatal(err)
	}
	if _, err := chrome.Check(&js); err != nil {
		t.Errorf("Chrome JSON: %v", err)
	}
	otf2Print(t, filepath.Join(dir, "otf2"), "-A")
	out := otf2Print(t, filepath.Join(dir, "otf2"))
	counts := map[string]int64{}
	line := regexp.MustCompile(`^([A-Z_]+)\s+\d+\s+\d+`)
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if m := line.FindStringSubmatch(sc.Text()); m != nil {
			counts[m[1]]++
		}
	}
	os.RemoveAll(dir)
	return counts
}

// TestTraceExits ends traced runs as TestTraceSignal and the exit tests
// do: exit() from inside a task, SIGTERM and SIGHUP. Each run's stream
// exports to OTF2 that otf2-print reads, and to Chrome JSON that
// chrome.Check accepts.
func TestTraceExits(t *testing.T) {
	needTools(t)
	if _, err := exec.LookPath("otf2-print"); err != nil {
		t.Fatalf("otf2-print not installed (Debian otf2-tools), though gopari was built with OTF2")
	}
	t.Parallel()
	childSignalsDefault(t) // under nohup, SIGHUP would not end the program
	c := compilers[0]
	exitTask := build(t, c, "exit_task.c")
	r := run(t, exitTask.inst, []string{"OMP_NUM_THREADS=2", "GOPARI_MODE=trace"})
	exportRun(t, "exit() in a task", r.dir)
	spin := build(t, c, "spin.c")
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGHUP} {
		res := runUntilRunning(t, []string{"/usr/bin/env", "GOPARI_MODE=trace", spin.inst}, sig)
		if ws := res.state.Sys().(syscall.WaitStatus); !ws.Signaled() || ws.Signal() != sig {
			t.Errorf("%v: the program ended with %v", sig, res.state)
		}
		exportRun(t, sig.String(), res.exp)
	}
}

// exportRun exports the traced run in dir and checks what otf2-print
// reads of it.
func exportRun(t *testing.T, what, dir string) {
	t.Helper()
	prof, err := profile.Read(filepath.Join(dir, "profile.json"))
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	exp, err := events.OpenExperiment(dir)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	counts := exportCounts(t, exp)
	if counts["ENTER"] == 0 || counts["THREAD_FORK"] == 0 {
		t.Errorf("%s (exit %s): otf2-print read %v", what, prof.Exit, counts)
	}
}
