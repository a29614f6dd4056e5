package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"gopari/internal/chrome"
	"gopari/internal/events/evtest"
	"gopari/internal/otf2"
)

func gopari(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(append([]string{"gopari"}, args...), strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func TestTraceChrome(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "exp")
	if _, err := evtest.Mixed(dir); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "run.json")
	code, stdout, stderr := gopari(t, "trace", "--chrome", out, dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "wrote "+out) || !strings.Contains(stderr, "dropped 5 records") {
		t.Errorf("stdout %q stderr %q", stdout, stderr)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := chrome.Check(f); err != nil {
		t.Error(err)
	}
}

// TestTraceHostile checks that damaged traces give an error naming the
// file and offset, and leave no output behind: neither the Chrome file
// nor, where gopari has OTF2, the archive.
func TestTraceHostile(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		damage func(path string) error
		want   string
	}{
		{"truncated", func(p string) error {
			st, _ := os.Stat(p)
			return os.Truncate(p, st.Size()-5)
		}, "thread-000000.evt: offset 32: truncated block (got "},
		{"magic", func(p string) error { return patch(p, 0, "XXXXXXXX") }, `thread-000000.evt: offset 0: not a gopari event stream (magic "XXXXXXXX", want "GOPARIEV")`},
		{"newer", func(p string) error { return patch(p, 8, "\x08\x00") }, "thread-000000.evt: offset 8: format version 8 is newer than this gopari reads (7); update gopari"},
		{"block cut", func(p string) error { return patch(p, 36, "\x00\x00\x01\x00") }, "thread-000000.evt: offset 32: truncated block (got "},
		{"missing", func(p string) error { return os.Remove(p) }, "thread-000000.evt: no such file or directory"},
	} {
		dir := filepath.Join(t.TempDir(), "exp")
		if _, err := evtest.Mixed(dir); err != nil {
			t.Fatal(err)
		}
		if err := tc.damage(filepath.Join(dir, "events", "thread-000000.evt")); err != nil {
			t.Fatal(err)
		}
		outDir := t.TempDir()
		args := []string{"trace", "--chrome", filepath.Join(outDir, "run.json"), dir}
		if otf2.Available {
			args = append([]string{"trace", "--otf2", filepath.Join(outDir, "otf2")}, args[1:]...)
		}
		code, _, stderr := gopari(t, args...)
		if code != 1 || !strings.Contains(stderr, tc.want) || strings.Contains(stderr, "panic") {
			t.Errorf("%s: exit %d, stderr %q, want %q", tc.name, code, stderr, tc.want)
		}
		if ents, _ := os.ReadDir(outDir); len(ents) != 0 {
			t.Errorf("%s: left %v behind", tc.name, ents[0].Name())
		}
	}
}

func patch(path string, off int64, s string) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = f.WriteAt([]byte(s), off)
	return err
}

func TestTraceUsage(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if code, _, stderr := gopari(t, "trace", dir); code != 2 || !strings.Contains(stderr, "nothing to do") {
		t.Errorf("no output flag: exit %d %q", code, stderr)
	}
	if code, _, stderr := gopari(t, "trace", "--chrome", "x.json", dir); code != 1 || !strings.Contains(stderr, "no profile: the directory is empty") {
		t.Errorf("not an experiment: exit %d %q", code, stderr)
	}
	os.WriteFile(filepath.Join(dir, "profile.json"), []byte(`{"format":"gopari-profile","version":1,"clock":"tsc"}`), 0o644)

	if code, _, stderr := gopari(t, "trace", "--chrome", "x.json", dir); code != 1 || !strings.Contains(stderr, "GOPARI_MODE=trace") {
		t.Errorf("no trace: exit %d %q", code, stderr)
	}
}

// fakeJob writes the directory of a job of four ranks, each the Mixed
// run, rank 1 started 1 ms after rank 0; rank 2's profile is cut in the
// middle and rank 3 has no directory.
func fakeJob(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "gopari-synthetic-ompi-7")
	mixed := func(d string) (*evtest.Sim, error) { return evtest.Mixed(d) }
	if err := evtest.Job(dir, "ompi-7", 1e6, []func(string) (*evtest.Sim, error){mixed, mixed, mixed, mixed}); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(filepath.Join(dir, "rank-00002", "profile.json"), 100); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(dir, "rank-00003")); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestTraceJob exports a job's directory as one Chrome trace, a process
