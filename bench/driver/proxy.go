package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"

	"gopari/internal/experiment"
	"gopari/internal/profile"
)

// proxy measures bench/proxy/proxy.cc (parts b and c of functions).
func (b *bench) proxy(w io.Writer) {
	edge, steps := "40", "50"
	if *quick {
		edge, steps = "20", "20"
	}
	args := []string{edge, steps}
	cxx := append([]string{"g++", "-g", "-O2", "-fopenmp"}, layout...)
	src := "bench/proxy/proxy.cc"
	b.buildWith("proxy", "orig", append(cxx, src)...)
	b.buildWith("proxy", "fn", append(append([]string{b.gopari, "cc", "--functions"}, cxx...), src)...)
	b.buildWith("count", "o", "gcc", "-O2", "-c", "bench/proxy/count.c")
	// As --functions builds it, system headers left out.
	b.buildWith("proxy", "count", append(append(cxx, "-finstrument-functions", "-finstrument-functions-exclude-file-list=/usr/"),
		src, b.exe["count.o"])...)
	filter, from, fnExp := b.proxyFilter(args...)
	b.buildWith("proxy", "filter", append(append([]string{b.gopari, "cc", "--functions", "--filter", filter}, cxx...), src)...)

	// What the proxy calls: every function, inlined or not, as GCC
	// instruments them (the counting build; no time involved).
	calls, fns := b.proxyCalls(args...)
	// The filtered build against the uninstrumented one in 3 x pairs
	// rounds (runs of about a second); the unfiltered one, some 20 times
	// as long, in 3 rounds of its own.
	filtered := b.proxyRounds([]string{"orig", "filter"}, 3**pairs, args...)
	unfiltered := b.proxyRounds([]string{"orig", "fn"}, 3, args...)
	tiny, visits := b.proxyTiny(fnExp, args...)
	base := median(filtered["orig"])
	fmt.Fprintf(w, "## Call paths: the proxy application, 2 threads\n\n")
	fmt.Fprintf(w, "bench/proxy/proxy.cc %s %s (a LULESH-style hydro proxy, g++ -g -O2): %d elements, %s steps; "+
		"with every function instrumented as GCC does it (inlined ones too, system headers left out), a run makes %.3g calls to %d functions, "+
		"%.3g per second of the uninstrumented run; %s. Wall time of the whole run; the ratios are medians of the per-round ratios, "+
		"%d paired rounds for the filtered build, 3 for the unfiltered one. Filter: %s.\n\n",
		edge, steps, cube(edge), steps, calls, fns, calls/base, tiny, 3**pairs, from)
	fmt.Fprintf(w, "| build | wall s | ratio | function visits recorded |\n|---|---:|---:|---:|\n")
	fmt.Fprintf(w, "| uninstrumented | %.3f | | |\n", base)
	fmt.Fprintf(w, "| --functions | %.3f | %.2f | %s |\n", median(unfiltered["fn"]), ratioOf(unfiltered, "fn"), visits["fn"])
	fmt.Fprintf(w, "| --functions --filter | %.3f | %.3f | %s |\n\n", median(filtered["filter"]), ratioOf(filtered, "filter"), visits["filter"])
	r := ratioOf(filtered, "filter")
	b.check("call paths, proxy, --functions with the proposed filter, 2 threads", "<= +5%", fmt.Sprintf("%+.1f%%", (r-1)*100), r <= 1.05, "")
	b.proxyMemory(w)
}

// proxyRounds runs the proxy's builds of list at 2 threads in n
// alternating rounds, checks that they print the same, and returns their
// wall times (s) by build.
func (b *bench) proxyRounds(list []string, n int, args ...string) map[string][]float64 {
	wall := map[string][]float64{}
	var want string
	roundsOf(list, n, func(kind string, r int) {
		out, t, _ := b.proxyRun(kind, 2, "", args...)
		if want == "" {
			want = out
		} else if out != want {
			fatalf("proxy printed %q, then %q (%s)", want, out, kind)
		}
		wall[kind] = append(wall[kind], t.Seconds())
	})
	return wall
}

// ratioOf returns the median of the per-round ratios of kind's wall time
// to the uninstrumented one's.
func ratioOf(wall map[string][]float64, kind string) float64 {
	var r []float64
	for i := range wall[kind] {
		r = append(r, wall[kind][i]/wall["orig"][i])
	}
	return median(r)
}

func cube(edge string) int {
	n, _ := strconv.Atoi(edge)
	return n * n * n
}

