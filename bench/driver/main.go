// Command driver runs gopari's benchmarks and prints one table: what
// instrumentation costs, in ids and profile mode, on Lorenz et al.'s tiny-task
// program, on EPCC-style construct microbenchmarks, on two realistic
// codes, and what the instrumenter and the runtime's memory do; and call
// paths (gopari cc --functions): the cost of a call, a proxy application.
//
// Every comparison runs in rounds that alternate the uninstrumented
// program with the instrumented one in each mode (A, B, C, A, B, C, ...),
// so that drift of a shared machine hits all alike; figures are medians
// of the per-round differences or ratios.
//
// Usage (from the repository root, after make build):
//
//	go run ./bench/driver [-pairs 7] [-threads 1,2] [-out build/bench.md]
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"
)

var (
	pairs   = flag.Int("pairs", 7, "rounds of every comparison (at least 7)")
	threads = flag.String("threads", "", "comma-separated thread counts (default 1,2 and the machine's cores)")
	outFile = flag.String("out", "build/bench.md", "where to write the table as well")
	quick   = flag.Bool("quick", false, "smaller inputs, for trying the driver")
	only    = flag.String("only", "", "comma-separated parts to run (tiny,constructs,realistic,grains,memory,instrumenter,exports,scaling,report,mpi,barrier,counts,fib,doacross,trace,functions,sampling; default all)")
)

// part reports whether the part called name is to run.
func part(name string) bool {
	if *only == "" {
		return true
	}
	for _, p := range strings.Split(*only, ",") {
		if strings.TrimSpace(p) == name {
			return true
		}
	}
	return false
}

var modes = []string{"orig", "ids", "profile"}

func main() {
	flag.Parse()
	if *pairs < 1 {
		fatalf("-pairs must be at least 1")
	}
	b := &bench{}
	perThreads := []struct {
		name string
		run  func(io.Writer, int)
	}{{"tiny", b.tiny}, {"constructs", b.constructs}, {"realistic", b.realistic}, {"grains", b.grains}}
	once := []struct {
		name string
		run  func(io.Writer)
	}{
		{"memory", b.memory}, {"instrumenter", b.instrumenter}, {"exports", b.exports},
		{"scaling", b.scaling}, {"report", b.reportPage}, {"barrier", b.closingBarrier},
		{"counts", b.counts}, {"fib", b.fib}, {"doacross", b.doacross}, {"trace", b.trace}, {"mpi", b.mpi},
		{"functions", b.functions}, {"sampling", b.sampling},
	}
	known := map[string]bool{}
	for _, p := range perThreads {
		known[p.name] = true
	}
	for _, p := range once {
		known[p.name] = true
	}
	for _, p := range strings.Split(*only, ",") {
		if p = strings.TrimSpace(p); p != "" && !known[p] {
			fatalf("-only: no part %q", p)
		}
	}
	work, err := os.MkdirTemp("", "gopari-bench-")
	if err != nil {
		fatalf("%v", err)
	}
	defer os.RemoveAll(work)
	b.work = work
	defer b.clean()
	b.build()
	var out bytes.Buffer
	w := io.MultiWriter(os.Stdout, &out)
	fmt.Fprintf(w, "gopari benchmarks, %s, %d cores (%s), %d rounds per comparison\n\n", time.Now().Format("2006-01-02"), runtime.NumCPU(), cpuName(), *pairs)
	for _, t := range threadCounts() {
		for _, p := range perThreads {
			if part(p.name) {
				p.run(w, t)
			}
		}
	}
	for _, p := range once {
		if part(p.name) {
			p.run(w)
		}
	}
	b.verdicts(w)
	if *outFile != "" {
		os.MkdirAll(filepath.Dir(*outFile), 0o777)
		if err := os.WriteFile(*outFile, out.Bytes(), 0o666); err != nil {
			fatalf("%v", err)
		}
	}
}

func fatalf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "bench: "+format+"\n", args...)
	os.Exit(1)
}

