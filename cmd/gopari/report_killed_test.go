package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopari/internal/chrome"
	"gopari/internal/events"
	"gopari/internal/events/evtest"
	"gopari/internal/experiment"
)

// taskEnds counts the TASK_END records an experiment's readers return.
func taskEnds(t *testing.T, dir string) int {
	t.Helper()
	exp, err := events.OpenExperiment(dir)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := exp.Open()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range rs {
		for {
			rec, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			if rec.Type == events.TaskEnd {
				n++
			}
		}
		r.Close()
	}
	return n
}

// TestKilledCommands runs report, trace and grains on a run killed
// before it wrote its profile, whose thread 1 was cut in the middle of a
// block: each writes what the complete blocks hold, says that the run
// was killed, what is missing and what was cut, and ends with exit
// status 3. What needs the profile (--json, --html) says why there is
// none.
func TestKilledCommands(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "exp")
	if _, _, err := evtest.FibCreate(dir, 10, 2, 2, 1, 100, nil); err != nil {
		t.Fatal(err)
	}
	if err := evtest.Kill(dir); err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(dir, "events", "thread-000001.evt")
	st, _ := os.Stat(f)
	os.Truncate(f, st.Size()-8)
	ends := taskEnds(t, dir)
	if ends == 0 || ends >= 108 {
		t.Fatalf("%d task ends left of 108", ends)
	}

	code, stdout, stderr := gopari(t, "report", dir)
	if code != 3 || stderr != "" {
		t.Fatalf("report: exit %d, stderr %q", code, stderr)
	}
	for _, want := range []string{"NO PROFILE: ./synthetic (pid 4242) was killed before it wrote its profile", "PARTIAL", "missing:",
		"thread-000001.evt: its last ", "whose write the kill cut short (not read)", experiment.ReserveFile + ": 4096 bytes",
		"Tasks in the stream (partial)", "fib.c:10"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("report does not say %q:\n%s", want, stdout)
		}
	}
	_, tasks, _ := strings.Cut(stdout, "Tasks in the stream")
	completed := 0
	for _, l := range strings.Split(tasks, "\n")[2:] {
		f := strings.Fields(l)
		if len(f) < 3 || !strings.HasPrefix(f[len(f)-2], "fib.c:") {
			break
		}
		n := 0
		fmt.Sscan(f[2], &n)
		completed += n
	}
	if completed != ends {
		t.Errorf("report: %d tasks completed, the stream ends %d:\n%s", completed, ends, stdout)
	}

	out := filepath.Join(t.TempDir(), "trace.json")
	code, _, stderr = gopari(t, "trace", "--chrome", out, dir)
	if code != 3 || !strings.Contains(stderr, "the run was killed before it wrote its profile") || !strings.Contains(stderr, "thread-000001.evt: its last ") {
		t.Errorf("trace: exit %d, stderr %q", code, stderr)
	}
	if js, err := os.Open(out); err != nil {
		t.Error(err)
	} else {
		if _, err := chrome.Check(js); err != nil {
			t.Errorf("trace: %v", err)
		}
		js.Close()
	}

	csv := filepath.Join(t.TempDir(), "grains.csv")
	code, stdout, stderr = gopari(t, "grains", "--csv", csv, dir)
	if code != 3 || !strings.Contains(stderr, "the run was killed before it wrote its profile") || !strings.Contains(stdout, fmt.Sprintf("%d grains", ends)) {
		t.Errorf("grains: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if b, err := os.ReadFile(csv); err != nil || strings.Count(string(b), "\ntask,") != ends {
		t.Errorf("grains --csv: %v, %d task rows, want %d", err, strings.Count(string(b), "\ntask,"), ends)
	}

	for _, args := range [][]string{{"report", "--json", dir}, {"report", "--html", filepath.Join(t.TempDir(), "p.html"), dir}} {
		code, _, stderr := gopari(t, args...)
		if code != 1 || !strings.Contains(stderr, "no profile: the run was killed before it wrote one; gopari report, gopari trace and gopari grains read what its event stream kept") {
			t.Errorf("%v: exit %d, stderr %q", args[:2], code, stderr)
		}
	}
	// Killed while it wrote its profile; or ended, and its profile not
	// written: stream.json says how it ended.
	os.WriteFile(filepath.Join(dir, "profile.json.tmp"), []byte(`{"format":`), 0o644)
	if code, stdout, _ := gopari(t, "report", dir); code != 3 || !strings.Contains(stdout, "was killed while it wrote its profile (profile.json.tmp holds 10 bytes of it)") {
		t.Errorf("killed while writing: exit %d\n%s", code, stdout)
	}
	if code, _, stderr := gopari(t, "report", "--json", dir); code != 1 || !strings.Contains(stderr, "profile.json.tmp holds the first 10 bytes") ||
		!strings.Contains(stderr, "gopari report, gopari trace and gopari grains read what its event stream kept") {
		t.Errorf("killed while writing, --json: exit %d, stderr %q", code, stderr)
	}
	os.Remove(filepath.Join(dir, "profile.json.tmp"))
	info := filepath.Join(dir, "events", experiment.StreamFile)
	b, _ := os.ReadFile(info)
	os.WriteFile(info, []byte(strings.Replace(string(b), `"format"`, `"ended": "SIGTERM", "format"`, 1)), 0o644)
	if code, stdout, _ := gopari(t, "report", dir); code != 3 || !strings.Contains(stdout, "ended (SIGTERM) but wrote no profile") {
		t.Errorf("ended without a profile: exit %d\n%s", code, stdout)
	}

	// Profile mode keeps nothing: the directory is made at the end.
	gone := filepath.Join(t.TempDir(), "gone")
	for _, cmd := range []string{"report", "grains"} {
		code, _, stderr := gopari(t, cmd, gone)
		if code != 1 || !strings.Contains(stderr, "gopari: "+gone+": no such ") || !strings.Contains(stderr, experiment.NoDirNote) {
			t.Errorf("%s of a directory that is not there: exit %d, stderr %q", cmd, code, stderr)
		}
	}
}
