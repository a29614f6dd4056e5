//go:build otf2

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gopari/internal/events/evtest"
)

func TestTraceOTF2(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "exp")
	if _, err := evtest.Mixed(dir); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "otf2")
	json := filepath.Join(t.TempDir(), "t.json")
	code, stdout, stderr := gopari(t, "trace", "--otf2", out, "--chrome", json, dir)
	if code != 0 || !strings.Contains(stdout, filepath.Join(out, "traces.otf2")) || !strings.Contains(stdout, json) {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	t.Run("otf2-print", func(t *testing.T) {
		if _, err := exec.LookPath("otf2-print"); err != nil {
			t.Skip("otf2-print not installed (Debian otf2-tools)")
		}
		if b, err := exec.Command("otf2-print", filepath.Join(out, "traces.otf2")).CombinedOutput(); err != nil {
			t.Errorf("otf2-print: %v\n%s", err, b)
		}
	})
	// A second export into the same directory is refused; the archive stays.
	code, _, stderr = gopari(t, "trace", "--otf2", out, dir)
	if code != 1 || !strings.Contains(stderr, "exists") {
		t.Errorf("exit %d %q", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "traces.def")); err != nil {
		t.Error(err)
	}
}

// TestTraceJobOTF2 exports a job as one archive: a location group per
// rank with a profile, otf2-print reads it.
func TestTraceJobOTF2(t *testing.T) {
	t.Parallel()
	dir := fakeJob(t)
	out := filepath.Join(t.TempDir(), "otf2")
	code, stdout, stderr := gopari(t, "trace", "--otf2", out, dir)
	if code != 0 || !strings.Contains(stdout, "on 8 locations of 2 ranks from 152 stream records") || !strings.Contains(stderr, "missing: rank 3") {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	if _, err := exec.LookPath("otf2-print"); err != nil {
		t.Skip("otf2-print not installed (Debian otf2-tools)")
	}
	b, err := exec.Command("otf2-print", "-G", filepath.Join(out, "traces.otf2")).CombinedOutput()
	if err != nil {
		t.Fatalf("otf2-print: %v\n%s", err, b)
	}
	if n := strings.Count(string(b), "\nLOCATION_GROUP "); n != 2 || !strings.Contains(string(b), `"MPI rank 1 (pid 4243)"`) {
		t.Errorf("%d location groups\n%s", n, b)
	}
}
