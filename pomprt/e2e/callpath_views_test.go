package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gopari/internal/callpath"
)

// TestCallPathViews runs a C++ program built with --functions and reads
// its call paths as every view does (internal/callpath, gopari pprof and
// go tool pprof): names demangled (a namespace, a template, a member
// function), outlined functions gone, construct frames named as in OTF2,
// visits exact; and a run-time filter that names a function by its
// demangled name leaves it out, its callee hanging below its caller.
func TestCallPathViews(t *testing.T) {
	needTools(t)
	flt := filepath.Join(t.TempDir(), "skip.filt")
	if err := os.WriteFile(flt, []byte("SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE geo::skip*\nSCOREP_REGION_NAMES_END\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range compilers {
		c := c
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			exe := buildCC(t, c, "cpnames.cpp", "--functions")
			r := run(t, exe, []string{"OMP_NUM_THREADS=2"})
			if !strings.HasPrefix(r.stdout, "r 1498500 skip 2000 twice 2000") {
				t.Fatalf("the program printed %q", r.stdout)
			}
			tree, err := callpath.FromProfile(readProfile(t, r))
			if err != nil || tree == nil {
				t.Fatalf("call paths: %v", err)
			}
			skip := cpByName(tree, "geo::skip(long)")
			twice := cpByName(tree, "long geo::twice<long>(long)")
			if v := cpVisits(tree, skip); v != 2000 {
				t.Errorf("geo::skip(long): %d visits, want 2000", v)
			}
			if v := cpVisits(tree, twice); v != 2000 {
				t.Errorf("geo::twice<long>(long): %d visits, want 2000", v)
			}
			for _, id := range skip {
				p := strings.Join(tree.Path(id), " / ")
				if !strings.Contains(p, "geo::Mesh::sum() const / !$omp parallel @") || !strings.Contains(p, "!$omp for @") ||
					strings.Contains(p, "omp_fn") || strings.Contains(p, "omp_outlined") {
					t.Errorf("geo::skip(long) at %s", p)
				}
			}
			pprofTop(t, r.dir, "geo::skip", "2000") // pprof prints names without their parameters

			r = run(t, exe, []string{"OMP_NUM_THREADS=2", "GOPARI_FILTER=" + flt})
			tree, err = callpath.FromProfile(readProfile(t, r))
			if err != nil || tree == nil {
				t.Fatalf("call paths with the filter: %v", err)
			}
			if ids := cpByName(tree, "geo::skip(long)"); len(ids) != 0 {
				t.Errorf("filtered geo::skip(long) still has nodes %v", ids)
			}
			twice = cpByName(tree, "long geo::twice<long>(long)")
			if v := cpVisits(tree, twice); v != 2000 {
				t.Errorf("filtered: geo::twice<long>(long): %d visits, want 2000", v)
			}
			for _, id := range twice {
				if p := tree.Path(id); !strings.HasPrefix(p[len(p)-2], "!$omp for @") {
					t.Errorf("filtered: geo::twice<long>(long) at %s, want below the for", strings.Join(p, " / "))
				}
			}
		})
	}
}

func cpByName(t *callpath.Tree, name string) []int {
	var ids []int
	for i, n := range t.Nodes {
		if n.Name == name {
			ids = append(ids, i)
		}
	}
	return ids
}

func cpVisits(t *callpath.Tree, ids []int) uint64 {
	var v uint64
	for _, id := range ids {
		v += t.Nodes[id].Visits
	}
	return v
}

// pprofTop writes the run's pprof profile with gopari pprof and checks
// that go tool pprof -top counts want visits of function name.
func pprofTop(t *testing.T, dir, name, want string) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "run.pb.gz")
	if b, err := exec.Command(gopariCommand(t), "pprof", "-o", out, dir).CombinedOutput(); err != nil {
		t.Fatalf("gopari pprof: %v\n%s", err, b)
	}
	b, err := exec.Command("go", "tool", "pprof", "-top", "-sample_index=visits", out).CombinedOutput()
	if err != nil {
		t.Fatalf("go tool pprof -top: %v\n%s", err, b)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) > 0 && strings.HasSuffix(line, name) && f[0] == want {
			return
		}
	}
	t.Errorf("go tool pprof -top does not count %s visits of %s:\n%s", want, name, b)
}

