package main

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"gopari/internal/experiment"
	"gopari/internal/profile"
)

// sampling measures sampled call paths (issue 26, GOPARI_SAMPLE_HZ):
// (a) what one signal costs: the time the run spent in the handler and
// in the folding thread, as its profile says, per signal; and the
// process CPU time of fibcut at 1 thread sampled at 1000 Hz against
// 1 Hz (call paths on in both), in paired rounds, over the signals more
// (the kernel's delivery included);
// (b) the overhead at 1000 Hz on the task programs (N-Queens, fib with a
// cutoff) and the proxy (built without --functions) at 1 and 2 threads:
// the instrumented build sampled against the same build unsampled, and
// against the uninstrumented build, wall and CPU time, paired rounds;
// (c) the proxy's peak memory sampled, at 1 and at 4 times the steps;
// (d) what a sampled run pays whatever its rate: fibcut with almost no
// work (nearly every task a path of its own) at 1 Hz against unsampled.
//
// Every program of (b) runs half a second or more at 1 thread (fib(43):
// 0.7 s; fib(40), until 2026-11-28, ran 0.16 s, and (d)'s few
// milliseconds, paid once, were most of its +4%).
func (b *bench) sampling(w io.Writer) {
	b.compile("fibcut", "bench/fibcut.c", "orig", "")
	b.compile("fibcut", "bench/fibcut.c", "inst", b.gopari)
	cc := append([]string{"g++", "-g", "-O2", "-fopenmp"}, layout...)
	b.buildWith("proxy", "s.orig", append(cc, "bench/proxy/proxy.cc")...)
	b.buildWith("proxy", "s.inst", append(append([]string{b.gopari, "cc"}, cc...), "bench/proxy/proxy.cc")...)
	fib, queens, proxy := []string{"43", "12"}, []string{"13", "4"}, []string{"40", "50"}
	if *quick {
		fib, queens, proxy = []string{"34", "10"}, []string{"11", "3"}, []string{"20", "20"}
	}
	b.sampleCost(w, fib)
	fmt.Fprintf(w, "## Sampled call paths at 1000 Hz: overhead\n\n")
	fmt.Fprintf(w, "Each program uninstrumented (orig), instrumented in profile mode (profile) and the same build with GOPARI_SAMPLE_HZ=1000 "+
		"(sampled; light call paths on); paired rounds, at least %d and as many as make 8 s of each build's runs (short programs "+
		"move by a few percent from run to run), medians of the per-round ratios of wall and of process CPU time. "+
		"OMP_WAIT_POLICY=passive, so that waiting threads do not spin.\n\n", 3**pairs)
	fmt.Fprintf(w, "| program | threads | rounds | orig s | profile s | sampled s | sampled/profile wall | CPU | sampled/orig wall | samples/run |\n"+
		"|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, p := range []struct {
		label, exe string
		args       []string
	}{
		{"N-Queens " + queens[0] + ", tasks to depth " + queens[1], "nqueens", queens},
		{"fib(" + fib[0] + "), tasks to depth " + fib[1], "fibcut", fib},
		{"proxy " + proxy[0] + " " + proxy[1], "proxy.s", proxy},
	} {
		for _, threads := range []int{1, 2} {
			b.sampleOverhead(w, p.label, p.exe, threads, p.args)
		}
	}
	fmt.Fprintln(w)
	b.sampleFixed(w)
	b.sampleMemory(w, proxy)
}

// sampleFixed measures part d: the process CPU time that sampling at 1 Hz
// adds to fibcut 22 12 (thousands of tasks in a few milliseconds, each making a
// path of its own) at 1 thread: the light call-path tree's nodes, the
// unwinder's loading and the profile's call paths at exit.
func (b *bench) sampleFixed(w io.Writer) {
	rounds := 10 * *pairs
	added, tasks := make([]float64, rounds), make([]float64, rounds)
	roundsOf([]string{"profile", "sampled"}, rounds, func(kind string, r int) {
		if kind == "profile" {
			added[r] -= b.runSampled("fibcut.inst", 1, 0, "22", "12").cpu
			return
		}
		run := b.runSampled("fibcut.inst", 1, 1, "22", "12")
		added[r] += run.cpu
		tasks[r] = float64(run.tasks)
	})
	ms := median(added) * 1e3
	fmt.Fprintf(w, "## Sampled call paths: what a run pays once\n\nbench/fibcut.c 22 12 at 1 thread (%.0f tasks, nearly each a path of its own), "+
		"sampled at 1 Hz against unsampled, process CPU time, %d rounds: %+.2f ms a run (median of the rounds' differences).\n\n",
		median(tasks), rounds, ms)
	b.check("sampled call paths, fixed cost of a run (fibcut 22 12, 1 thread)", "(measured)", fmt.Sprintf("%+.2f ms", ms), true, "")
}

