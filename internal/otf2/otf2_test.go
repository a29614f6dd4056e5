//go:build otf2

package otf2

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"gopari/internal/events"
	"gopari/internal/events/evtest"
)

// printCounts runs otf2-print on an archive and counts its records by
// type; the run must succeed without complaint.
func printCounts(t *testing.T, dir string) map[string]int64 {
	t.Helper()
	if _, err := exec.LookPath("otf2-print"); err != nil {
		t.Skip("otf2-print not installed (Debian otf2-tools)")
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.Command("otf2-print", filepath.Join(dir, "traces.otf2"))
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil || stderr.Len() > 0 {
		t.Fatalf("otf2-print: %v\n%s", err, stderr.Bytes())
	}
	counts := map[string]int64{}
	line := regexp.MustCompile(`^([A-Z_]+)\s+\d+\s+\d+`)
	sc := bufio.NewScanner(&stdout)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if m := line.FindStringSubmatch(sc.Text()); m != nil {
			counts[m[1]]++
		}
	}
	return counts
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
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%d %s records, want %d", got[k], k, v)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
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
	exp, err := events.OpenExperiment(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "otf2")
	if _, err := Write(out, exp); err != nil {
		t.Fatal(err)
	}
	got := printCounts(t, out)
	for _, p := range [][2]string{{"ENTER", "LEAVE"}, {"THREAD_TEAM_BEGIN", "THREAD_TEAM_END"}, {"THREAD_FORK", "THREAD_JOIN"}} {
		if got[p[0]] == 0 || got[p[0]] != got[p[1]] {
			t.Errorf("%d %s, %d %s", got[p[0]], p[0], got[p[1]], p[1])
		}
	}
}