// TestCallPathLibraryAndStripped: a function of a shared library built
// with --functions is named, with its file, from the library the run
// mapped; a stripped program's static function, which has no symbol
// left, is shown by its address; visits stay exact in both; the run's
// filter (GOPARI_FILTER) leaves the library's function out.
func TestCallPathLibraryAndStripped(t *testing.T) {
	needTools(t)
	c := compilers[0]
	dir := t.TempDir()
	lib := filepath.Join(dir, "libcp.so")
	exe := filepath.Join(dir, "cplibmain")
	src := func(name string) string { s, _ := filepath.Abs(filepath.Join("testdata", name)); return s }
	for _, argv := range [][]string{
		append(append([]string{"cc", "--functions", c.cc}, c.openmp...), "-g", "-O2", "-fPIC", "-shared", src("cplib.c"), "-o", lib),
		append(append([]string{"cc", "--functions", c.cc}, c.openmp...), "-g", "-O2", src("cplibmain.c"), "-L"+dir, "-lcp", "-Wl,-rpath,"+dir, "-o", exe),
	} {
		cmd := exec.Command(gopariCommand(t), argv...)
		cmd.Env = append(os.Environ(), "GOPARI_PREFIX="+runtimePrefix(t))
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("gopari %s: %v\n%s", strings.Join(argv, " "), err, out)
		}
	}
	stripped := exe + "-stripped"
	if out, err := exec.Command("strip", "-o", stripped, exe).CombinedOutput(); err != nil {
		t.Fatalf("strip: %v\n%s", err, out)
	}
	for _, k := range []struct {
		exe, local string
	}{{exe, "local"}, {stripped, "0x"}} {
		r := run(t, k.exe, []string{"OMP_NUM_THREADS=2"})
		if r.stdout != "3996008\n" {
			t.Fatalf("%s printed %q", k.exe, r.stdout)
		}
		tree, err := callpath.FromProfile(readProfile(t, r))
		if err != nil || tree == nil {
			t.Fatalf("%s: call paths: %v", k.exe, err)
		}
		work := cpByName(tree, "libwork")
		if v := cpVisits(tree, work); v != 8 {
			t.Errorf("%s: libwork: %d visits, want 8", k.exe, v)
		}
		for _, id := range work {
			n := tree.Nodes[id]
			if filepath.Base(n.File) != "cplib.c" {
				t.Errorf("%s: libwork in file %q, want cplib.c", k.exe, n.File)
			}
			caller := tree.Nodes[n.Parent]
			if !strings.HasPrefix(caller.Name, k.local) || caller.Visits == 0 {
				t.Errorf("%s: libwork called from %q (%d visits), want a name starting %q", k.exe, caller.Name, caller.Visits, k.local)
			}
		}
	}
	// The run's filter decides on the library's functions too.
	flt := filepath.Join(dir, "lib.filter")
	os.WriteFile(flt, []byte("SCOREP_REGION_NAMES_BEGIN EXCLUDE libwork SCOREP_REGION_NAMES_END\n"), 0o666)
	r := run(t, exe, []string{"OMP_NUM_THREADS=2", "GOPARI_FILTER=" + flt})
	if r.stdout != "3996008\n" {
		t.Fatalf("filtered: printed %q", r.stdout)
	}
	tree, err := callpath.FromProfile(readProfile(t, r))
	if err != nil || tree == nil {
		t.Fatalf("filtered: call paths: %v", err)
	}
	if ids := cpByName(tree, "libwork"); len(ids) > 0 {
		t.Errorf("GOPARI_FILTER excludes libwork, a function of the library: %d nodes", len(ids))
	}
	if v := cpVisits(tree, cpByName(tree, "main")); v != 1 {
		t.Errorf("filtered: main visited %d times, want 1", v)
	}
}