type bench struct {
	work     string
	gopari   string
	exe      map[string]string // "tiny.orig", "tiny.inst", ...
	results  []verdict
	barrier  map[int]float64 // uninstrumented barrier overhead by threads
	overhead map[string]map[int]float64
	base     *string  // the baseline gopari, once built (progs.go)
	cleanup  []func() // undone at the end
	// countsByMode: instructions and clock reads per unit, by
	// "unit.program.mode" (counts.go)
	countsByMode map[string]counted
	// lastCPU is the CPU time, user and system, of the last run.
	lastCPU time.Duration
}

func (b *bench) clean() {
	for _, f := range b.cleanup {
		f()
	}
}

type verdict struct {
	what, target, measured string
	ok                     bool
	note                   string
}

func (b *bench) check(what, target, measured string, ok bool, note string) {
	b.results = append(b.results, verdict{what, target, measured, ok, note})
}

// build compiles every benchmark plainly and through gopari cc.
func (b *bench) build() {
	b.gopari, _ = filepath.Abs("bin/gopari")
	if _, err := os.Stat(b.gopari); err != nil {
		fatalf("%v (run make build first)", err)
	}
	b.exe = map[string]string{}
	progs := []struct{ name, src, libs string }{
		{"tiny", "bench/tiny.c", ""},
		{"constructs", "bench/constructs.c", ""},
		{"nqueens", "examples/nqueens/nqueens.c", ""},
		{"heat", "examples/heat/heat.c", "-lm"},
	}
	for _, p := range progs {
		for _, kind := range []string{"orig", "inst"} {
			exe := filepath.Join(b.work, p.name+"."+kind)
			args := append([]string{"gcc", "-O2", "-fopenmp"}, layout...)
			args = append(args, p.src, "-o", exe)
			if p.libs != "" {
				args = append(args, p.libs)
			}
			if kind == "inst" {
				args = append([]string{b.gopari, "cc"}, args...)
			}
			cmd := exec.Command(args[0], args[1:]...)
			if out, err := cmd.CombinedOutput(); err != nil {
				fatalf("building %s: %v\n%s", exe, err, out)
			}
			b.exe[p.name+"."+kind] = exe
		}
	}
}

func threadCounts() []int {
	if *threads != "" {
		var out []int
		for _, f := range strings.Split(*threads, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || n < 1 {
				fatalf("bad -threads %q", *threads)
			}
			out = append(out, n)
		}
		return out
	}
	out := []int{1, 2}
	for n := 4; n <= runtime.NumCPU(); n *= 2 {
		out = append(out, n)
	}
	return out
}

// run runs a benchmark program in a mode and returns its stdout, stderr
// and wall time. (Its peak memory is the program's own report, peakKiB:
// a child's rusage counts the memory of the process that forked it.)
func (b *bench) run(name, mode string, threads int, args ...string) (string, string, time.Duration) {
	exe := b.exe[name+".inst"]
	if e, ok := b.exe[name+"."+mode]; ok {
		// A build of its own: uninstrumented, or through another gopari
		// (in profile mode).
		exe, mode = e, "profile"
	}
	dir, err := os.MkdirTemp(b.work, "run-")
	if err != nil {
		fatalf("%v", err)
	}
	defer os.RemoveAll(dir)
	cmd := exec.Command(exe, args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "OMP_NUM_THREADS="+strconv.Itoa(threads), "OMP_PROC_BIND=false",
		"GOPARI_EXPERIMENT_DIRECTORY="+filepath.Join(dir, "exp")), modeEnv(mode)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	t0 := time.Now()
	if err := cmd.Run(); err != nil {
		fatalf("%s %v (%s): %v\n%s", exe, args, mode, err, stderr.String())
	}
	b.lastCPU = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	return stdout.String(), stderr.String(), time.Since(t0)
}

// rounds runs f(mode, round) for every mode, in turn, n times.
func rounds(n int, f func(mode string, round int)) { roundsOf(modes, n, f) }

