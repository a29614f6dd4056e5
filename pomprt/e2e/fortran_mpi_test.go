package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gopari/internal/profile"
)

// MPI calls made from Fortran (pomprt/mpi/pomp_mpi_f.c): testdata/
// fortran_mpi.F90 built through gopari cc mpif90 with each of Open MPI's
// Fortran bindings, run as 2 ranks of 2 threads; every call is counted
// once, with the messages and bytes the C wrappers would count.

// TestFortranMPI runs fortran_mpi.F90 with include 'mpif.h', use mpi and
// use mpi_f08: the output is the uninstrumented build's, and each rank's
// MPI calls, messages and bytes and its OpenMP visits are exact.
func TestFortranMPI(t *testing.T) {
	t.Parallel()
	prefix := needMPI(t)
	for _, tool := range []string{"mpif90", "gfortran"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed (Debian: libopenmpi-dev, gfortran)", tool)
		}
	}
	src, _ := filepath.Abs("testdata/fortran_mpi.F90")
	for _, b := range []struct{ name, flag string }{{"mpif.h", "-UUSE_MPI"}, {"use mpi", "-DUSE_MPI"}, {"use mpi_f08", "-DUSE_F08"}} {
		dir := t.TempDir()
		p := program{name: b.name, orig: filepath.Join(dir, "prog.orig"), inst: filepath.Join(dir, "prog")}
		for _, argv := range [][]string{
			{"mpif90", "-fopenmp", "-O2", b.flag, src, "-o", p.orig},
			{gopariCommand(t), "cc", "mpif90", "-fopenmp", "-O2", b.flag, src, "-o", p.inst},
		} {
			cmd := exec.Command(argv[0], argv[1:]...)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "GOPARI_PREFIX="+prefix)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("%s: %s: %v\n%s", b.name, strings.Join(argv, " "), err, out)
			}
		}
		want := mpirun(t, t.TempDir(), 2, nil, p.orig)
		got := mpirun(t, dir, 2, nil, p.inst)
		if got.stdout != want.stdout || got.code != 0 || want.code != 0 || !strings.Contains(want.stdout, "gathered") {
			t.Fatalf("%s: instrumented printed %q (exit %d), original %q (exit %d)\n%s", b.name, got.stdout, got.code, want.stdout, want.code, got.stderr)
		}
		jobs := jobDirs(t, dir)
		if len(jobs) != 1 {
			t.Fatalf("%s: job directories %v, want one", b.name, jobs)
		}
		for rank := 0; rank < 2; rank++ {
			prof, err := profile.Read(filepath.Join(jobs[0], fmt.Sprintf("rank-%05d", rank), "profile.json"))
			if err != nil {
				t.Fatal(err)
			}
			checkFortranMPIRank(t, fmt.Sprintf("%s, rank %d", b.name, rank), rank, prof)
		}
	}
}

// checkFortranMPIRank checks one rank of fortran_mpi.F90 against the
// counts its comment gives.
func checkFortranMPIRank(t *testing.T, what string, rank int, prof *profile.Profile) {
	t.Helper()
	const rounds, n = 3, 10             // as in fortran_mpi.F90
	var bcast, gather uint64 = 0, 2 * 4 // rank 0 is the root: it sends the broadcast and gathers in place
	if rank == 0 {
		bcast, gather = 4*4, 0
	}
	want := map[string]map[string]call{"0": {
		"MPI_Init":      {1, 0, 0},
		"MPI_Isend":     {rounds, rounds, rounds * n * 4},
		"MPI_Recv":      {2 * rounds, 0, 0},
		"MPI_Wait":      {rounds, 0, 0},
		"MPI_Send":      {rounds, rounds, rounds * n * 4},
		"MPI_Allreduce": {rounds, 0, rounds * 8},
		"MPI_Barrier":   {rounds, 0, 0},
		"MPI_Bcast":     {1, 0, bcast},
		"MPI_Gather":    {1, 0, gather},
		"MPI_Finalize":  {1, 0, 0},
	}}
	if got := mpiCalls(prof); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("%s: MPI calls by thread\n got %v\nwant %v", what, got, want)
	}
	if prof.MPI == nil || prof.MPI.Rank != rank || prof.MPI.Size != 2 {
		t.Errorf("%s: the profile says %+v", what, prof.MPI)
	}
	if got := visits(prof, "parallel", "construct"); got != rounds {
		t.Errorf("%s: %d parallel regions, want %d", what, got, rounds)
	}
	if got := visits(prof, "parallel", "body"); got != 2*rounds {
		t.Errorf("%s: %d implicit tasks, want %d", what, got, 2*rounds)
	}
	if prof.UnmatchedEvents != 0 {
		t.Errorf("%s: %d unmatched events", what, prof.UnmatchedEvents)
	}
	checkInvariants(t, prof)
}
