package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
)

// Counts per task and per construct that do not depend on the CPU or the
// load (issue 27): what each measurement mode adds in instructions and
// clock reads, under callgrind, one thread. Each figure is the
// difference of two runs of different lengths over the difference of
// their units, so that the start and the end of a run cancel.

// countModes are the builds and modes counted: the uninstrumented build
// first.
var countModes = []string{"orig", "ids", "profile", "trace", "grains"}

// counted is one program's counts per unit in one mode.
type counted struct {
	instr, clock float64
}

// unitProg is a program run at two lengths: args(k) for length k
// (0 or 1), which does units(k) units of work.
type unitProg struct {
	name  string // build name (b.exe[name+".orig"], name+".inst")
	unit  string // what a unit is
	args  func(k int) []string
	units func(k int) float64
}

// fibTasks is the number of tasks bench/fib.c creates for fib(n).
func fibTasks(n int) float64 {
	a, b := 0.0, 1.0
	for i := 0; i < n+1; i++ {
		a, b = b, a+b
	}
	return 2*a - 2
}

// slowDown is how many times slower callgrind runs a program here
// (50 to 85 times, measured on tiny tasks), rounded up.
const slowDown = 100

// countingPrefix builds, once, the counting build of the runtime: the
// same code, with the durations by which it decides what to time
// (LONG_NS, SHORT_NS: a region whose instances are long is timed in
// full, a short task on a timed frame is estimated) scaled by slowDown,
// so that under callgrind it takes the decisions it takes natively. It
// returns the GOPARI_PREFIX that gopari cc links with it.
func (b *bench) countingPrefix() string {
	dir := filepath.Join(b.work, "counting")
	if _, err := os.Stat(filepath.Join(dir, "lib", "libpomp.a")); err == nil {
		return dir
	}
	if err := os.MkdirAll(filepath.Join(dir, "include"), 0o777); err != nil {
		fatalf("%v", err)
	}
	cmd := exec.Command("go", "build", "-trimpath", "-buildmode=c-archive", "-o", filepath.Join(dir, "lib", "libpomp.a"), "./pomprt")
	cmd.Env = append(os.Environ(), fmt.Sprintf("CGO_CFLAGS=-O2 -DLONG_NS=%d -DSHORT_NS=%d", 10000*slowDown, 2000*slowDown))
	if out, err := cmd.CombinedOutput(); err != nil {
		fatalf("building the counting runtime: %v\n%s", err, out)
	}
	h, err := os.ReadFile(filepath.Join(filepath.Dir(filepath.Dir(b.gopari)), "build", "include", "pomp.h"))
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, "include", "pomp.h"), h, 0o666)
	}
	if err != nil {
		fatalf("%v", err)
	}
	return dir
}

// compileCounting builds src with gopari cc against the counting
// runtime, as name.count.
func (b *bench) compileCounting(name, src string) {
	b.compileEnv([]string{"GOPARI_PREFIX=" + b.countingPrefix()}, name, src, "count", b.gopari)
}

func (b *bench) unitProgs() []unitProg {
	b.compile("fib", "bench/fib.c", "orig", "")
	b.compile("counts", "bench/counts.c", "orig", "")
	for _, p := range [][2]string{{"tiny", "bench/tiny.c"}, {"fib", "bench/fib.c"}, {"counts", "bench/counts.c"}} {
		b.compileCounting(p[0], p[1])
	}
	tinyN := []int{20000, 80000}
	fibN := []int{16, 19}
	progs := []unitProg{
		{"tiny", "task", func(k int) []string { return []string{strconv.Itoa(tinyN[k])} }, func(k int) float64 { return float64(tinyN[k]) }},
		{"fib", "task", func(k int) []string { return []string{strconv.Itoa(fibN[k])} }, func(k int) float64 { return fibTasks(fibN[k]) }},
	}
	reps := []int{2000, 12000}
	for _, c := range []string{"parallel", "for", "barrier", "single", "critical", "atomic", "lock", "task", "taskwait", "taskgroup"} {
		progs = append(progs, unitProg{"counts", c,
			func(k int) []string { return []string{c, strconv.Itoa(reps[k])} }, func(k int) float64 { return float64(reps[k]) }})
	}
	return progs
}

