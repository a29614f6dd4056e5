package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"gopari/internal/gen"
)

// instrumenterTarget is issue 27's target for gopari instrument through
// the command line, on any dense input.
const instrumenterTarget = 3.4e6 // lines/s

// An instrInput is one generated input of the instrumenter benchmark.
type instrInput struct {
	kind, path string
	lines      int
}

// instrumenter measures gopari instrument through the command line, end
// to end (start, read, instrument, write a file), on two generated inputs
// of 200k and 1M lines each: gen.Dense, the file the figures were tuned
// on (every construct class, lock calls, user regions, _Pragma, nesting
// and long lines, one directive per 8 lines), and gen.Mixed, functions
// drawn at random that it was not tuned on (a third serial with pragma
// text in comments and strings, the rest parallel code of every common
// kind, a directive per 7 lines). The four files alternate run by run,
// so that drift of the machine cancels in the ratios of 1M to 200k;
// figures are medians of the runs' wall times, with the CPU time
// (user + system) beside them. Each run writes a new file: the previous
// run's output is removed before the clock starts, as replacing it would
// add the kernel's work of freeing the old file. Instructions per line,
// which do not depend on the load or the CPU, are counted by callgrind on
// the 200k-line files (skipped with -quick).
func (b *bench) instrumenter(w io.Writer) {
	runs := 21
	if *quick {
		runs = 5
	}
	inputs := b.instrumenterInputs()
	out := filepath.Join(b.work, "instrumented.pomp.c")
	wall := make([][]float64, len(inputs))
	cpu := make([][]float64, len(inputs))
	loadBefore := loadAverage()
	for r := 0; r < runs; r++ {
		for i, in := range inputs {
			wt, ct := b.instrumentOnce(in.path, out)
			wall[i] = append(wall[i], wt)
			cpu[i] = append(cpu[i], ct)
		}
	}
	fmt.Fprintf(w, "## Instrumenter: gopari instrument through the command line (%s)\n\n", cpuName())
	// The command works on two threads: other programs on the machine
	// take cores from it, which the wall times show.
	fmt.Fprintf(w, "Load average (1 minute) before the runs %s, after %s, on %d CPUs.\n\n", loadBefore, loadAverage(), runtime.NumCPU())
	fmt.Fprintf(w, "| input | lines | median wall ms | lines/s | best lines/s | median CPU ms | CPU lines/s | instructions/line |\n|---|---:|---:|---:|---:|---:|---:|---:|\n")
	for i, in := range inputs {
		med, medCPU := median(wall[i]), median(cpu[i])
		ipl := "—"
		if !*quick && in.lines < 500_000 {
			if n := b.instrumentInstructions(in.path, out); !math.IsNaN(n) {
				ipl = fmt.Sprintf("%.0f", n/float64(in.lines))
			}
		}
		fmt.Fprintf(w, "| %s | %d | %.1f | %.2fM | %.2fM | %.1f | %.2fM | %s |\n", in.kind, in.lines, med*1e3,
			float64(in.lines)/med/1e6, float64(in.lines)/slices.Min(wall[i])/1e6, medCPU*1e3, float64(in.lines)/medCPU/1e6, ipl)
	}
	fmt.Fprintln(w)
	for i := 0; i < len(inputs); i += 2 {
		small, large := inputs[i], inputs[i+1]
		var ratios []float64
		for r := range runs {
			ratios = append(ratios, wall[i+1][r]/wall[i][r])
		}
		ratio := median(ratios)
		rate := float64(small.lines) / median(wall[i])
		fmt.Fprintf(w, "%s: 1M lines take %.2f times as long as 200k lines (median of %d paired runs).\n", small.kind, ratio, runs)
		b.check(fmt.Sprintf("gopari instrument, 200k %s lines, through the CLI (%s)", small.kind, cpuName()),
			">= 3.4M lines/s", fmt.Sprintf("%.2fM lines/s", rate/1e6), rate >= instrumenterTarget, "")
		b.check(fmt.Sprintf("gopari instrument, 1M vs 200k %s lines (%d, %d)", small.kind, large.lines, small.lines),
			"<= 5.5x the time", fmt.Sprintf("%.2fx", ratio), ratio <= 5.5, "")
	}
	fmt.Fprintln(w)
}

// loadAverage returns the machine's load average over the last minute,
// or "?".
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) > 0 {
		return f[0]
	}
	return "?"
}

// instrumenterInputs writes the generated files: Dense and Mixed, each at
// 200k and 1M lines, in that order.
func (b *bench) instrumenterInputs() []instrInput {
	var inputs []instrInput
	for _, kind := range []string{"dense", "mixed"} {
		for _, n := range []int{200_000, 1_000_000} {
			src := gen.Dense(n)
			if kind == "mixed" {
				src = gen.Mixed(n, 7)
			}
			in := instrInput{kind: kind, lines: gen.Lines(src), path: filepath.Join(b.work, fmt.Sprintf("%s-%d.c", kind, n))}
			if err := os.WriteFile(in.path, src, 0o644); err != nil {
				fatalf("%v", err)
			}
			inputs = append(inputs, in)
		}
	}
	return inputs
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

// instrumentInstructions counts the instructions, all threads, of
// gopari instrument src -o out under valgrind's callgrind (Go's
// asynchronous preemption off: its signals make callgrind 3.19 abort),
// or returns NaN when valgrind is not installed.
func (b *bench) instrumentInstructions(src, out string) float64 {
	if _, err := exec.LookPath("valgrind"); err != nil {
		return math.NaN()
	}
	os.Remove(out)
	prof := filepath.Join(b.work, "callgrind.instrument")
	defer os.Remove(prof)
	cmd := exec.Command("valgrind", "--tool=callgrind", "--callgrind-out-file="+prof, b.gopari, "instrument", src, "-o", out)
	cmd.Env = append(os.Environ(), "GODEBUG=asyncpreemptoff=1")
	if msg, err := cmd.CombinedOutput(); err != nil {
		fatalf("valgrind gopari instrument %s: %v\n%s", src, err, msg)
	}
	f, err := os.Open(prof)
	if err != nil {
		fatalf("%v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "summary:"); ok {
			n, err := strconv.ParseFloat(strings.TrimSpace(rest), 64)
			if err == nil {
				return n
			}
		}
	}
	fatalf("callgrind's output for gopari instrument %s has no summary", src)
	return 0
}
