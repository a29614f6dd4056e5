package examples

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// wrapperMakefile is a Makefile like miniFE's and BOTS's: it writes the
// path of $(CC), found with which, into a header, and prints the
// compiler's name into the program. Both need a one-word compiler.
const wrapperMakefile = `CC ?= gcc
CFLAGS = -O1 -fopenmp
prog: prog.c compiler.h
	$(CC) $(CFLAGS) prog.c -o prog
compiler.h:
	echo '#define COMPILER "$(CC)"' > $@
	echo '#define COMPILER_PATH "'"$$(which $(CC))"'"' >> $@
`

const wrapperProg = `#include <stdio.h>
#include "compiler.h"
int main(void)
{
  int n = 0;
  #pragma omp parallel reduction(+: n)
  n += 1;
  printf("%s %s %d\n", COMPILER, COMPILER_PATH, n > 0);
  return 0;
}
`

// TestOneWordWrapper builds a Makefile project with CC=gopari-gcc, the
// link to gopari that make puts into bin/, found on PATH, and checks that
// the program is instrumented: it writes a profile with its region.
func TestOneWordWrapper(t *testing.T) {
	bin, prefix := tools(t)
	link := filepath.Join(filepath.Dir(bin), "gopari-gcc")
	if target, err := os.Readlink(link); err != nil || target != "gopari" {
		t.Fatalf("%s: %v, %q (run make build first)", link, err, target)
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "Makefile"), []byte(wrapperMakefile), 0o644)
	os.WriteFile(filepath.Join(dir, "prog.c"), []byte(wrapperProg), 0o644)
	env := []string{"GOPARI_PREFIX=" + prefix, "OMP_NUM_THREADS=2", "PATH=" + filepath.Dir(bin) + ":" + os.Getenv("PATH")}
	run(t, dir, env, "make", "-s", "CC=gopari-gcc")
	out := run(t, dir, env, "./prog")
	if want := "gopari-gcc " + link + " 1\n"; out != want {
		t.Errorf("the program printed %q, want %q", out, want)
	}
	p := onlyProfile(t, dir)
	if len(p.Regions) != 1 || p.Regions[0].Kind != "parallel" || !strings.HasSuffix(p.Regions[0].File, "prog.c") {
		t.Errorf("profile regions %+v, want the parallel region of prog.c", p.Regions)
	}
}

// TestOneWordFortranWrapper builds a Fortran program with
// gopari-gfortran, the link that make puts into bin/: the program
// is instrumented (its parallel region in the profile) and runs as
// built by gfortran.
func TestOneWordFortranWrapper(t *testing.T) {
	bin, prefix := tools(t)
	if _, err := exec.LookPath("gfortran"); err != nil {
		t.Skip("gfortran not installed")
	}
	link := filepath.Join(filepath.Dir(bin), "gopari-gfortran")
	if target, err := os.Readlink(link); err != nil || target != "gopari" {
		t.Fatalf("%s: %v, %q (run make build first)", link, err, target)
	}
	dir := t.TempDir()
	src := "program prog\n  integer :: n\n  n = 0\n  !$omp parallel reduction(+: n)\n  n = n + 1\n  !$omp end parallel\n  print '(i0)', n\nend program\n"
	os.WriteFile(filepath.Join(dir, "prog.f90"), []byte(src), 0o644)
	env := []string{"GOPARI_PREFIX=" + prefix, "OMP_NUM_THREADS=2", "PATH=" + filepath.Dir(bin) + ":" + os.Getenv("PATH")}
	run(t, dir, env, link, "-O1", "-fopenmp", "prog.f90", "-o", "prog")
	if out := run(t, dir, env, "./prog"); out != "2\n" {
		t.Errorf("the program printed %q, want 2", out)
	}
	p := onlyProfile(t, dir)
	if len(p.Regions) != 1 || p.Regions[0].Kind != "parallel" || !strings.HasSuffix(p.Regions[0].File, "prog.f90") {
		t.Errorf("profile regions %+v, want the parallel region of prog.f90", p.Regions)
	}
}