// proxyCalls runs the counting build once and returns the calls it made
// and the functions it called.
func (b *bench) proxyCalls(args ...string) (float64, int) {
	var stderr bytes.Buffer
	cmd := exec.Command(b.exe["proxy.count"], args...)
	cmd.Env = append(os.Environ(), "OMP_NUM_THREADS=2")
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		fatalf("proxy (count): %v\n%s", err, stderr.String())
	}
	calls := readFigureAfter("proxy", stderr.String(), "calls")
	fns := readFigureAfter("proxy", stderr.String(), "functions")
	return calls, int(fns)
}

// readFigureAfter reads "label X" from a program's stderr.
func readFigureAfter(name, stderr, label string) float64 {
	for _, line := range bytes.Split([]byte(stderr), []byte("\n")) {
		var v float64
		if _, err := fmt.Sscanf(string(line), label+" %g", &v); err == nil {
			return v
		}
	}
	fatalf("%s printed no %s: %q", name, label, stderr)
	return 0
}

// proxyTiny reads the call paths of the --functions run in fnExp and of
// a run of the filtered build: how many function visits each recorded, and,
// of the --functions run, the share of the visits that went to functions
// whose mean exclusive time is under 50 ns (as measured, with the
// instrumentation). Without call paths (a runtime without them) it says
// so.
func (b *bench) proxyTiny(fnExp string, args ...string) (string, map[string]string) {
	visits := map[string]string{}
	var tiny string
	for _, kind := range []string{"fn", "filter"} {
		exp := fnExp
		if kind == "filter" {
			dir, err := os.MkdirTemp(b.work, "proxy-cp-")
			if err != nil {
				fatalf("%v", err)
			}
			defer os.RemoveAll(dir)
			b.proxyRun(kind, 2, dir, args...)
			exp = filepath.Join(dir, "exp")
		}
		p, err := profile.Read(experiment.Profile(exp))
		if err != nil {
			fatalf("proxy's profile: %v", err)
		}
		if p.CallPaths == nil {
			visits[kind] = "none (no call paths in this runtime)"
			tiny = "the runtime recorded no call paths"
			continue
		}
		all, small := functionVisits(p.CallPaths)
		visits[kind] = fmt.Sprintf("%.3g", all)
		if kind == "fn" {
			tiny = fmt.Sprintf("%.0f%% of the visits a --functions run records are to functions of a mean exclusive time under 50 ns", 100*small/all)
		}
	}
	return tiny, visits
}

// functionVisits sums the visits of function nodes over the threads, and
// those of functions (by address) whose mean exclusive time is under 50
// ns.
func functionVisits(cp *profile.CallPaths) (all, small float64) {
	type sum struct{ visits, ns float64 }
	by := map[uint64]*sum{}
	for _, t := range cp.Threads {
		for _, n := range t.Nodes {
			id := int(n[0])
			if id >= len(cp.Nodes) || cp.Nodes[id].Kind != "function" {
				continue
			}
			s := by[cp.Nodes[id].Addr]
			if s == nil {
				s = &sum{}
				by[cp.Nodes[id].Addr] = s
			}
			s.visits += float64(n[1])
			s.ns += float64(n[2])
		}
	}
	for _, s := range by {
		all += s.visits
		if s.visits > 0 && s.ns/s.visits < 50 {
			small += s.visits
		}
	}
	if all == 0 {
		all = 1
	}
	return all, small
}

// proxyMemory compares the peak memory of the proxy at 10 times the
// steps, hence 10 times the calls, on the same mesh (part c): the
// --functions build against the uninstrumented one, median of 3 runs. A
// smaller mesh than the timed one: the unfiltered build runs some 20
// times as long.
func (b *bench) proxyMemory(w io.Writer) {
	edge, few, many := "20", "10", "100"
	if *quick {
		edge, few, many = "12", "4", "40"
	}
	peak := map[string][]float64{}
	for r := 0; r < 3; r++ {
		for _, kind := range []string{"orig", "fn"} {
			for _, n := range []string{few, many} {
				_, _, mib := b.proxyRun(kind, 2, "", edge, n)
				peak[kind+n] = append(peak[kind+n], mib)
			}
		}
	}
	fmt.Fprintf(w, "Peak memory of the proxy (%d elements, 2 threads, median of 3 runs), as the calls grow tenfold with the steps:\n\n", cube(edge))
	fmt.Fprintf(w, "| steps | uninstrumented | --functions | added |\n|---:|---:|---:|---:|\n")
	for _, n := range []string{few, many} {
		o, f := median(peak["orig"+n]), median(peak["fn"+n])
		fmt.Fprintf(w, "| %s | %.1f MiB | %.1f MiB | %+.1f MiB |\n", n, o, f, f-o)
	}
	fmt.Fprintln(w)
	grew := median(peak["fn"+many]) - median(peak["fn"+few])
	b.check("call paths, proxy, peak memory at 10x the calls", "flat (within 1 MiB)", fmt.Sprintf("%+.1f MiB", grew),
		grew <= 1 && grew >= -1, "")
}
