package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestFortranCallPaths builds fortran_cpdeep.f90, cpdeep.c's twin,
// through gopari cc --functions gfortran and checks its call paths at 1
// and 2 threads as TestCallPathChain does cpdeep.c's: main -> MAIN__ ->
// top -> mid -> leaf, visits known, inclusive times within 5% of what
// the program measured (failing only if three runs are off), the do
// loop's spins below the implicit tasks' do; then that gopari report
// names the module procedures as the user wrote them (fcp::top, not
// gfortran's __fcp_MOD_top).
func TestFortranCallPaths(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("gfortran"); err != nil {
		t.Skip("gfortran not installed")
	}
	needTools(t)
	dir := t.TempDir()
	src, _ := filepath.Abs("testdata/fortran_cpdeep.f90")
	exe := filepath.Join(dir, "fortran_cpdeep")
	argv := []string{"cc", "--functions", "gfortran", "-fopenmp", "-O2", "-g", src, "-o", exe}
	cmd := exec.Command(gopariCommand(t), argv...)
	cmd.Dir = dir // the module's .mod file
	cmd.Env = append(os.Environ(), "GOPARI_PREFIX="+runtimePrefix(t))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("gopari %s: %v\n%s", strings.Join(argv, " "), err, out)
	}
	checkChain(t, exe, chain{root: []string{"main", "MAIN__"}, sym: func(fn string) string { return "__fcp_MOD_" + fn }})
	r := run(t, exe, []string{"OMP_NUM_THREADS=2"})
	out, err := exec.Command(gopariCommand(t), "report", r.dir).CombinedOutput()
	if err != nil {
		t.Fatalf("gopari report: %v\n%s", err, out)
	}
	for _, fn := range []string{"fcp::top", "fcp::mid", "fcp::leaf", "fcp::spin", "MAIN__"} {
		if !strings.Contains(string(out), "  "+fn+"\n") {
			t.Errorf("gopari report names no %s:\n%s", fn, out)
		}
	}
	if strings.Contains(string(out), "_MOD_") {
		t.Errorf("gopari report shows a gfortran symbol:\n%s", out)
	}
	checkFortranFilter(t, dir, src, r.dir)
}

// checkFortranFilter: gopari filter proposes *ns* for fcp::ns, 32 short
// visits (ns is the procedure's name to gfortran, which applies the rule
// at compile time), and in the build with that filter each procedure
// calls the entry hook once (its own), ns never; unfiltered, top, mid and
// leaf call it three times (ns inlined twice, with its hooks).
func checkFortranFilter(t *testing.T, dir, src, run string) {
	t.Helper()
	flt := filepath.Join(dir, "f.filt")
	out, err := exec.Command(gopariCommand(t), "filter", "--min-visits", "10", "--max-mean", "1ms", "-o", flt, run).CombinedOutput()
	if err != nil {
		t.Fatalf("gopari filter: %v\n%s", err, out)
	}
	b, _ := os.ReadFile(flt)
	if !strings.Contains(string(b), "\n  EXCLUDE *ns*  # 32 visits") {
		t.Errorf("gopari filter proposes no *ns* for fcp::ns:\n%s", b)
	}
	exe := filepath.Join(dir, "filtered")
	argv := []string{"cc", "--functions", "--filter", flt, "gfortran", "-fopenmp", "-O2", "-g", src, "-o", exe}
	cmd := exec.Command(gopariCommand(t), argv...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOPARI_PREFIX="+runtimePrefix(t))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("gopari %s: %v\n%s", strings.Join(argv, " "), err, out)
	}
	plain, filtered := hookCalls(t, filepath.Join(dir, "fortran_cpdeep")), hookCalls(t, exe)
	for name, want := range map[string][2]int{"top": {3, 1}, "mid": {3, 1}, "leaf": {3, 1}, "spin": {1, 1}, "ns": {1, 0}} {
		sym := "__fcp_MOD_" + name
		if got := [2]int{plain[sym], filtered[sym]}; got != want {
			t.Errorf("%s calls the entry hook %d times unfiltered and %d filtered, want %d and %d", sym, got[0], got[1], want[0], want[1])
		}
	}
}