// roundsOf runs f(mode, round) for every mode of list, in turn, n times.
func roundsOf(list []string, n int, f func(mode string, round int)) {
	for r := 0; r < n; r++ {
		for k := range list {
			// Rotate the order so that no mode always runs first.
			f(list[(k+r)%len(list)], r)
		}
	}
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	n := len(s)
	if n == 0 {
		return 0
	}
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// tiny measures Lorenz et al.'s tiny-task program: each thread creates 10M
// tasks that increment a counter. The program times its parallel region.
func (b *bench) tiny(w io.Writer, threads int) {
	n := "10000000"
	if *quick {
		n = "1000000"
	}
	per := map[string][]float64{}
	rounds(*pairs, func(mode string, r int) {
		_, stderr, _ := b.run("tiny", mode, threads, n)
		var ns float64
		if _, err := fmt.Sscanf(stderr, "%f ns/task", &ns); err != nil {
			fatalf("tiny: cannot read %q", stderr)
		}
		per[mode] = append(per[mode], ns)
	})
	added := func(mode string) float64 {
		var d []float64
		for i := range per[mode] {
			d = append(d, per[mode][i]-per["orig"][i])
		}
		return median(d)
	}
	fmt.Fprintf(w, "## Tiny tasks, %d thread(s), %s tasks per thread\n\n", threads, n)
	fmt.Fprintf(w, "ns/task is the wall time of the run over all tasks; per thread, each task costs the thread that runs it %d times that.\n\n", threads)
	fmt.Fprintf(w, "| build | ns/task (median) | added ns/task | added per task and thread |\n|---|---:|---:|---:|\n")
	fmt.Fprintf(w, "| uninstrumented | %.2f | | |\n", median(per["orig"]))
	for _, m := range modes[1:] {
		fmt.Fprintf(w, "| gopari, %s mode | %.2f | %+.2f | %+.2f |\n", m, median(per[m]), added(m), added(m)*float64(threads))
	}
	fmt.Fprintln(w)
	// The targets are set for Lorenz et al.'s configuration: two threads.
	if threads == 2 {
		b.check("ids mode, tiny tasks, 2 threads", "<= 1.5 ns/task", fmt.Sprintf("%+.2f ns/task", added("ids")), added("ids") <= 1.5, "")
		b.check("profile mode, tiny tasks, 2 threads", "<= 12 ns/task", fmt.Sprintf("%+.2f ns/task", added("profile")), added("profile") <= 12, "")
	}
}

// constructs measures the EPCC-style microbenchmarks.
func (b *bench) constructs(w io.Writer, threads int) {
	target := "0.03"
	if *quick {
		target = "0.005"
	}
	type key struct{ mode, name string }
	vals := map[key][]float64{}
	var names []string
	// Each run is short (about a second), so take three times the rounds.
	rounds(3**pairs, func(mode string, r int) {
		stdout, _, _ := b.run("constructs", mode, threads, target)
		for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
			f := strings.Split(line, "\t")
			if len(f) != 2 {
				fatalf("constructs: bad line %q", line)
			}
			v, _ := strconv.ParseFloat(f[1], 64)
			if mode == "orig" && r == 0 {
				names = append(names, f[0])
			}
			vals[key{mode, f[0]}] = append(vals[key{mode, f[0]}], v)
		}
	})
	if b.barrier == nil {
		b.barrier, b.overhead = map[int]float64{}, map[string]map[int]float64{}
	}
	barrier := median(vals[key{"orig", "barrier"}])
	b.barrier[threads] = barrier
	fmt.Fprintf(w, "## Constructs, %d thread(s): overhead per construct instance (ns)\n\n", threads)
	fmt.Fprintf(w, "| construct | uninstrumented | added, ids | added, profile |\n|---|---:|---:|---:|\n")
	worst, worstName := 0.0, ""
	for _, n := range names {
		d := map[string]float64{}
		for _, m := range modes[1:] {
			var diffs []float64
			for i := range vals[key{m, n}] {
				diffs = append(diffs, vals[key{m, n}][i]-vals[key{"orig", n}][i])
			}
			d[m] = median(diffs)
		}
		fmt.Fprintf(w, "| %s | %.1f | %+.1f | %+.1f |\n", n, median(vals[key{"orig", n}]), d["ids"], d["profile"])
		if d["profile"] > worst {
			worst, worstName = d["profile"], n
		}
	}
	fmt.Fprintf(w, "\nAn extra barrier costs %.1f ns here.\n\n", barrier)
	b.check(fmt.Sprintf("profile mode, every construct, %d thread(s)", threads), fmt.Sprintf("<= one barrier (%.0f ns)", barrier),
		fmt.Sprintf("worst %+.1f ns (%s)", worst, worstName), worst <= barrier, "")
}