// sampleRun is one run's wall and process CPU time (s) and its samples.
type sampleRun struct {
	wall, cpu float64
	peakMiB   float64
	sampling  profile.Sampling
	tasks     uint64 // created, when sampled
}

// runSampled runs b.exe[exe] at threads with args and GOPARI_SAMPLE_HZ=hz
// (0: unset), in profile mode, and reads its samples from its profile.
func (b *bench) runSampled(exe string, threads, hz int, args ...string) sampleRun {
	dir, err := os.MkdirTemp(b.work, "sampled-")
	if err != nil {
		fatalf("%v", err)
	}
	defer os.RemoveAll(dir)
	cmd := b.peakCommand(append([]string{b.exe[exe]}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "OMP_NUM_THREADS="+strconv.Itoa(threads), "OMP_PROC_BIND=false", "OMP_WAIT_POLICY=passive",
		"GOPARI_MODE=profile", "GOPARI_EXPERIMENT_DIRECTORY="+filepath.Join(dir, "exp"))
	if hz > 0 {
		cmd.Env = append(cmd.Env, "GOPARI_SAMPLE_HZ="+strconv.Itoa(hz))
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	t0 := time.Now()
	if err := cmd.Run(); err != nil {
		fatalf("%s %v: %v\n%s", exe, args, err, stderr.String())
	}
	r := sampleRun{wall: time.Since(t0).Seconds(), peakMiB: peakRSS(stderr.Bytes())}
	r.cpu = (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Seconds()
	if hz > 0 {
		p, err := profile.Read(experiment.Profile(filepath.Join(dir, "exp")))
		if err != nil || p.CallPaths == nil || p.CallPaths.Sampling == nil {
			fatalf("%s sampled at %d Hz: no samples in its profile (%v)", exe, hz, err)
		}
		r.sampling = *p.CallPaths.Sampling
		for _, t := range p.Tasks {
			r.tasks += t.Created
		}
	}
	return r
}

// sampleCost measures what one signal costs (part a).
func (b *bench) sampleCost(w io.Writer, args []string) {
	var handler, fold, added, signals, samples []float64
	for r := 0; r < 3**pairs; r++ {
		var lo, hi sampleRun
		if r%2 == 0 { // either first in turn
			lo, hi = b.runSampled("fibcut.inst", 1, 1, args...), b.runSampled("fibcut.inst", 1, 1000, args...)
		} else {
			hi, lo = b.runSampled("fibcut.inst", 1, 1000, args...), b.runSampled("fibcut.inst", 1, 1, args...)
		}
		s := hi.sampling
		if s.Signals == 0 {
			fatalf("fibcut sampled at 1000 Hz handled no signal")
		}
		handler = append(handler, float64(s.HandlerNs)/float64(s.Signals))
		fold = append(fold, float64(s.FoldNs)/float64(s.Signals))
		signals, samples = append(signals, float64(s.Signals)), append(samples, float64(s.Samples))
		if d := s.Signals - lo.sampling.Signals; d > 0 {
			added = append(added, (hi.cpu-lo.cpu)*1e9/float64(d))
		}
	}
	h, f := median(handler), median(fold)
	fmt.Fprintf(w, "## Sampled call paths: the cost of a signal\n\n")
	fmt.Fprintf(w, "bench/fibcut.c %s %s at 1 thread, instrumented, GOPARI_SAMPLE_HZ=1000: %.0f signals for %.0f samples a run "+
		"(the kernel fires CPU-time timers at its tick); %d rounds, medians.\n\n", args[0], args[1], median(signals), median(samples), 3**pairs)
	fmt.Fprintf(w, "| what | ns per signal |\n|---|---:|\n")
	fmt.Fprintf(w, "| in the handler (clock reads, unwinding), as the run measured it | %.0f |\n", h)
	fmt.Fprintf(w, "| in the folding thread | %.0f |\n", f)
	fmt.Fprintf(w, "| process CPU time, 1000 Hz against 1 Hz, over the signals more (the kernel's delivery, and the run's fixed costs of samples: the symbols read at exit; noisy) | %.0f |\n\n", median(added))
	b.check("sampled call paths, one signal (handler + folding), 1 thread", "(measured)", fmt.Sprintf("%.0f + %.0f ns", h, f), true, "")
}

// sampleOverhead writes one row of part b.
func (b *bench) sampleOverhead(w io.Writer, label, exe string, threads int, args []string) {
	runs := map[string][]sampleRun{}
	rounds := 3 * *pairs
	if l := b.runSampled(exe+".inst", threads, 0, args...).wall; l > 0 && int(math.Ceil(8/l)) > rounds {
		rounds = min(int(math.Ceil(8/l)), 10**pairs)
	}
	roundsOf([]string{"orig", "profile", "sampled"}, rounds, func(kind string, r int) {
		switch kind {
		case "orig":
			runs[kind] = append(runs[kind], b.runSampled(exe+".orig", threads, 0, args...))
		case "profile":
			runs[kind] = append(runs[kind], b.runSampled(exe+".inst", threads, 0, args...))
		default:
			runs[kind] = append(runs[kind], b.runSampled(exe+".inst", threads, 1000, args...))
		}
	})
	med := func(kind string, f func(sampleRun) float64) float64 {
		var v []float64
		for _, r := range runs[kind] {
			v = append(v, f(r))
		}
		return median(v)
	}
	ratio := func(a, base string, f func(sampleRun) float64) float64 {
		var v []float64
		for i := range runs[a] {
			v = append(v, f(runs[a][i])/f(runs[base][i]))
		}
		return median(v)
	}
	wall := func(r sampleRun) float64 { return r.wall }
	cpu := func(r sampleRun) float64 { return r.cpu }
	rw, rc := ratio("sampled", "profile", wall), ratio("sampled", "profile", cpu)
	fmt.Fprintf(w, "| %s | %d | %d | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.0f |\n", label, threads, rounds, med("orig", wall), med("profile", wall),
		med("sampled", wall), rw, rc, ratio("sampled", "orig", wall), med("sampled", func(r sampleRun) float64 { return float64(r.sampling.Samples) }))
	// At 1 thread the CPU time is the figure to judge (one thread does
	// all the work), at 2 the wall time, as fib's part does.
	judged, what := rw, "wall"
	if threads == 1 {
		judged, what = rc, "CPU"
	}
	b.check(fmt.Sprintf("sampled call paths at 1000 Hz, %s, %d thread(s), against profile mode", label, threads), "<= +2% ("+what+")",
		fmt.Sprintf("%+.1f%% wall, %+.1f%% CPU", (rw-1)*100, (rc-1)*100), judged <= 1.02, "")
}

// sampleMemory runs the sampled proxy at its steps and at 4 times them
// (part c).
func (b *bench) sampleMemory(w io.Writer, args []string) {
	steps, _ := strconv.Atoi(args[1])
	long := []string{args[0], strconv.Itoa(4 * steps)}
	var short, longer []float64
	for i := 0; i < 3; i++ {
		short = append(short, b.runSampled("proxy.s.inst", 2, 1000, args...).peakMiB)
		longer = append(longer, b.runSampled("proxy.s.inst", 2, 1000, long...).peakMiB)
	}
	s, l := median(short), median(longer)
	fmt.Fprintf(w, "## Sampled call paths: peak memory\n\nThe proxy %s sampled at 1000 Hz, 2 threads: %d steps %.1f MiB, %d steps %.1f MiB (peak RSS, median of 3).\n\n",
		args[0], steps, s, 4*steps, l)
	b.check("sampled call paths, peak memory at 4 times the run length", "flat (<= +10%)", fmt.Sprintf("%.1f -> %.1f MiB", s, l), l <= 1.1*s, "")
}