// countAll counts every program in every mode, as many runs at once as
// there are processors (the counts do not depend on the load).
func (b *bench) countAll(progs []unitProg) map[string]counted {
	type job struct {
		p    unitProg
		mode string
	}
	var jobs []job
	for _, p := range progs {
		for _, m := range countModes {
			jobs = append(jobs, job{p, m})
		}
	}
	out := map[string]counted{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	next := make(chan job)
	for i := 0; i < runtime.NumCPU(); i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range next {
				c := b.countOne(j.p, j.mode)
				mu.Lock()
				out[j.p.unit+"."+j.p.name+"."+j.mode] = c
				mu.Unlock()
			}
		}()
	}
	for _, j := range jobs {
		next <- j
	}
	close(next)
	wg.Wait()
	return out
}

// countOne counts p in a mode: per unit, the difference of its two
// lengths.
func (b *bench) countOne(p unitProg, mode string) counted {
	exe, m := b.exe[p.name+".count"], mode
	if mode == "orig" {
		exe, m = b.exe[p.name+".orig"], "profile"
	}
	a := b.callgrindIn(m, exe, p.args(0)...)
	z := b.callgrindIn(m, exe, p.args(1)...)
	d := p.units(1) - p.units(0)
	return counted{instr: (z.instr - a.instr) / d, clock: hundredths((z.clock - a.clock) / d)}
}

// counts prints instructions and clock reads per task (tiny tasks, fib)
// and per construct in every mode, and judges the clock reads of trace
// and grains mode per task against the four.
func (b *bench) counts(w io.Writer) {
	progs := b.unitProgs()
	c := b.countAll(progs)
	b.countsByMode = c
	fmt.Fprintf(w, "## Instructions and clock reads per task and per construct (callgrind, 1 thread)\n\n")
	fmt.Fprintf(w, "Counts do not depend on the CPU or the load: each is the difference of two runs of different lengths over the "+
		"difference of their units, with a runtime whose time thresholds are scaled to callgrind's slowdown (%d times), "+
		"so that it times what it times natively. Instructions are those the uninstrumented build executes and, per mode, those gopari adds; "+
		"clock reads are rdtsc/rdtscp executed and clock_gettime calls.\n\n", slowDown)
	fmt.Fprintf(w, "| program | unit | uninstrumented instructions |")
	for _, m := range countModes[1:] {
		fmt.Fprintf(w, " %s: added instructions, clock reads |", m)
	}
	fmt.Fprintf(w, "\n|---|---|---:|")
	for range countModes[1:] {
		fmt.Fprintf(w, "---:|")
	}
	fmt.Fprintln(w)
	for _, p := range progs {
		name := p.name
		if name == "counts" {
			name = "bench/counts.c"
		}
		base := c[p.unit+"."+p.name+".orig"]
		fmt.Fprintf(w, "| %s | %s | %.0f |", name, p.unit, base.instr)
		for _, m := range countModes[1:] {
			x := c[p.unit+"."+p.name+"."+m]
			fmt.Fprintf(w, " %+.0f, %.2f |", x.instr-base.instr, x.clock-base.clock)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w)
	for _, m := range []string{"trace", "grains"} {
		x := c["task.tiny."+m].clock - c["task.tiny.orig"].clock
		b.check(m+" mode, clock reads per tiny task", "<= 4", fmt.Sprintf("%.2f", x), x <= 4, "")
	}
}

// tinyClockReads returns the clock reads a tiny task adds in mode,
// counting them first if the counts part did not run.
func (b *bench) tinyClockReads(mode string) float64 {
	if b.countsByMode == nil {
		progs := b.unitProgs()[:1]
		b.countsByMode = b.countAll(progs)
	}
	return b.countsByMode["task.tiny."+mode].clock - b.countsByMode["task.tiny.orig"].clock
}