// realistic measures a task-parallel and a loop-parallel code.
func (b *bench) realistic(w io.Writer, threads int) {
	codes := []struct {
		name string
		args []string
		what string
	}{
		{"nqueens", []string{"13", "4"}, "N-Queens 13, tasks to depth 4"},
		{"heat", []string{"256", "3000"}, "heat stencil 256x256, 3000 steps"},
	}
	if *quick {
		codes[0].args, codes[1].args = []string{"11", "3"}, []string{"64", "500"}
	}
	fmt.Fprintf(w, "## Realistic codes, %d thread(s): wall time of the whole run\n\n", threads)
	fmt.Fprintf(w, "| code | uninstrumented s | ids | profile |\n|---|---:|---:|---:|\n")
	for _, c := range codes {
		t := map[string][]float64{}
		var want string
		// Runs of about a second or less: three times the rounds.
		rounds(3**pairs, func(mode string, r int) {
			stdout, _, wall := b.run(c.name, mode, threads, c.args...)
			if want == "" {
				want = stdout
			} else if stdout != want {
				fatalf("%s printed %q, then %q", c.name, want, stdout)
			}
			t[mode] = append(t[mode], wall.Seconds())
		})
		rel := func(m string) float64 {
			var r []float64
			for i := range t[m] {
				r = append(r, t[m][i]/t["orig"][i]-1)
			}
			return median(r) * 100
		}
		fmt.Fprintf(w, "| %s | %.3f | %+.2f%% | %+.2f%% |\n", c.what, median(t["orig"]), rel("ids"), rel("profile"))
		b.check(fmt.Sprintf("profile mode, %s, %d thread(s)", c.name, threads), "<= 2%", fmt.Sprintf("%+.2f%%", rel("profile")), rel("profile") <= 2, "")
	}
	fmt.Fprintln(w)
}

// peakKiB reads the "peak N kB" line tiny.c prints at exit: the peak
// resident memory of the program alone. (A child's rusage also counts the
// memory of the process that started it.)
func peakKiB(stderr string) int64 {
	for _, line := range strings.Split(stderr, "\n") {
		var kib int64
		if _, err := fmt.Sscanf(line, "peak %d kB", &kib); err == nil {
			return kib
		}
	}
	fatalf("tiny printed no peak memory:\n%s", stderr)
	return 0
}

// memory compares the peak memory of the tiny-task program in profile
// mode at 1M and 20M tasks.
func (b *bench) memory(w io.Writer) {
	sizes := []string{"500000", "10000000"}
	if *quick {
		sizes = []string{"50000", "1000000"}
	}
	peak := map[string][]float64{}
	for r := 0; r < 3; r++ {
		for _, s := range sizes {
			_, stderr, _ := b.run("tiny", "profile", 2, s)
			peak[s] = append(peak[s], float64(peakKiB(stderr)))
		}
	}
	small, large := median(peak[sizes[0]]), median(peak[sizes[1]])
	fmt.Fprintf(w, "## Runtime memory: tiny tasks in profile mode, 2 threads\n\n")
	fmt.Fprintf(w, "| tasks | peak RSS (median of 3) |\n|---:|---:|\n")
	for _, s := range sizes {
		n, _ := strconv.Atoi(s)
		fmt.Fprintf(w, "| %d | %.1f MiB |\n", 2*n, median(peak[s])/1024)
	}
	fmt.Fprintln(w)
	growth := (large/small - 1) * 100
	b.check("profile mode, peak memory, 20M vs 1M tasks", "within 10%", fmt.Sprintf("%+.1f%%", growth), growth <= 10 && growth >= -10, "")
}

func (b *bench) verdicts(w io.Writer) {
	fmt.Fprintf(w, "## Targets\n\n| what | target | measured | |\n|---|---|---|---|\n")
	for _, v := range b.results {
		mark := "met"
		if !v.ok {
			mark = "**missed**"
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s |\n", v.what, v.target, v.measured, mark)
	}
	fmt.Fprintln(w)
}

func cpuName() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return runtime.GOARCH
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "model name") {
			if i := strings.Index(l, ":"); i >= 0 {
				return strings.TrimSpace(l[i+1:])
			}
		}
	}
	return runtime.GOARCH
}
