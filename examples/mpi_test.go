package examples

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gopari/internal/job"
)

// TestCMakeHybrid builds examples/hybrid with CMake's find_package(MPI),
// gopari as compiler and linker launcher, once with the plain compiler
// and MPI's flags and once with mpicc as the compiler, runs it as 2 ranks
// and reads the job's merged report: the MPI calls are measured.
func TestCMakeHybrid(t *testing.T) {
	bin, prefix := tools(t)
	for _, tool := range []string{"cmake", "mpicc", "mpirun"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("hybrid CMake example: %s not installed", tool)
		}
	}
	if _, err := os.Stat(filepath.Join(prefix, "lib", "libpomp_mpi.a")); err != nil {
		t.Fatalf("%v (make builds it where mpicc is installed)", err)
	}
	mpirun := []string{"-np", "2", "--oversubscribe", "--mca", "btl", "self,vader", "--mca", "oob_tcp_if_include", "lo"}
	if os.Getuid() == 0 {
		mpirun = append(mpirun, "--allow-run-as-root")
	}
	dir := copyDir(t, "hybrid")
	env := []string{"GOPARI_PREFIX=" + prefix, "OMP_NUM_THREADS=2", "PATH=" + filepath.Dir(bin) + ":" + os.Getenv("PATH")}
	run(t, dir, env, "cmake", "-S", ".", "-B", "plain")
	run(t, dir, env, "cmake", "--build", "plain")
	want := run(t, dir, env, "mpirun", append(mpirun, "plain/ring")...)
	for _, v := range []struct{ name, compiler string }{{"find_package", ""}, {"mpicc", "-DCMAKE_C_COMPILER=mpicc"}} {
		build := "inst-" + v.name
		args := []string{"-S", ".", "-B", build, "-DCMAKE_C_COMPILER_LAUNCHER=gopari;cc", "-DCMAKE_C_LINKER_LAUNCHER=gopari;cc"}
		if v.compiler != "" {
			args = append(args, v.compiler)
		}
		run(t, dir, env, "cmake", args...)
		if out := run(t, dir, env, "cmake", "--build", build, "-v"); !strings.Contains(out, "gopari cc") {
			t.Errorf("%s: the build did not go through gopari:\n%s", v.name, out)
		}
		runDir := filepath.Join(dir, "run-"+v.name)
		os.Mkdir(runDir, 0o755)
		if got := run(t, runDir, env, "mpirun", append(mpirun, filepath.Join(dir, build, "ring"))...); got != want {
			t.Errorf("%s: instrumented job printed\n%s\nuninstrumented\n%s", v.name, got, want)
		}
		jobs, _ := filepath.Glob(filepath.Join(runDir, "gopari-ring-*"))
		if len(jobs) != 1 {
			t.Fatalf("%s: job directories %v", v.name, jobs)
		}
		j, err := job.Read(jobs[0], func(_ string, err error) string { return err.Error() })
		if err != nil {
			t.Fatalf("%s: %v", v.name, err)
		}
		if len(j.Ranks) != 2 {
			t.Fatalf("%s: %d ranks wrote a profile, want 2", v.name, len(j.Ranks))
		}
		for _, r := range job.Merge(j).Ranks {
			// MPI_Init_thread, 2 x MPI_Sendrecv, 2 x MPI_Reduce, MPI_Finalize.
			if r.MPICalls != 6 || r.Messages != 2 || r.Bytes != 2*4+8+8 {
				t.Errorf("%s: rank %d: %d MPI calls, %d messages, %d bytes; want 6, 2, 24", v.name, r.Rank, r.MPICalls, r.Messages, r.Bytes)
			}
		}
	}
}
