package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"time"

	"gopari/internal/gen"
)

// instrumenter measures gopari instrument through the command line, end
// to end (start, read, instrument, write a file), on the generated dense
// files of 200k and 1M lines: every construct class, lock calls (about 6
// omp_set_lock per 1,000 lines), user regions, _Pragma, nesting and long
// lines, one directive per 8 lines. The two sizes alternate run by run,
// so that drift of the machine cancels in their ratio; figures are
// medians of the runs' wall times, with the CPU time beside them. Each
// run writes a new file: the previous run's output is removed before the
// clock starts, as replacing it would add the kernel's work of freeing
// the old file (about 11 ms for the 14 MB output of 200k lines here, and
// the runs alternate with the 72 MB of 1M lines).
func (b *bench) instrumenter(w io.Writer) {
	sizes := []int{200_000, 1_000_000}
	runs := 21
	if *quick {
		runs = 5
	}
	srcs := make([]string, len(sizes))
	lines := make([]int, len(sizes))
	for i, n := range sizes {
		src := gen.Dense(n)
		lines[i] = gen.Lines(src)
		srcs[i] = filepath.Join(b.work, fmt.Sprintf("dense-%d.c", n))
		if err := os.WriteFile(srcs[i], src, 0o644); err != nil {
			fatalf("%v", err)
		}
	}
	out := filepath.Join(b.work, "dense.pomp.c")
	wall := make([][]float64, len(sizes))
	cpu := make([][]float64, len(sizes))
	var ratios []float64
	for r := 0; r < runs; r++ {
		for i, src := range srcs {
			wt, ct := b.instrumentOnce(src, out)
			wall[i] = append(wall[i], wt)
			cpu[i] = append(cpu[i], ct)
		}
		ratios = append(ratios, wall[1][r]/wall[0][r])
	}
	fmt.Fprintf(w, "## Instrumenter: gopari instrument through the command line, dense C with lock calls\n\n")
	fmt.Fprintf(w, "| lines | median wall ms | lines/s | best lines/s | median CPU ms |\n|---:|---:|---:|---:|---:|\n")
	for i := range sizes {
		med := median(wall[i])
		fmt.Fprintf(w, "| %d | %.1f | %.2fM | %.2fM | %.1f |\n", lines[i], med*1e3, float64(lines[i])/med/1e6,
			float64(lines[i])/slices.Min(wall[i])/1e6, median(cpu[i])*1e3)
		if i == 0 {
			rate := float64(lines[i]) / med / 1e6
			b.check("gopari instrument, 200k dense lines, through the CLI", ">= 3.4M lines/s", fmt.Sprintf("%.2fM lines/s", rate), rate >= 3.4, "")
		}
	}
	ratio := median(ratios)
	fmt.Fprintf(w, "\n1M lines take %.2f times as long as 200k lines (median of %d paired runs).\n\n", ratio, runs)
	b.check("gopari instrument, 1M vs 200k dense lines", "<= 5.5x the time", fmt.Sprintf("%.2fx", ratio), ratio <= 5.5, "")
}

// instrumentOnce runs gopari instrument src -o out and returns its wall
// and CPU (user + system) seconds.
func (b *bench) instrumentOnce(src, out string) (float64, float64) {
	if err := os.Remove(out); err != nil && !os.IsNotExist(err) {
		fatalf("%v", err)
	}
	cmd := exec.Command(b.gopari, "instrument", src, "-o", out)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	t0 := time.Now()
	if err := cmd.Run(); err != nil {
		fatalf("gopari instrument %s: %v\n%s", src, err, stderr.String())
	}
	wall := time.Since(t0).Seconds()
	ru, _ := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if ru == nil {
		return wall, 0
	}
	return wall, time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}
