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

// cmakeFortran is a CMake project of a module and a program in Fortran.
var cmakeFortran = map[string]string{
	"CMakeLists.txt": "cmake_minimum_required(VERSION 3.21)\nproject(fprog Fortran)\nfind_package(OpenMP REQUIRED)\n" +
		"add_executable(fprog mod.f90 main.f90)\ntarget_link_libraries(fprog OpenMP::OpenMP_Fortran)\n",
	"mod.f90": "module m\ncontains\n  integer function count_threads()\n    count_threads = 0\n" +
		"    !$omp parallel reduction(+: count_threads)\n    count_threads = count_threads + 1\n    !$omp end parallel\n  end function\nend module\n",
	"main.f90": "program fprog\n  use m\n  print '(i0)', count_threads()\nend program\n",
}

// TestCMakeFortran builds a Fortran CMake project with gopari-gfortran
// as its compiler (CMake has no linker launcher for Fortran): the
// program prints what the plain build prints, its parallel region is in
// the profile, and the build warns about nothing (CMake names libpomp.a
// in the link, as one of the compiler's implicit libraries).
func TestCMakeFortran(t *testing.T) {
	bin, prefix := tools(t)
	for _, tool := range []string{"cmake", "gfortran"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed", tool)
		}
	}
	dir := t.TempDir()
	for name, text := range cmakeFortran {
		os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644)
	}
	env := []string{"GOPARI_PREFIX=" + prefix, "OMP_NUM_THREADS=2"}
	run(t, dir, env, "cmake", "-S", ".", "-B", "plain")
	run(t, dir, env, "cmake", "--build", "plain")
	want := run(t, dir, env, "plain/fprog")
	run(t, dir, env, "cmake", "-S", ".", "-B", "inst", "-DCMAKE_Fortran_COMPILER="+filepath.Join(filepath.Dir(bin), "gopari-gfortran"))
	if build := run(t, dir, env, "cmake", "--build", "inst"); strings.Contains(build, "warning") {
		t.Errorf("the build warned:\n%s", build)
	}
	if got := run(t, dir, env, "inst/fprog"); got != want || want != "2\n" {
		t.Errorf("instrumented build printed %q, uninstrumented %q, want 2", got, want)
	}
	p := onlyProfile(t, dir)
	if len(p.Regions) != 1 || p.Regions[0].Kind != "parallel" || !strings.HasSuffix(p.Regions[0].File, "mod.f90") {
		t.Errorf("profile regions %+v, want the parallel region of mod.f90", p.Regions)
	}
}
