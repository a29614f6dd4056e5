package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
)

// mpi measures what libpomp_mpi.a adds to an MPI call: a ping-pong of
// 8-byte messages between two ranks (bench/pingpong.c, 2 MPI calls per
// rank and round trip), built with mpicc and through gopari cc mpicc
// (profile mode), in rounds that alternate the two builds. The program
// times its own batches of 1000 round trips and reports the fastest, which
// filters out what else runs on a shared machine; figures are medians of
// the per-round differences.
func (b *bench) mpi(w io.Writer) {
	fmt.Fprintf(w, "## MPI ping-pong, 8-byte messages, 2 ranks\n\n")
	for _, tool := range []string{"mpicc", "mpirun"} {
		if _, err := exec.LookPath(tool); err != nil {
			fmt.Fprintf(w, "Skipped: %s is not installed.\n\n", tool)
			return
		}
	}
	if _, err := os.Stat("build/lib/libpomp_mpi.a"); err != nil {
		fmt.Fprintf(w, "Skipped: build/lib/libpomp_mpi.a is missing (make builds it where mpicc is installed).\n\n")
		return
	}
	exe := map[string]string{}
	for _, kind := range []string{"orig", "inst"} {
		exe[kind] = filepath.Join(b.work, "pingpong."+kind)
		args := append([]string{"mpicc", "-O2", "-fopenmp"}, layout...)
		args = append(args, "bench/pingpong.c", "-o", exe[kind])
		if kind == "inst" {
			args = append([]string{b.gopari, "cc"}, args...)
		}
		if out, err := exec.Command(args[0], args[1:]...).CombinedOutput(); err != nil {
			fatalf("building %s: %v\n%s", exe[kind], err, out)
		}
	}
	n := 300000
	if *quick {
		n = 30000
	}
	per := map[string][]float64{}
	for r := 0; r < *pairs; r++ {
		for k := 0; k < 2; k++ {
			kind := []string{"orig", "inst"}[(k+r)%2]
			per[kind] = append(per[kind], b.pingpong(exe[kind], n))
		}
	}
	var diffs []float64
	lo, hi := 0.0, 0.0
	for i := range per["orig"] {
		d := (per["inst"][i] - per["orig"][i]) / 2 // per call
		diffs = append(diffs, d)
		if i == 0 || d < lo {
			lo = d
		}
		if i == 0 || d > hi {
			hi = d
		}
	}
	added := median(diffs)
	fmt.Fprintf(w, "%d round trips per run, in batches of 1000, the fastest batch counted; each rank makes 2 calls per round trip.\n\n", n)
	fmt.Fprintf(w, "| build | ns per round trip (median) | added ns per MPI call (median of rounds) | spread over rounds |\n|---|---:|---:|---|\n")
	fmt.Fprintf(w, "| uninstrumented | %.1f | | |\n", median(per["orig"]))
	fmt.Fprintf(w, "| gopari, profile mode | %.1f | %+.1f | %+.1f … %+.1f |\n\n", median(per["inst"]), added, lo, hi)
	b.check("MPI ping-pong, added per call", "<= 50 ns", fmt.Sprintf("%+.1f ns", added), added <= 50, "")
}

// pingpong runs one ping-pong job and returns rank 0's ns per round trip.
func (b *bench) pingpong(exe string, n int) float64 {
	dir, err := os.MkdirTemp(b.work, "mpi-")
	if err != nil {
		fatalf("%v", err)
	}
	defer os.RemoveAll(dir)
	args := []string{"-np", "2", "--mca", "btl", "self,vader", "--mca", "oob_tcp_if_include", "lo"}
	if os.Getuid() == 0 {
		args = append(args, "--allow-run-as-root")
	}
	cmd := exec.Command("mpirun", append(args, exe, strconv.Itoa(n))...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "OMP_NUM_THREADS=1", "GOPARI_MODE=profile", "GOPARI_EXPERIMENT_DIRECTORY="+filepath.Join(dir, "exp"))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		fatalf("mpirun %s: %v\n%s", exe, err, stderr.String())
	}
	var ns float64
	if _, err := fmt.Sscanf(stdout.String(), "%f ns per round trip", &ns); err != nil {
		fatalf("pingpong: cannot read %q", stdout.String())
	}
	return ns
}
