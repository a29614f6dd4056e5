package wrapper

import (
	"os"
	"path/filepath"
	"testing"

	"gopari/rewrite/fortran"
)

func TestTableCompiler(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"gfortran": "gcc", "gfortran-12": "gcc-12", "/usr/bin/x86_64-linux-gnu-gfortran-12": "x86_64-linux-gnu-gcc-12",
		"mpif90": "mpicc", "mpifort": "mpicc", "flang-new": "clang", "ifx": "cc",
	} {
		if got := tableCompiler([]string{"ccache", in}); got != want {
			t.Errorf("tableCompiler(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestOnPath falls back from a compiler that is not installed to its
// family without the version, then to cc.
func TestOnPath(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"clang", "cc"} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", dir)
	for in, want := range map[string]string{"clang-19": "clang", "clang": "clang", "gcc-12": "cc", "mpicc": "cc"} {
		if got := onPath(in); got != want {
			t.Errorf("onPath(%q) = %q, want %q", in, got, want)
		}
	}
	t.Setenv("PATH", t.TempDir())
	if got := onPath("clang-19"); got != "clang-19" {
		t.Errorf("onPath(clang-19) with nothing installed = %q, want clang-19", got)
	}
}

func TestFortranInputs(t *testing.T) {
	t.Parallel()
	l, err := parseCC([]string{"-fopenmp", "-c", "a.f90", "b.F", "-x", "f95", "c.inc", "-x", "none", "d.o", "e.s", "f.txt", "libg.so.1.2", "h.c"})
	if err != nil {
		t.Fatal(err)
	}
	fort := map[string]bool{"a.f90": true, "b.F": true, "c.inc": true}
	over := map[string]bool{"f.txt": true}
	for _, in := range l.inputs {
		if in.fortran != fort[in.path] {
			t.Errorf("%s: fortran %v", in.path, in.fortran)
		}
		if passedOver(in) != over[in.path] {
			t.Errorf("%s: passed over %v, want %v", in.path, passedOver(in), over[in.path])
		}
	}
	p := &plan{line: &cmdline{args: []string{"-ffixed-form", "-cpp"}}}
	if form, pre := p.fortranForm(input{path: "x.f90"}); form != fortran.Fixed || !pre {
		t.Errorf("-ffixed-form -cpp: form %v, preprocessed %v", form, pre)
	}
	if !largeData([]string{"-O2", "-mcmodel=medium"}) || largeData([]string{"-mcmodel=small"}) {
		t.Errorf("largeData")
	}
}
