//go:build otf2

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gopari/internal/events"
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

// TestTraceBudgetOTF2 records a program of many tasks with a trace budget
// (GOPARI_TRACE_MAX_BYTES) that drops most, or all, of its blocks, and
// exports it: otf2-print reads the archive, even where a location kept
// no event at all, and the archive marks every gap the stream records
// (MEASUREMENT_ON_OFF off and on around each DROPPED record), with the
// records dropped as the attribute of each, adding up to the profile's
// count.
func TestTraceBudgetOTF2(t *testing.T) {
	if _, err := exec.LookPath("otf2-print"); err != nil {
		t.Skip("otf2-print not installed (Debian otf2-tools)")
	}
	prefix, err := filepath.Abs("../../build")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(prefix, "lib", "libpomp.a")); err != nil {
		t.Fatalf("%v (run make build)", err)
	}
	t.Setenv("GOPARI_PREFIX", prefix)
	dir := t.TempDir()
	src := filepath.Join(dir, "many.c")
	os.WriteFile(src, []byte(`#include <stdio.h>
int main(void)
{
  long n = 0;
  #pragma omp parallel num_threads(2)
  #pragma omp single
  for (int i = 0; i < 40000; i++) {
    #pragma omp task shared(n)
    {
      #pragma omp atomic
      n++;
    }
  }
  printf("%ld\n", n);
  return 0;
}
`), 0o644)
	exe := filepath.Join(dir, "many")
	gopariStatus(t, 0, "cc", "gcc", "-fopenmp", "-O1", src, "-o", exe)
	for _, budget := range []string{"1", "300K"} {
		exp := filepath.Join(dir, "exp-"+budget)
		cmd := exec.Command(exe)
		cmd.Env = append(os.Environ(), "GOPARI_MODE=trace", "GOPARI_TRACE_MAX_BYTES="+budget, "GOPARI_EXPERIMENT_DIRECTORY="+exp, "OMP_WAIT_POLICY=passive")
		if out, err := cmd.CombinedOutput(); err != nil || string(out) != "40000\n" {
			t.Fatalf("budget %s: %v\n%s", budget, err, out)
		}
		e, err := events.OpenExperiment(exp)
		if err != nil {
			t.Fatal(err)
		}
		gaps, dropped := droppedRecords(t, e)
		if gaps == 0 || dropped != e.Events.Dropped || dropped == 0 {
			t.Fatalf("budget %s: %d DROPPED records for %d records, the profile says %d", budget, gaps, dropped, e.Events.Dropped)
		}
		out := filepath.Join(dir, "otf2-"+budget)
		if code, stdout, stderr := gopari(t, "trace", "--otf2", out, exp); code != 0 {
			t.Fatalf("budget %s: exit %d\n%s%s", budget, code, stdout, stderr)
		}
		var evs, errb bytes.Buffer
		print := exec.Command("otf2-print", filepath.Join(out, "traces.otf2"))
		print.Stdout, print.Stderr = &evs, &errb
		if err := print.Run(); err != nil || errb.Len() > 0 {
			t.Fatalf("budget %s: otf2-print: %v\n%s", budget, err, errb.Bytes())
		}
		offs := regexp.MustCompile(`(?m)^MEASUREMENT_ON_OFF .*Mode: OFF\s+ADDITIONAL ATTRIBUTES: \("dropped records" <\d+>; UINT64; (\d+)\)`).FindAllSubmatch(evs.Bytes(), -1)
		ons := regexp.MustCompile(`(?m)^MEASUREMENT_ON_OFF .*Mode: ON$`).FindAll(evs.Bytes(), -1)
		var sum int64
		for _, m := range offs {
			n, _ := strconv.ParseInt(string(m[1]), 10, 64)
			sum += n
		}
		if int64(len(offs)) != gaps || int64(len(ons)) != gaps || sum != dropped {
			t.Errorf("budget %s: %d gaps opened, %d closed, %d records in them; the stream has %d gaps of %d records", budget, len(offs), len(ons), sum, gaps, dropped)
		}
	}
}

// droppedRecords counts a run's DROPPED records and the records they say
// were dropped.
func droppedRecords(t *testing.T, e *events.Experiment) (gaps, records int64) {
	t.Helper()
	rs, err := e.Open()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		for {
			rec, err := r.Next()
			if err != nil {
				break
			}
			if rec.Type == events.Dropped {
				gaps++
				records += int64(rec.Args[0])
			}
		}
		r.Close()
	}
	return gaps, records
}
