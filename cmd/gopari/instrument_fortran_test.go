package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestInstrumentFortran checks gopari instrument on Fortran files: the
// source and its region table, with -o, --out-dir and --fixed, and the
// errors of a file that cannot be instrumented (exit 1, nothing written).
// It changes directory (t.Chdir), so it does not run in parallel.
func TestInstrumentFortran(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.f90", "program a\n  !$omp parallel\n  print *, 1\n  !$omp end parallel\nend program\n")
	write("b.txt", "      program b\nc$omp barrier\n      end\n")
	write("bad.f90", "program c\n  !$omp parallel\nend program\n")
	code, _, stderr := gopari(t, "instrument", filepath.Join(dir, "a.f90"), "-o", filepath.Join(dir, "a.pomp.f90"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for name, want := range map[string]string{"a.pomp.f90": "POMP_Parallel_fork", "a.pomp_regions.c": "POMP_Register_unit"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || !strings.Contains(string(b), want) {
			t.Errorf("%s: %v, without %q", name, err, want)
		}
	}
	// --fixed reads a file of any suffix as fixed form; --out-dir keeps
	// its relative path.
	t.Chdir(dir)
	code, _, stderr = gopari(t, "instrument", "--fixed", "--out-dir", "out", "b.txt")
	if code != 0 {
		t.Fatalf("--fixed --out-dir: exit %d: %s", code, stderr)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "out", "b.txt")); err != nil || !strings.Contains(string(b), "POMP_Barrier_enter") {
		t.Errorf("out/b.txt: %v\n%s", err, b)
	}
	if _, err := os.Stat(filepath.Join(dir, "out", "b_regions.c")); err != nil {
		t.Error(err)
	}
	code, _, stderr = gopari(t, "instrument", filepath.Join(dir, "bad.f90"), "-o", filepath.Join(dir, "bad.pomp.f90"))
	if code != 1 || !strings.Contains(stderr, "bad.f90:2:1: error: !$omp parallel without !$omp end parallel") {
		t.Errorf("bad.f90: exit %d, stderr %q", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "bad.pomp.f90")); err == nil {
		t.Errorf("bad.pomp.f90 written for a file with errors")
	}
}
