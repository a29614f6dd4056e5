package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopari/internal/callpath/cptest"
	"gopari/internal/experiment"
	"gopari/internal/filter"
	"gopari/internal/profile"
)

// writeProfile writes p as the profile of the run in dir.
func writeProfile(t *testing.T, dir string, p *profile.Profile) {
	t.Helper()
	b, _ := json.Marshal(p)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(experiment.Profile(dir), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestFilterCommand runs gopari filter on cptest.Hot's run: to standard
// output, to a file (which it then will not overwrite without --force),
// on a job of two such ranks, and on a run without call paths.
func TestFilterCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	run1 := filepath.Join(dir, "run")
	writeProfile(t, run1, cptest.Hot(t))
	code, out, errs := gopari(t, "filter", run1)
	if code != 0 || !strings.Contains(out, "  EXCLUDE *leaf*  # 1000000 visits, mean 5 ns, saves ~20.0 ms;") || strings.Contains(out, "EXCLUDE main") {
		t.Fatalf("gopari filter: exit %d:\n%s%s", code, out, errs)
	}
	if code, dash, _ := gopari(t, "filter", "-o", "-", run1); code != 0 || dash != out {
		t.Errorf("gopari filter -o -: exit %d, standard output other than without -o:\n%s", code, dash)
	}
	f := filepath.Join(dir, "f.filt")
	if code, _, errs := gopari(t, "filter", "-o", f, run1); code != 0 {
		t.Fatalf("gopari filter -o: exit %d: %s", code, errs)
	}
	got, err := os.ReadFile(f)
	if err != nil || string(got) != out {
		t.Errorf("-o wrote other than standard output (%v):\n%s", err, got)
	}
	if flt, _, err := filter.ReadFile(f); err != nil || flt.Function("leaf", "leaf", "") || !flt.Function("mid", "mid", "") {
		t.Errorf("the file does not read back as leaving out leaf alone: %v", err)
	}
	os.WriteFile(f, []byte("mine\n"), 0o644)
	if code, _, errs := gopari(t, "filter", "--min-visits", "1", "-o", f, run1); code != 1 || !strings.Contains(errs, "--force") {
		t.Errorf("over an existing file: exit %d, %q; want 1 and a hint at --force", code, errs)
	}
	if b, _ := os.ReadFile(f); string(b) != "mine\n" {
		t.Errorf("the existing file was overwritten:\n%s", b)
	}
	if code, _, errs := gopari(t, "filter", "--max-mean", "1ms", "--force", "-o", f, run1); code != 0 {
		t.Errorf("--force: exit %d: %s", code, errs)
	} else if b, _ := os.ReadFile(f); !strings.Contains(string(b), "EXCLUDE *leaf*") || !strings.Contains(string(b), "at most 1.00 ms (--max-mean)") {
		t.Errorf("--force --max-mean 1ms wrote:\n%s", b)
	}

	jobDir := filepath.Join(dir, "job")
	writeProfile(t, filepath.Join(jobDir, experiment.RankDir(0)), cptest.Hot(t))
	writeProfile(t, filepath.Join(jobDir, experiment.RankDir(1)), cptest.Hot(t))
	m, _ := json.Marshal(experiment.JobMarker{Format: experiment.JobMarkerFormat, Version: 1, Job: "j", Size: 2, Program: "paths"})
	os.WriteFile(filepath.Join(jobDir, experiment.JobMarkerFile), m, 0o644)
	if code, out, errs := gopari(t, "filter", jobDir); code != 0 || !strings.Contains(out, "(2 ranks, summed)") || !strings.Contains(out, "EXCLUDE *leaf*  # 2000000 visits, mean 5 ns, saves ~40.0 ms") {
		t.Errorf("a job: exit %d:\n%s%s", code, out, errs)
	}

	p := cptest.Hot(t)
	p.CallPaths, p.Mappings = nil, nil
	bare := filepath.Join(dir, "bare")
	writeProfile(t, bare, p)
	code, out, errs = gopari(t, "filter", "-o", filepath.Join(dir, "g.filt"), bare)
	if code != 1 || out != "" || !strings.Contains(errs, "gopari cc --functions") {
		t.Errorf("without call paths: exit %d, %q %q", code, out, errs)
	}
	if _, err := os.Stat(filepath.Join(dir, "g.filt")); err == nil {
		t.Error("a filter file without call paths")
	}
}