// per rank with a profile, and says which ranks it lacks.
func TestTraceJob(t *testing.T) {
	t.Parallel()
	dir := fakeJob(t)
	out := filepath.Join(t.TempDir(), "job.json")
	code, stdout, stderr := gopari(t, "trace", "--chrome", out, dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"dropped 10 records", "missing: rank 3 wrote nothing", "damaged: rank 2: ", "the trace has only the ranks with a profile"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sum, err := chrome.Check(f)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Flows != 4 || sum.Tracks != 8 || !strings.Contains(stdout, "(94 slices, 4 flows)") {
		t.Errorf("%+v\n%s", sum, stdout)
	}
	// grains reads one run: it names a rank's directory instead.
	if code, _, stderr := gopari(t, "grains", dir); code != 1 || !strings.Contains(stderr, "is the directory of an MPI job: name one rank's directory ("+filepath.Join(dir, "rank-00000")+")") {
		t.Errorf("grains on a job: exit %d, %s", code, stderr)
	}
}

// TestTraceHelpNames: an experiment directory named h or help is one, not
// a request for help (not parallel: it changes the working directory).
func TestTraceHelpNames(t *testing.T) {
	for _, name := range []string{"h", "help"} {
		dir := t.TempDir()
		if _, err := evtest.Mixed(filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
		t.Chdir(dir)
		code, stdout, stderr := gopari(t, "trace", "--chrome", "x.json", name)
		if code != 0 || !strings.Contains(stdout, "wrote x.json") {
			t.Errorf("experiment %s: exit %d %q %q", name, code, stdout, stderr)
		}
		code, stdout, _ = gopari(t, "report", name)
		if code != 0 || !strings.Contains(stdout, "gopari profile of ./synthetic") {
			t.Errorf("report %s: exit %d %q", name, code, stdout)
		}
		code, stdout, stderr = gopari(t, "grains", name)
		if code != 0 || strings.Contains(stdout, "USAGE:") {
			t.Errorf("grains %s: exit %d %q %q", name, code, stdout, stderr)
		}
	}
}

// TestTraceInterrupted stops an export with SIGTERM while it writes: it
// exits with 128 + 15 and leaves neither its output nor the temporary
// file it was writing.
func TestTraceInterrupted(t *testing.T) {
	if _, err := exec.LookPath("gopari"); err != nil {
		t.Skip("no gopari command: run by go test, which makes one of the test binary")
	}
	dir := filepath.Join(t.TempDir(), "exp")
	if _, err := evtest.Tiny(dir, 400000, 2, 10); err != nil {
		t.Fatal(err)
	}
	outDir := t.TempDir()
	args := []string{"trace", "--chrome", filepath.Join(outDir, "run.json"), dir}
	if otf2.Available {
		args = append([]string{"trace", "--otf2", filepath.Join(outDir, "otf2")}, args[1:]...)
	}
	cmd := exec.Command("gopari", args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Wait until it has begun an output, then stop it.
	begun := false
	for deadline := time.Now().Add(20 * time.Second); !begun && time.Now().Before(deadline); time.Sleep(2 * time.Millisecond) {
		ents, _ := os.ReadDir(outDir)
		for _, e := range ents {
			begun = begun || strings.HasSuffix(e.Name(), ".tmp")
		}
	}
	cmd.Process.Signal(syscall.SIGTERM)
	err := cmd.Wait()
	if !begun {
		t.Skipf("the export ended before it could be stopped: %v", err)
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 128+15 || !strings.Contains(stderr.String(), "stopped by terminated; no output written") {
		t.Errorf("%v: %s", err, stderr.String())
	}
	if ents, _ := os.ReadDir(outDir); len(ents) != 0 {
		t.Errorf("left %s behind", ents[0].Name())
	}
}
