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
	ch := chain{root: []string{"main", "MAIN__"}, sym: func(fn string) string { return "__fcp_MOD_" + fn }}
	for _, threads := range []string{"1", "2"} {
		var slow []string
		for try := 0; try < 3; try++ {
			if slow = chainRun(t, exe, threads, ch); len(slow) == 0 {
				break
			}
		}
		for _, s := range slow {
			t.Error(s)
		}
	}
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
}
